package io.landingledger.localcloud.tables;

import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.jdbc.JdbcCatalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One S3 table bucket on this machine: an Iceberg catalog whose warehouse is an S3 bucket of the embedded S3
 * (the table bucket's storage), reached through the REST protocol ({@link IcebergRestRouter}). The catalog is Iceberg's
 * own {@link JdbcCatalog} on a sqlite file (its pointer from each table to its current metadata file, swapped with a
 * compare-and-set: Iceberg's commit protocol, as S3 Tables' UpdateTableMetadataLocation does with its version token);
 * every metadata, manifest and data file is an object in the storage bucket, written with Iceberg's {@code S3FileIO}.
 * The catalog signs its own S3 requests with the emulator's keys, as S3 Tables reaches its storage by itself.
 *
 * @param name    the table bucket's name (also its storage bucket's)
 * @param arn     {@code arn:aws:s3tables:REGION:ACCOUNT:bucket/NAME}, the REST clients' warehouse
 */
public record LocalTableBucket(String name, String arn, JdbcCatalog catalog) implements AutoCloseable {

    /** Where the S3 storage is and how the catalog signs for it. */
    public record Storage(URI endpoint, String region, String accessKeyId, String secretAccessKey) {
    }

    /**
     * Opens the catalog of table bucket {@code name}, its records in {@code directory}/NAME.sqlite (a fresh file: the
     * embedded S3 the files live in starts empty too), its files in S3 bucket {@code name}, which must exist.
     */
    public static LocalTableBucket open(String name, String arn, Path directory, Storage storage) {
        try {
            Files.createDirectories(directory);
            Path records = directory.resolve(name + ".sqlite");
            Files.deleteIfExists(records);
            JdbcCatalog catalog = new JdbcCatalog();
            catalog.initialize(name, properties(name, records, storage));
            return new LocalTableBucket(name, arn, catalog);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the catalog of table bucket " + name, e);
        }
    }

    static Map<String, String> properties(String name, Path records, Storage storage) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, "jdbc:sqlite:" + records.toAbsolutePath());
        properties.put("jdbc.schema-version", "V1");
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://" + name);
        properties.putAll(fileIo(storage));
        return properties;
    }

    /** S3FileIO on the given endpoint: path-style, the JDK's HTTP client (the one the project ships), static keys. */
    public static Map<String, String> fileIo(Storage storage) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put("s3.endpoint", storage.endpoint().toString());
        properties.put("s3.path-style-access", "true");
        properties.put("s3.access-key-id", storage.accessKeyId());
        properties.put("s3.secret-access-key", storage.secretAccessKey());
        properties.put("client.region", storage.region());
        properties.put("http-client.type", "urlconnection");
        return properties;
    }

    /** The catalog, for a test or the export to read the tables directly (not through the REST protocol). */
    public Catalog tables() {
        return catalog;
    }

    /** Creates namespace {@code namespace} (AWS::S3Tables::Namespace); one that exists is an error, as on AWS. */
    public void createNamespace(String namespace) {
        catalog.createNamespace(Namespace.of(namespace));
    }

    /**
     * Copies every file of every table (metadata, manifest lists, manifests, data: what each table's location holds,
     * current and earlier snapshots alike) to {@code directory}/NAMESPACE/TABLE/..., the object keys' layout under the
     * bucket: a reader of the copy maps {@code s3://NAME/} to {@code directory}. Returns how many files.
     */
    public int export(Path directory) {
        int files = 0;
        Path root = directory.toAbsolutePath().normalize();
        String prefix = "s3://" + name + "/";
        for (Namespace namespace : catalog.listNamespaces()) {
            for (TableIdentifier id : catalog.listTables(namespace)) {
                Table table = catalog.loadTable(id);
                if (!(table.io() instanceof SupportsPrefixOperations listing)) {
                    throw new IllegalStateException("the table's FileIO cannot list its location: " + table.io().getClass());
                }
                for (FileInfo file : listing.listPrefix(table.location())) {
                    if (!file.location().startsWith(prefix)) {
                        continue;
                    }
                    Path target = root.resolve(file.location().substring(prefix.length())).normalize();
                    if (!target.startsWith(root)) {
                        continue; // never outside the export directory, whatever a key says
                    }
                    try (InputStream in = table.io().newInputFile(file.location()).newStream()) {
                        Files.createDirectories(target.getParent());
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    } catch (IOException e) {
                        throw new UncheckedIOException("exporting " + file.location(), e);
                    }
                    files++;
                }
            }
        }
        return files;
    }

    @Override
    public void close() {
        catalog.close();
    }
}
