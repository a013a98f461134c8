package io.landingledger.localcloud.tables;

import com.fasterxml.jackson.core.JsonProcessingException;

import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.responses.ConfigResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The S3 Tables Iceberg REST endpoint of the local stack ({@code <endpoint>/iceberg}, SigV4 signing name
 * {@code s3tables}, as {@code https://s3tables.REGION.amazonaws.com/iceberg} on AWS): every table bucket the stack
 * created, each chosen by its ARN as the client's warehouse. {@code GET /iceberg/v1/config?warehouse=ARN} answers the
 * bucket's routing prefix (its name) and, as defaults, where its files are reached (the stack's S3 endpoint,
 * path-style); every other route is {@code /iceberg/v1/{prefix}/namespaces/...}, served by the bucket's
 * {@link IcebergRestRouter}. Who may call which route is decided before this class sees a request (the gateway's
 * IAM, {@code S3TablesRequestActions}).
 */
public final class TableBucketsEndpoint implements AutoCloseable {
    /** The path every route starts with. */
    public static final String BASE = "/iceberg/v1/";
    /** S3 Tables' own API for a table's maintenance: {@code /tables/{bucket ARN}/{namespace}/{name}/maintenance}. */
    private static final String MAINTENANCE_BASE = "/tables/";

    /** Each table's maintenance configurations as last put (by table ARN, then type): recorded, never run here. */
    private final Map<String, Map<String, Object>> maintenance = new ConcurrentHashMap<>();

    private final Map<String, Served> buckets = new ConcurrentHashMap<>();
    private final URI storageEndpoint;

    private record Served(LocalTableBucket bucket, IcebergRestRouter router) {
    }

    /** {@code storageEndpoint}: where a client's S3FileIO reaches the buckets' files (the stack's gateway). */
    public TableBucketsEndpoint(URI storageEndpoint) {
        this.storageEndpoint = storageEndpoint;
    }

    public void add(LocalTableBucket bucket) {
        buckets.put(bucket.name(), new Served(bucket, new IcebergRestRouter(bucket.catalog())));
    }

    /** The table bucket whose ARN is {@code arn}, or null. */
    public LocalTableBucket byArn(String arn) {
        return buckets.values().stream().map(Served::bucket).filter(b -> b.arn().equals(arn)).findFirst().orElse(null);
    }

    /** The table bucket named {@code name}, or null. */
    public LocalTableBucket byName(String name) {
        Served served = buckets.get(name);
        return served == null ? null : served.bucket();
    }

    public List<LocalTableBucket> all() {
        return buckets.values().stream().map(Served::bucket).toList();
    }

    /**
     * Answers one request.
     *
     * @param rawPath the path as sent (percent-encoded)
     * @param query   the decoded query parameters
     */
    public IcebergRestRouter.Response handle(String method, String rawPath, Map<String, String> query, byte[] body) {
        if (rawPath.startsWith(MAINTENANCE_BASE)) {
            return maintenance(method, rawPath, body);
        }
        if (!rawPath.startsWith(BASE)) {
            return IcebergRestRouter.error(404, new NotFoundException("the Iceberg REST endpoint is %s...", BASE));
        }
        List<String> segments = new ArrayList<>(Arrays.asList(rawPath.substring(BASE.length()).split("/", -1)));
        if (segments.size() == 1 && segments.get(0).equals("config") && method.equals("GET")) {
            return config(query.get("warehouse"));
        }
        Served served = buckets.get(IcebergRestRouter.decode(segments.get(0)));
        if (served == null) {
            return IcebergRestRouter.error(404, new NotFoundException("no table bucket %s in this stack",
                    IcebergRestRouter.decode(segments.get(0))));
        }
        return served.router().handle(method, segments.subList(1, segments.size()), body);
    }

    /**
     * PutTableMaintenanceConfiguration ({@code {"type", "value"}}) is recorded and answered 204; Get answers what was
     * put. Maintenance itself is not run on the local stack (docs/emulators.md).
     */
    @SuppressWarnings("unchecked")
    private IcebergRestRouter.Response maintenance(String method, String rawPath, byte[] body) {
        String[] p = rawPath.substring(MAINTENANCE_BASE.length()).split("/", -1);
        if (p.length != 4 || !p[3].equals("maintenance")) {
            return IcebergRestRouter.error(404, new NotFoundException("not an S3 Tables operation the local stack serves"));
        }
        LocalTableBucket bucket = byArn(IcebergRestRouter.decode(p[0]));
        String namespace = IcebergRestRouter.decode(p[1]);
        String name = IcebergRestRouter.decode(p[2]);
        if (bucket == null || !bucket.catalog().tableExists(TableIdentifier.of(namespace, name))) {
            return IcebergRestRouter.error(404, new NotFoundException("no table %s.%s in %s", namespace, name,
                    IcebergRestRouter.decode(p[0])));
        }
        String table = bucket.arn() + "/table/" + namespace + "/" + name;
        try {
            if (method.equals("PUT")) {
                Map<String, Object> request = IcebergRestRouter.mapper().readValue(body, Map.class);
                if (!(request.get("type") instanceof String type) || !(request.get("value") instanceof Map<?, ?> value)) {
                    return IcebergRestRouter.error(400, new BadRequestException("a maintenance configuration has a type and a value"));
                }
                maintenance.computeIfAbsent(table, t -> new ConcurrentHashMap<>()).put(type, value);
                return new IcebergRestRouter.Response(204, null);
            }
            if (method.equals("GET")) {
                Map<String, Object> answer = Map.of("tableARN", table, "configuration", maintenance.getOrDefault(table, Map.of()));
                return new IcebergRestRouter.Response(200, IcebergRestRouter.mapper().writeValueAsBytes(answer));
            }
        } catch (IOException e) {
            return IcebergRestRouter.error(400, new BadRequestException("malformed request body: %s", e.getMessage()));
        }
        return IcebergRestRouter.error(404, new NotFoundException("not an S3 Tables operation the local stack serves"));
    }

    private IcebergRestRouter.Response config(String warehouse) {
        if (warehouse == null || warehouse.isEmpty()) {
            return IcebergRestRouter.error(400, new BadRequestException(
                    "warehouse is required: the table bucket's ARN (arn:aws:s3tables:REGION:ACCOUNT:bucket/NAME)"));
        }
        LocalTableBucket bucket = byArn(warehouse);
        if (bucket == null) {
            return IcebergRestRouter.error(404, new NotFoundException("no table bucket %s in this stack", warehouse));
        }
        ConfigResponse config = ConfigResponse.builder()
                .withOverride("prefix", bucket.name())
                .withDefault("s3.endpoint", storageEndpoint.toString())
                .withDefault("s3.path-style-access", "true")
                .build();
        try {
            return new IcebergRestRouter.Response(200, IcebergRestRouter.mapper().writeValueAsBytes(config));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        buckets.values().forEach(served -> served.bucket().close());
        buckets.clear();
    }
}
