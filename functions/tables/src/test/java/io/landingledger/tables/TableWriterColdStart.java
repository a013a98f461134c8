package io.landingledger.tables;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.table.TableWriteResult;
import io.landingledger.lambda.AwsConnection;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.jdbc.JdbcCatalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

import software.amazon.awssdk.regions.Region;

/**
 * A fresh JVM's way to its first table commit, run from the writer's shaded jar (TableJarIT starts it with
 * {@code landing-tables.jar}, this class and the sqlite driver only, so a class the jar lacks fails it): the catalog
 * is Iceberg's JDBC catalog in a sqlite file here (the REST catalog is the local stack's), the data and metadata files
 * go to S3 over HTTP through S3FileIO with the function's properties. Prints the figures docs/performance.md quotes;
 * asserts nothing about time.
 *
 * <p>Arguments: the S3 endpoint (a bucket {@code lake} exists), the path of {@code datasets/transactions.json}, a
 * path for the catalog's sqlite database.
 */
public final class TableWriterColdStart {
    private TableWriterColdStart() {
    }

    /**
     * A catalog in a sqlite file whose tables' files go to S3 at {@code endpoint} through S3FileIO with the function's
     * properties ({@link TableCatalogConfig#catalogProperties()}, the REST URI replaced by the database's).
     */
    static JdbcCatalog catalog(URI endpoint, Path database) {
        Map<String, String> properties = catalogProperties(endpoint);
        properties.put("uri", "jdbc:sqlite:" + database);
        properties.put("jdbc.schema-version", "V1");
        JdbcCatalog catalog = new JdbcCatalog();
        catalog.initialize("landing", properties);
        return catalog;
    }

    private static Map<String, String> catalogProperties(URI endpoint) {
        TableCatalogConfig config = new TableCatalogConfig(URI.create("http://127.0.0.1:1/unused"), "s3://lake/_tables",
                Namespace.of("unused"), false, TableCatalogConfig.S3_TABLES_SIGNING_NAME,
                AwsConnection.endpoints(Region.US_EAST_1, endpoint, endpoint));
        Map<String, String> properties = new HashMap<>(config.catalogProperties());
        properties.remove("uri");
        return properties;
    }

    public static void main(String[] args) throws Exception {
        long atMain = uptime();
        URI endpoint = URI.create(args[0]);
        DatasetContract contract = ContractLoader.load(Path.of(args[1]));
        JdbcCatalog catalog = catalog(endpoint, Path.of(args[2]));
        Namespace namespace = Namespace.of("landing_cold");
        catalog.createNamespace(namespace);
        IcebergTablePort port = new IcebergTablePort(catalog, namespace);
        port.ensureTable(contract);
        long ready = uptime();
        TableSnapshot first = commit(port, contract, "2026-10-01", "run-1", 1000, null);
        long firstCommit = uptime();
        TableSnapshot second = commit(port, contract, "2026-10-02", "run-2", 1000, first.snapshotId());
        long secondCommit = uptime();
        System.out.printf("jvm start to main %d ms, to table ready %d ms, to first commit %d ms; first 1000-row unit"
                + " written and committed in %d ms, the second in %d ms%n", atMain, ready, firstCommit,
                firstCommit - ready, secondCommit - firstCommit);
        System.out.println("rows " + first.rows() + " " + second.rows());
        // the handler as Lambda's runtime calls it: an SQS event read by the runtime's serializers, a partial batch
        // answer written back (over a writer that answers COMMITTED: the core's writer needs the ledger)
        TableWriterHandler handler = new TableWriterHandler((dataset, unit) ->
                new TableWriteResult(TableWriteResult.Outcome.COMMITTED, second.snapshotId(), null));
        String body = new TableMessage("transactions", "2026-10-02", "run-2", "sha-run-2").toJson();
        String event = "{\"Records\":[{\"messageId\":\"m-1\",\"receiptHandle\":\"r\",\"body\":"
                + JsonCodec.writeString(body) + ",\"attributes\":{},\"messageAttributes\":{},\"md5OfBody\":\"x\","
                + "\"eventSource\":\"aws:sqs\",\"eventSourceARN\":\"arn:aws:sqs:us-east-1:1:q.fifo\","
                + "\"awsRegion\":\"us-east-1\"}]}";
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), answer, null);
        System.out.println("handler answered " + answer.toString(StandardCharsets.UTF_8));
    }

    private static TableSnapshot commit(IcebergTablePort port, DatasetContract contract, String unit, String run,
                                        int rows, Long basedOn) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TransactionLines.write(out, rows, LocalDate.parse(unit));
        return port.replaceUnit(contract, new TableCommit(contract.dataset(), unit, run, "sha-" + run, null,
                contract.version(), basedOn), new ByteArrayInputStream(out.toByteArray()));
    }

    /** Milliseconds since the JVM started. */
    private static long uptime() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }
}
