package io.landingledger.tools.testing;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.tools.local.LandingRuntime;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The stack {@code infra/template.yaml} deploys ({@link LocalDeployment}, the product's functions in-process, S3's
 * notifications by the bucket's configuration) with the record {@code landing local --watch} writes, so that the
 * command line finds it without flags, but without the watch loop: nothing sweeps or uploads behind a test's back,
 * so everything the stack holds changes only by what the test does. {@link #state()} is that whole content.
 */
public final class RecordedLocalStack implements AutoCloseable {
    public final LocalDeployment stack;
    public final LocalStackRecord record;
    /** The operator's clients (the record's credentials) on the stack's one endpoint. */
    public final S3Client s3;
    public final DynamoDbClient dynamo;

    private RecordedLocalStack(LocalDeployment stack, LocalStackRecord record) {
        this.stack = stack;
        this.record = record;
        this.s3 = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()));
        this.dynamo = DependencyFactory.dynamoDbClient(LandingRuntime.aws(stack.operatorConnection()));
    }

    /** Deploys the template (the repository is the parent of the module's folder) and writes the record under {@code work}. */
    public static RecordedLocalStack start(Path work) throws Exception {
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path repository = Path.of("").toAbsolutePath().getParent();
        LocalDeployment stack = LocalDeployment.start(LocalDeployment.Options.of(repository, Files.createDirectories(work.resolve(".stack"))),
                new LandingRuntime());
        LocalStackRecord record = new LocalStackRecord(stack.region(), stack.endpoint(), stack.endpoint(), stack.physicalId("InboxBucket"),
                stack.physicalId("LakeBucket"), stack.physicalId("LedgerTable"), stack.physicalId("LedgerHistoryTable"),
                stack.operatorCredentials().accessKeyId(), stack.operatorCredentials().secretAccessKey(), ProcessHandle.current().pid(),
                stack.physicalId("ConsumersTable"), stack.stackName());
        record.write();
        return new RecordedLocalStack(stack, record);
    }

    /**
     * Everything the stack stores, as text: per bucket every object version and delete marker (key, version id,
     * ETag, size, last modified), per Iceberg table its current metadata file, per DynamoDB table every item. Two equal states mean no write reached S3 or DynamoDB in
     * between (an overwrite changes a version id or a last-modified time; a conditional write that failed, nothing).
     */
    public Map<String, String> state() {
        Map<String, String> state = new TreeMap<>();
        java.util.Set<String> tableBuckets = new java.util.HashSet<>();
        for (io.landingledger.localcloud.tables.LocalTableBucket tables : stack.tableBuckets()) {
            // a table bucket's storage cannot be listed (S3 Tables serves table files only): each table's current
            // metadata file instead, which every commit replaces
            tableBuckets.add(tables.name());
            List<String> entries = new ArrayList<>();
            for (org.apache.iceberg.catalog.Namespace namespace : tables.catalog().listNamespaces()) {
                for (org.apache.iceberg.catalog.TableIdentifier id : tables.catalog().listTables(namespace)) {
                    var table = (org.apache.iceberg.BaseTable) tables.catalog().loadTable(id);
                    entries.add(id + " " + table.operations().current().metadataFileLocation());
                }
            }
            entries.sort(null);
            state.put("s3tables://" + tables.name(), String.join("\n", entries));
        }
        for (Bucket bucket : s3.listBuckets().buckets()) {
            if (tableBuckets.contains(bucket.name())) {
                continue;
            }
            List<String> entries = new ArrayList<>();
            for (var page : s3.listObjectVersionsPaginator(r -> r.bucket(bucket.name()))) {
                for (ObjectVersion v : page.versions()) {
                    entries.add(v.key() + " @" + v.versionId() + " " + v.eTag() + " " + v.size() + " " + v.lastModified());
                }
                for (DeleteMarkerEntry m : page.deleteMarkers()) {
                    entries.add(m.key() + " @" + m.versionId() + " delete-marker " + m.lastModified());
                }
            }
            entries.sort(null);
            state.put("s3://" + bucket.name(), String.join("\n", entries));
        }
        for (String table : dynamo.listTablesPaginator(r -> { }).tableNames()) {
            List<String> items = new ArrayList<>();
            for (Map<String, AttributeValue> item : dynamo.scanPaginator(r -> r.tableName(table)).items()) {
                items.add(new TreeMap<>(item).toString());
            }
            items.sort(null);
            state.put("dynamodb:" + table, String.join("\n", items));
        }
        return state;
    }

    @Override
    public void close() {
        record.remove();
        System.clearProperty(LocalStackRecord.PROPERTY);
        s3.close();
        dynamo.close();
        stack.close();
    }
}
