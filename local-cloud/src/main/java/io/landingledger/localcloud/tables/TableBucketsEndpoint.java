package io.landingledger.localcloud.tables;

import com.fasterxml.jackson.core.JsonProcessingException;

import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.responses.ConfigResponse;

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
