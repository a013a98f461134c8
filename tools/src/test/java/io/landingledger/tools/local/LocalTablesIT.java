package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.lambda.DependencyFactory;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.localcloud.deploy.StackConnection;

import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst's tables on the locally deployed stack: the table bucket, its namespace and its policy made from the
 * template, served at the stack's Iceberg REST endpoint to stock {@link RESTCatalog} clients that sign as AWS's
 * endpoint wants (SigV4, signing name s3tables), the table bucket's policy enforced (only the table writer's role
 * commits; a reader reads), a publish's ledger stream record queued for the writer, and the export's copy of the
 * tables' files.
 */
class LocalTablesIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "txn_id", Types.StringType.get()),
            Types.NestedField.required(2, "amount", Types.DecimalType.of(12, 2)),
            Types.NestedField.required(3, "unit", Types.DateType.get()));
    static LocalDeployment stack;
    static Path work;
    static final List<String> enqueued = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void deploy() throws Exception {
        work = Files.createTempDirectory("local-tables");
        stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, work), new LandingRuntime());
        System.out.println("[local-tables] stack up in " + stack.startupTime().toMillis() + " ms: " + stack.startupPhases());
        stack.lambda().addListener((function, payload, result, attempt, async) -> {
            if (function.logicalId().equals("TableEnqueueFunction") && !result.failed()) {
                enqueued.add(result.payloadText());
            }
        });
    }

    @AfterAll
    static void close() {
        if (stack != null) {
            stack.close();
        }
    }

    private static String warehouse() {
        return stack.outputs().get("TableBucketArn");
    }

    private static String namespace() {
        return stack.outputs().get("TableNamespace");
    }

    /** A stock REST catalog client of the stack's Iceberg endpoint, signing with {@code connection}'s keys. */
    private static RESTCatalog catalog(StackConnection connection) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, stack.icebergEndpoint().toString());
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse());
        properties.put("rest.sigv4-enabled", "true");
        properties.put("rest.signing-name", "s3tables");
        properties.put("rest.signing-region", stack.region());
        properties.put("rest.access-key-id", connection.credentials().accessKeyId());
        properties.put("rest.secret-access-key", connection.credentials().secretAccessKey());
        properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put("s3.access-key-id", connection.credentials().accessKeyId());
        properties.put("s3.secret-access-key", connection.credentials().secretAccessKey());
        properties.put("client.region", stack.region());
        properties.put("http-client.type", "urlconnection");
        RESTCatalog catalog = new RESTCatalog();
        catalog.initialize("landing", properties);
        return catalog;
    }

    /** A data file written through the table's own FileIO (its bytes are not Parquet: the catalog is what is tested). */
    private static DataFile dataFile(Table table, String unit, String name) throws IOException {
        OutputFile file = table.io().newOutputFile(table.location() + "/data/unit=" + unit + "/" + name + ".parquet");
        try (PositionOutputStream out = file.createOrOverwrite()) {
            out.write("not parquet".getBytes(StandardCharsets.UTF_8));
        }
        return DataFiles.builder(table.spec()).withPath(file.location()).withFileSizeInBytes(11).withRecordCount(3)
                .withPartitionPath("unit=" + unit).build();
    }

    @Test
    void theTableBucketAndItsNamespaceAreMadeFromTheTemplateAndServedOverTheRestProtocol() throws IOException {
        assertEquals("arn:aws:s3tables:us-east-1:123456789012:bucket/landing-local-tables", warehouse());
        assertEquals("landing_local", namespace());
        try (RESTCatalog operator = catalog(stack.operatorConnection())) {
            assertEquals(List.of(Namespace.of(namespace())), operator.listNamespaces());
        }
    }

    @Test
    void onlyTheTableWritersRoleCommits_aReaderReadsTheSnapshot_andCannotCommit() throws IOException {
        TableIdentifier id = TableIdentifier.of(namespace(), "policy_probe");
        try (RESTCatalog operator = catalog(stack.operatorConnection())) {
            // an administrator too: the table bucket's policy denies every table write but the writer's
            ForbiddenException refused = assertThrows(ForbiddenException.class, () -> operator.createTable(id, SCHEMA,
                    PartitionSpec.builderFor(SCHEMA).identity("unit").build()));
            assertTrue(refused.getMessage().contains("s3tables:CreateTable"), refused.getMessage());
        }
        long snapshot;
        try (RESTCatalog writer = catalog(stack.functionConnection("TableWriterFunction"))) {
            Table table = writer.createTable(id, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("unit").build(),
                    Map.of("format-version", "2"));
            long begin = System.nanoTime();
            table.newOverwrite().overwriteByRowFilter(Expressions.equal("unit", "2026-10-01"))
                    .addFile(dataFile(table, "2026-10-01", "run-1")).set("landing.run-id", "run-1").commit();
            System.out.println("[local-tables] a first commit through the gateway (manifests, metadata, the catalog's swap): "
                    + (System.nanoTime() - begin) / 1_000_000 + " ms");
            snapshot = table.currentSnapshot().snapshotId();
        }
        try (RESTCatalog reader = catalog(stack.managedPolicyConnection("ReaderPolicy"))) {
            Table table = reader.loadTable(id);
            assertEquals(snapshot, table.currentSnapshot().snapshotId());
            assertEquals("run-1", table.currentSnapshot().summary().get("landing.run-id"));
            int files = 0;
            try (var tasks = table.newScan().planFiles()) { // reads the manifests: s3tables:GetTableData
                for (var task : tasks) {
                    files++;
                }
            }
            assertEquals(1, files);
            // the reader's own data file is refused at the table's storage, before any commit
            S3Exception write = assertThrows(S3Exception.class, () -> dataFile(table, "2026-10-01", "reader"));
            assertEquals(403, write.statusCode());
            assertTrue(write.getMessage().contains("s3tables:PutTableData"), write.getMessage());
        }
        try (RESTCatalog operator = catalog(stack.operatorConnection())) {
            // a commit that writes no data file (a table property) is UpdateTableMetadataLocation alone: denied too
            Table table = operator.loadTable(id);
            ForbiddenException refused = assertThrows(ForbiddenException.class,
                    () -> table.updateProperties().set("owner", "operator").commit());
            assertTrue(refused.getMessage().contains("s3tables:UpdateTableMetadataLocation"), refused.getMessage());
            assertEquals(snapshot, operator.loadTable(id).currentSnapshot().snapshotId());
        }
        assertTrue(stack.accessDenied().stream().anyMatch(line -> line.contains("s3tables:CreateTable")), stack.accessDenied().toString());
    }

    @Test
    void aPublishedUnit_isQueuedForTheTableWriter_throughTheLedgerStream_andARefusedOneIsNot() throws Exception {
        String inbox = stack.physicalId("InboxBucket");
        try (S3Client producer = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()))) {
            for (String file : List.of("progress-2026-03-01.jsonl", "progress-2026-03-07.jsonl")) { // 03-07: KEY_CONFLICT
                Path example = REPOSITORY.resolve("examples/inbox/progress_events/" + file);
                producer.putObject(r -> r.bucket(inbox).key("progress_events/" + file), RequestBody.fromFile(example));
            }
        }
        stack.awaitIdle(Duration.ofMinutes(3));
        Set<String> queued = new TreeSet<>();
        for (String answer : enqueued) {
            Map<String, Object> map = JSON.std.mapFrom(answer);
            ((List<?>) map.get("queued")).forEach(unit -> queued.add(String.valueOf(unit)));
            assertEquals(List.of(), map.get("batchItemFailures"), answer);
            // the mapping's FilterCriteria passed PUBLISHED units only; what the handler skips is the table writer's
            // own record of its commit, echoed by the stream (TableEnqueueHandlerTest)
        }
        assertTrue(queued.contains("progress_events/2026-03-01"), "queued: " + queued + "; undeliverable: " + stack.undeliverable());
        assertFalse(queued.contains("progress_events/2026-03-07"), "a refused unit is never queued: " + queued);
    }

    @Test
    void theExportCopiesEveryFileOfTheTablesAsTheirLocationHoldsThem() throws IOException {
        TableIdentifier id = TableIdentifier.of(namespace(), "export_probe");
        try (RESTCatalog writer = catalog(stack.functionConnection("TableWriterFunction"))) {
            Table table = writer.createTable(id, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("unit").build());
            table.newAppend().appendFile(dataFile(table, "2026-10-02", "run-2")).commit();
        }
        Path export = work.resolve("export");
        var bucket = stack.tableBuckets().get(0);
        int files = bucket.export(export);
        Path table = export.resolve(namespace()).resolve("export_probe");
        try (Stream<Path> all = Files.walk(table)) {
            List<String> names = all.filter(Files::isRegularFile).map(p -> table.relativize(p).toString()).toList();
            assertTrue(names.contains("data/unit=2026-10-02/run-2.parquet"), names.toString());
            assertTrue(names.stream().anyMatch(n -> n.startsWith("metadata/") && n.endsWith(".metadata.json")), names.toString());
            assertTrue(names.stream().anyMatch(n -> n.startsWith("metadata/snap-") && n.endsWith(".avro")), names.toString());
            assertTrue(files >= names.size());
        }
    }
}
