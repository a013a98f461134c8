package io.landingledger.tables;

import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.FunctionConfig;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalog;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the table writer's Iceberg catalog is and how it signs: read once at init from the function's environment,
 * turned into the properties of Iceberg's own REST client ({@link RESTCatalog}) with {@code S3FileIO} for the data
 * files. The same client on AWS (S3 Tables' Iceberg REST endpoint, SigV4 with signing name {@code s3tables}) and
 * locally (the local stack's REST catalog over the embedded S3): only these values differ.
 *
 * <table>
 *   <caption>Environment variables (docs/operations.md, "The table writer")</caption>
 *   <tr><th>variable</th><th>required</th><th>meaning</th></tr>
 *   <tr><td>{@value #TABLE_CATALOG_URI}</td><td>yes</td><td>the REST catalog's base URI, e.g.
 *       {@code https://s3tables.us-east-1.amazonaws.com/iceberg}</td></tr>
 *   <tr><td>{@value #TABLE_WAREHOUSE}</td><td>yes</td><td>the catalog's warehouse: on S3 Tables the table bucket's
 *       ARN</td></tr>
 *   <tr><td>{@value #TABLE_NAMESPACE}</td><td>yes</td><td>the namespace the dataset tables live in (the
 *       stack's)</td></tr>
 *   <tr><td>{@value #TABLE_CATALOG_SIGV4}</td><td>no</td><td>{@code true}: sign catalog requests with SigV4 (AWS);
 *       default {@code false}</td></tr>
 *   <tr><td>{@value #TABLE_CATALOG_SIGNING_NAME}</td><td>no</td><td>the SigV4 service name; default
 *       {@value #S3_TABLES_SIGNING_NAME} ({@code glue} for Glue's Iceberg endpoint)</td></tr>
 * </table>
 * {@code LANDING_TABLE_CATALOG_URI}, when set, takes the place of {@value #TABLE_CATALOG_URI} (the local stack's
 * catalog). The region, an S3 endpoint override and its keys come from the function's {@link AwsConnection}
 * ({@code AWS_REGION}, {@code LANDING_S3_ENDPOINT}, {@code LANDING_AWS_ENDPOINT}, {@code LANDING_AWS_ACCESS_KEY_ID}).
 *
 * @param uri         the REST catalog's URI
 * @param warehouse   the warehouse
 * @param namespace   the tables' namespace
 * @param sigV4       sign catalog requests with SigV4
 * @param signingName the SigV4 service name
 * @param aws         region, S3 endpoint override and static keys (present only with an override)
 */
public record TableCatalogConfig(URI uri, String warehouse, Namespace namespace, boolean sigV4, String signingName,
                                 AwsConnection aws) {
    public static final String TABLE_CATALOG_URI = "TABLE_CATALOG_URI";
    public static final String TABLE_WAREHOUSE = "TABLE_WAREHOUSE";
    public static final String TABLE_NAMESPACE = "TABLE_NAMESPACE";
    public static final String TABLE_CATALOG_SIGV4 = "TABLE_CATALOG_SIGV4";
    public static final String TABLE_CATALOG_SIGNING_NAME = "TABLE_CATALOG_SIGNING_NAME";
    /** S3 Tables' SigV4 service name. */
    public static final String S3_TABLES_SIGNING_NAME = "s3tables";

    private static final String FROM_TEMPLATE = "infra/template.yaml sets it on the table writer function";

    public TableCatalogConfig {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(warehouse, "warehouse");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(signingName, "signingName");
        Objects.requireNonNull(aws, "aws");
    }

    /**
     * Reads the variables above; {@code aws} is the function's connection (FunctionConfig's).
     *
     * @throws IllegalStateException naming the first variable that is missing or malformed
     */
    public static TableCatalogConfig fromEnvironment(Map<String, String> environment, AwsConnection aws) {
        // the locally deployed stack serves its catalog on its own endpoint, as LANDING_S3_ENDPOINT overrides S3's
        String uri = optional(environment, FunctionConfig.LANDING_TABLE_CATALOG_URI)
                .orElseGet(() -> required(environment, TABLE_CATALOG_URI));
        URI parsed;
        try {
            parsed = new URI(uri);
            boolean http = "http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme());
            if (parsed.getHost() == null || !http) {
                throw new URISyntaxException(uri, "no http(s) scheme and host");
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException(TABLE_CATALOG_URI + " is '" + uri + "', not an http(s) URL with a host");
        }
        boolean sigV4 = switch (optional(environment, TABLE_CATALOG_SIGV4).orElse("false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalStateException(TABLE_CATALOG_SIGV4 + " is '"
                    + environment.get(TABLE_CATALOG_SIGV4) + "', not true or false");
        };
        return new TableCatalogConfig(parsed, required(environment, TABLE_WAREHOUSE),
                Namespace.of(required(environment, TABLE_NAMESPACE)), sigV4,
                optional(environment, TABLE_CATALOG_SIGNING_NAME).orElse(S3_TABLES_SIGNING_NAME), aws);
    }

    /**
     * The catalog client's properties. {@code http-client.type=urlconnection}: the one HTTP client the functions
     * carry (the default, Apache 5, is not in the jar). Metrics reports are off: one more request per commit that
     * no one reads.
     */
    public Map<String, String> catalogProperties() {
        Map<String, String> properties = new TreeMap<>();
        properties.put("uri", uri.toString());
        properties.put("warehouse", warehouse);
        properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put("client.region", aws.region().id());
        properties.put("http-client.type", "urlconnection");
        properties.put("rest-metrics-reporting-enabled", "false");
        if (sigV4) {
            properties.put("rest.auth.type", "sigv4");
            properties.put("rest.auth.sigv4.delegate-auth-type", "none");
            properties.put("rest.signing-name", signingName);
            properties.put("rest.signing-region", aws.region().id());
        }
        aws.s3Endpoint().ifPresent(endpoint -> {
            // an emulator: path-style addresses, whole request bodies (see DependencyFactory.forEmulator)
            properties.put("s3.endpoint", endpoint.toString());
            properties.put("s3.path-style-access", "true");
            properties.put("s3.chunked-encoding-enabled", "false");
        });
        aws.endpointCredentials().ifPresent(keys -> {
            // static keys exist only with an endpoint override (AwsConnection refuses them otherwise): on AWS both
            // the catalog's signer and S3FileIO use the default chain, the function's execution role
            properties.put("s3.access-key-id", keys.accessKeyId());
            properties.put("s3.secret-access-key", keys.secretAccessKey());
            if (sigV4) {
                properties.put("rest.access-key-id", keys.accessKeyId());
                properties.put("rest.secret-access-key", keys.secretAccessKey());
            }
        });
        return properties;
    }

    /** A connected REST catalog client (it fetches the catalog's configuration now: call at init). */
    public RESTCatalog connect() {
        RESTCatalog catalog = new RESTCatalog();
        catalog.initialize("landing", catalogProperties());
        return catalog;
    }

    private static String required(Map<String, String> environment, String name) {
        return optional(environment, name)
                .orElseThrow(() -> new IllegalStateException(name + " is not set; " + FROM_TEMPLATE));
    }

    private static Optional<String> optional(Map<String, String> environment, String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
