package io.landingledger.localcloud.iam;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * S3 Tables' Iceberg REST endpoint ({@code /iceberg/v1/...}, signing name s3tables) to the s3tables IAM actions it is
 * authorized as, and the S3 requests on a table bucket's storage to the data actions. The endpoint "works by
 * translating Iceberg REST API operations into corresponding S3 Tables operations" (S3 user guide, "Accessing tables
 * using the Amazon S3 Tables Iceberg REST endpoint"), each authorized as its own action:
 *
 * <ul>
 *   <li>{@code GET config?warehouse=ARN}: s3tables:GetTableBucket on the bucket.</li>
 *   <li>namespaces: list s3tables:ListNamespaces, create s3tables:CreateNamespace, load and exists
 *       s3tables:GetNamespace, drop s3tables:DeleteNamespace, all on the bucket. Namespace properties: unmapped
 *       (S3 Tables keeps none).</li>
 *   <li>tables of a namespace: list s3tables:ListTables, create s3tables:CreateTable, on the bucket.</li>
 *   <li>a table: load s3tables:GetTableMetadataLocation, exists s3tables:GetTable, commit
 *       s3tables:UpdateTableMetadataLocation, drop s3tables:DeleteTable, a metrics report s3tables:GetTable, on the
 *       table.</li>
 *   <li>S3 Tables' own API, {@code PUT|GET /tables/{bucket ARN}/{namespace}/{name}/maintenance}:
 *       s3tables:PutTableMaintenanceConfiguration, GetTableMaintenanceConfiguration, on the table.</li>
 *   <li>the storage: reading an object (GetObject, HeadObject, ListParts) s3tables:GetTableData, writing one
 *       (PutObject and its multipart forms, AbortMultipartUpload) s3tables:PutTableData, on the table whose location
 *       holds the key; deleting or listing is unmapped (S3 Tables removes unreferenced files itself).</li>
 * </ul>
 *
 * The bucket is {@code arn:aws:s3tables:REGION:ACCOUNT:bucket/NAME}, the routing prefix being its name. A table is
 * {@code <bucket ARN>/table/NAMESPACE/NAME}: on AWS a table ARN ends in the table's id, which a policy names with a
 * wildcard ({@code <bucket ARN>/table/*}) or reads from the table; locally the id is its namespace and name.
 */
public final class S3TablesRequestActions {
    private static final String BASE = "/iceberg/v1/";
    /** S3 Tables' own API: {@code /tables/{bucket ARN}/{namespace}/{name}/maintenance} (the bucket ARN encoded). */
    private static final String MAINTENANCE_BASE = "/tables/";

    private final String region;
    private final String account;

    public S3TablesRequestActions(String region, String account) {
        this.region = region;
        this.account = account;
    }

    /** The ARN of table bucket {@code name}. */
    public String bucketArn(String name) {
        return "arn:aws:s3tables:" + region + ":" + account + ":bucket/" + name;
    }

    /** A request to the REST endpoint: its method, raw path and decoded query. */
    public RequestMapping map(String method, String rawPath, Map<String, String> query) {
        if (rawPath.startsWith(MAINTENANCE_BASE)) {
            return maintenance(method, rawPath);
        }
        if (!rawPath.startsWith(BASE)) {
            return RequestMapping.unmapped(method + " " + rawPath, "the S3 Tables Iceberg REST endpoint is " + BASE + "...");
        }
        List<String> p = new ArrayList<>(Arrays.asList(rawPath.substring(BASE.length()).split("/", -1)));
        p.replaceAll(S3TablesRequestActions::decode);
        if (p.size() == 1 && p.get(0).equals("config") && method.equals("GET")) {
            String warehouse = query.get("warehouse");
            if (warehouse == null || !warehouse.startsWith("arn:aws:s3tables:")) {
                return RequestMapping.unmapped("GetConfig", "the warehouse is a table bucket ARN");
            }
            return RequestMapping.of("GetConfig", AuthorizationRequest.of("s3tables:GetTableBucket", warehouse));
        }
        if (p.size() < 2 || !p.get(1).equals("namespaces")) {
            return RequestMapping.unmapped(method + " " + rawPath, "not a route of the S3 Tables Iceberg REST endpoint");
        }
        String bucket = bucketArn(p.get(0));
        int length = p.size();
        String action = null;
        String resource = bucket;
        if (length == 2) {
            action = switch (method) {
                case "GET" -> "ListNamespaces";
                case "POST" -> "CreateNamespace";
                default -> null;
            };
        } else if (length == 3) {
            action = switch (method) {
                case "GET", "HEAD" -> "GetNamespace";
                case "DELETE" -> "DeleteNamespace";
                default -> null;
            };
        } else if (p.get(3).equals("tables") && length == 4) {
            action = switch (method) {
                case "GET" -> "ListTables";
                case "POST" -> "CreateTable";
                default -> null;
            };
        } else if (p.get(3).equals("tables") && (length == 5 || length == 6)) {
            resource = tableArn(bucket, p.get(2), p.get(4));
            if (length == 6) {
                action = p.get(5).equals("metrics") && method.equals("POST") ? "GetTable" : null;
            } else {
                action = switch (method) {
                    case "GET" -> "GetTableMetadataLocation";
                    case "HEAD" -> "GetTable";
                    case "POST" -> "UpdateTableMetadataLocation";
                    case "DELETE" -> "DeleteTable";
                    default -> null;
                };
            }
        }
        if (action == null) {
            return RequestMapping.unmapped(method + " " + rawPath, "not a route of the S3 Tables Iceberg REST endpoint");
        }
        return RequestMapping.of(action, AuthorizationRequest.of("s3tables:" + action, resource));
    }

    /** PutTableMaintenanceConfiguration and GetTableMaintenanceConfiguration, on the table; nothing else of that API. */
    private RequestMapping maintenance(String method, String rawPath) {
        String[] p = rawPath.substring(MAINTENANCE_BASE.length()).split("/", -1);
        if (p.length != 4 || !p[3].equals("maintenance") || !decode(p[0]).startsWith("arn:aws:s3tables:")) {
            return RequestMapping.unmapped(method + " " + rawPath, "not an S3 Tables operation the local stack serves");
        }
        String table = tableArn(decode(p[0]), decode(p[1]), decode(p[2]));
        return switch (method) {
            case "PUT" -> RequestMapping.of("PutTableMaintenanceConfiguration",
                    AuthorizationRequest.of("s3tables:PutTableMaintenanceConfiguration", table));
            case "GET" -> RequestMapping.of("GetTableMaintenanceConfiguration",
                    AuthorizationRequest.of("s3tables:GetTableMaintenanceConfiguration", table));
            default -> RequestMapping.unmapped(method + " " + rawPath, "not an S3 Tables operation the local stack serves");
        };
    }

    /**
     * An S3 request on table bucket {@code tableBucket}'s storage, which {@link S3RequestActions} mapped to s3
     * actions: the same request as S3 Tables authorizes it.
     */
    public RequestMapping storage(RequestMapping s3, String tableBucket) {
        if (!s3.mapped()) {
            return s3;
        }
        String bucket = bucketArn(tableBucket);
        List<AuthorizationRequest> translated = new ArrayList<>();
        for (AuthorizationRequest request : s3.requests()) {
            String action = switch (request.action()) {
                case "s3:GetObject", "s3:GetObjectVersion", "s3:ListMultipartUploadParts" -> "s3tables:GetTableData";
                case "s3:PutObject", "s3:AbortMultipartUpload" -> "s3tables:PutTableData";
                default -> null;
            };
            if (action == null) {
                return RequestMapping.unmapped(s3.operation(), request.action() + " on a table bucket's storage: "
                        + "S3 Tables serves reads and writes of table files only (it removes unreferenced files itself)");
            }
            translated.add(new AuthorizationRequest(action, tableOfKey(bucket, request.resource()), request.context()));
        }
        return RequestMapping.of(s3.operation(), translated);
    }

    /** The table whose location holds {@code objectArn} (arn:aws:s3:::BUCKET/NAMESPACE/TABLE/...), else the bucket. */
    private static String tableOfKey(String bucketArn, String objectArn) {
        int slash = objectArn.indexOf('/');
        String[] parts = slash < 0 ? new String[0] : objectArn.substring(slash + 1).split("/");
        return parts.length >= 3 ? tableArn(bucketArn, parts[0], parts[1]) : bucketArn;
    }

    private static String tableArn(String bucketArn, String namespace, String table) {
        return bucketArn + "/table/" + namespace + "/" + table;
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }
}
