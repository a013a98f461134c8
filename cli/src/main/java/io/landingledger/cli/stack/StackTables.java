package io.landingledger.cli.stack;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a stack's dataset tables are: its outputs {@value #CATALOG_URI} (the Iceberg REST endpoint),
 * {@value #BUCKET_ARN} (the table bucket, the catalog's warehouse) and {@value #NAMESPACE} (infra/template.yaml).
 *
 * @param catalogUri the Iceberg REST catalog's URI
 * @param warehouse  the table bucket's ARN
 * @param namespace  the namespace of the datasets' tables
 */
public record StackTables(URI catalogUri, String warehouse, String namespace) {
    public static final String CATALOG_URI = "TableCatalogUri";
    public static final String BUCKET_ARN = "TableBucketArn";
    public static final String NAMESPACE = "TableNamespace";

    public StackTables {
        Objects.requireNonNull(catalogUri, "catalogUri");
        Objects.requireNonNull(warehouse, "warehouse");
        Objects.requireNonNull(namespace, "namespace");
    }

    /**
     * The tables a stack's outputs name, or empty for a stack deployed before its tables (no {@value #BUCKET_ARN}).
     * {@code endpoint}, when not null, is where every API of the stack answers (the locally deployed stack's gateway):
     * its catalog is {@code <endpoint>/iceberg}, as the template's {@value #CATALOG_URI} is S3 Tables' own URL, and
     * the table writer is pointed there likewise (LANDING_TABLE_CATALOG_URI).
     */
    public static Optional<StackTables> fromOutputs(Map<String, String> outputs, URI endpoint) {
        String warehouse = outputs.get(BUCKET_ARN);
        String namespace = outputs.get(NAMESPACE);
        String uri = outputs.get(CATALOG_URI);
        if (warehouse == null || namespace == null || uri == null) {
            return Optional.empty();
        }
        URI catalog = endpoint == null ? URI.create(uri) : URI.create(endpoint.toString().replaceAll("/+$", "") + "/iceberg");
        return Optional.of(new StackTables(catalog, warehouse, namespace));
    }

    /** The table bucket's name: the last part of its ARN ({@code arn:aws:s3tables:REGION:ACCOUNT:bucket/NAME}). */
    public String bucketName() {
        int slash = warehouse.lastIndexOf('/');
        return slash < 0 ? warehouse : warehouse.substring(slash + 1);
    }
}
