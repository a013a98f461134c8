package io.landingledger.tools.local;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.TableTracking;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.table.TableWriteResult;
import io.landingledger.core.table.TableWriter;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.adapters.SqsTableQueue;
import io.landingledger.localcloud.deploy.FunctionRuntime;
import io.landingledger.localcloud.deploy.FunctionSpec;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.localcloud.deploy.StackConnection;
import io.landingledger.tables.IcebergTablePort;
import io.landingledger.tables.TableCatalogConfig;
import io.landingledger.tables.TableWriterHandler;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table writer's faults, end to end on the locally deployed stack (issue 31): the stack's own TableWriterFunction
 * (the ledger stream, the FIFO queue, the function's role on the stack's Iceberg REST catalog and DynamoDB), built as
 * the function builds it, with two planted faults: the ledger update after a commit is lost once, and the catalog
 * refuses one unit's commits while a flag is set. Checked: a commit whose ledger record was lost is found again
 * (RECOVERED, one snapshot, the partition whole at every snapshot); a refused commit leaves the raw publish standing
 * and the unit TABLE_BEHIND with the reason once the grace has passed (the sweep's classification at an injected
 * now), and a repair submits it to the table queue, the writer commits, and the next classification is OK.
 *
 * <p>The sweep and the repair are the core's services built here over the stack's functions' own environments
 * ({@link CompletenessSweep#withTables}, {@link io.landingledger.core.repair.RepairService#withTableQueue}): their
 * table wiring in the deployed functions is not part of this test.
 */
class TableConvergenceIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final String DATASET = "transactions";
    static LocalDeployment stack;
    /** "dataset/unit" whose next ledger record of a table commit is lost (the fault fires once). */
    static final AtomicReference<String> loseRecordOnce = new AtomicReference<>();
    static final AtomicInteger recordsLost = new AtomicInteger();
    /** "dataset/unit" whose commits the catalog refuses while set. */
    static final AtomicReference<String> refuseCommits = new AtomicReference<>();
    static final AtomicInteger commitsRefused = new AtomicInteger();
    /** Every write the stack's writer function decided: "dataset/unit OUTCOME reason". */
    static final List<String> outcomes = new CopyOnWriteArrayList<>();
    static volatile Ledger writersLedger;
    static volatile Catalog writersCatalog;
    static volatile IcebergTablePort writersTables;

    @BeforeAll
    static void deploy() throws Exception {
        Path work = Files.createTempDirectory("table-convergence");
        stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, work), new FaultyWriterRuntime());
        System.out.println("[table-faults] stack up in " + stack.startupTime().toMillis() + " ms");
    }

    @AfterAll
    static void close() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void aCommitWhoseLedgerRecordIsLost_isFoundAgain_withNoSecondCommit() throws Exception {
        String unit = "2026-10-01";
        loseRecordOnce.set(DATASET + "/" + unit);
        publish("transactions-" + unit + ".csv");
        assertEquals(1, recordsLost.get(), "the planted fault fired: " + outcomes);
        assertTrue(outcomes.contains(DATASET + "/" + unit + " RECOVERED null"), outcomes.toString());
        assertTrue(outcomes.stream().noneMatch(o -> o.startsWith(DATASET + "/" + unit + " COMMITTED")),
                outcomes.toString());
        List<TableSnapshot> snapshots = writersTables.unitSnapshots(DATASET, unit);
        assertEquals(1, snapshots.size(), "one commit: " + snapshots);
        LedgerItem item = writersLedger.get(DATASET, unit).orElseThrow();
        assertEquals(snapshots.getFirst().snapshotId(), item.table().snapshotId());
        assertTrue(item.table().holds(item.runId(), item.published().contentSha256()));
        assertNull(item.table().lastError());
        // never half visible: at its snapshot and at the table's newest, the partition holds every accepted row
        Table table = writersCatalog.loadTable(writersTables.identifier(DATASET));
        assertEquals(item.published().accepted(), rows(table, snapshots.getFirst().snapshotId(), unit));
        assertEquals(item.published().accepted(), rows(table, table.currentSnapshot().snapshotId(), unit));
    }

    @Test
    void aRefusedCommit_isTableBehindPastTheGrace_andARepairClosesIt() throws Exception {
        String unit = "2026-10-02";
        refuseCommits.set(DATASET + "/" + unit);
        publish("transactions-" + unit + ".csv");
        assertTrue(commitsRefused.get() >= TableWriter.MAX_ATTEMPTS, "the planted fault fired: " + outcomes);
        // the failed message was retried until the queue's redrive policy moved it to the dead-letter queue (5
        // receives), and so was at most one more: the stream record of the writer's one write of its reason (the
        // local queue's deduplication forgets a message once it left the queue; SQS's remembers it 5 minutes). The
        // writer records a reason once, so its retries queue nothing more: the loop ends, nothing left in flight.
        long failures = outcomes.stream().filter(o -> o.startsWith(DATASET + "/" + unit + " FAILED")).count();
        assertTrue(failures >= 5 && failures <= 10, outcomes.toString());
        assertEquals(List.of(), stack.undeliverable());
        assertTrue(outcomes.contains(DATASET + "/" + unit + " FAILED " + TableWriter.TABLE_COMMIT_FAILED),
                outcomes.toString());
        LedgerItem item = writersLedger.get(DATASET, unit).orElseThrow();
        assertNotNull(item.published(), "the raw publish stands");
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, item.table().lastError());
        assertNull(item.table().snapshotId());
        assertTrue(writersTables.unitSnapshots(DATASET, unit).isEmpty(), "nothing of the unit is in the table");

        DependencyFactory sweepRole = dependencies("CompletenessSweepFunction");
        DatasetContract contract = ContractLoader.loadDirectory(REPOSITORY.resolve("datasets")).values().stream()
                .filter(c -> c.dataset().equals(DATASET)).findFirst().orElseThrow();
        CompletenessSweep sweep = sweepRole.sweep().withTables(new TableTracking(TableTracking.DEFAULT_GRACE, null));
        CompletenessSweep.Range range = new CompletenessSweep.Range(unit, unit);
        Instant published = item.publishedAt();
        // within the grace the unit is OK, flagged; past it, TABLE_BEHIND with the writer's reason
        UnitReport within = only(sweep, contract, range, published.plus(Duration.ofMinutes(1)));
        assertEquals(UnitStatus.OK, within.status());
        assertTrue(within.classification().flags().contains(UnitStatus.TABLE_BEHIND),
                within.classification().toString());
        Instant pastGrace = published.plus(TableTracking.DEFAULT_GRACE).plus(Duration.ofMinutes(1));
        UnitReport behind = only(sweep, contract, range, pastGrace);
        assertEquals(UnitStatus.TABLE_BEHIND, behind.status());
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, behind.classification().reason());

        refuseCommits.set(null); // the catalog is back
        DependencyFactory repairRole = dependencies("RepairFunction");
        // the table queue through the role the template grants sqs:SendMessage on it, the enqueue function's (the
        // sweep's and the repair's own grants are the deployed functions' wiring, not this test's subject)
        SqsTableQueue queue = new SqsTableQueue(dependencies("TableEnqueueFunction").sqsClient(),
                stack.outputs().get("TableCommitQueueUrl"));
        RepairResult repaired = repairRole.repairService().withTableQueue(queue).run(new RepairRequest(DATASET,
                List.of(unit), null, null, null, false, false, "INC-31 table behind", null, null), Deadline.NONE,
                () -> UUID.randomUUID().toString());
        assertTrue(repaired.succeeded(), repaired.toString());
        assertTrue(repaired.toString().contains(RepairResult.TABLE_SUBMITTED), repaired.toString());
        stack.awaitIdle(Duration.ofMinutes(3));
        assertTrue(outcomes.contains(DATASET + "/" + unit + " COMMITTED null"), outcomes.toString());
        LedgerItem after = writersLedger.get(DATASET, unit).orElseThrow();
        assertNotNull(after.table().snapshotId());
        assertNull(after.table().lastError());
        assertEquals(UnitStatus.OK, only(sweep, contract, range, pastGrace.plus(Duration.ofMinutes(1))).status());
    }

    private static UnitReport only(CompletenessSweep sweep, DatasetContract contract, CompletenessSweep.Range range,
                                   Instant now) {
        List<UnitReport> units = sweep.classify(contract, range, now).units();
        assertEquals(1, units.size(), units.toString());
        return units.getFirst();
    }

    /** A producer puts the example file in the inbox; the stack runs until idle (validator, stream, queue, writer). */
    private static void publish(String file) throws Exception {
        String inbox = stack.physicalId("InboxBucket");
        try (S3Client producer = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()))) {
            producer.putObject(r -> r.bucket(inbox).key(DATASET + "/" + file),
                    RequestBody.fromFile(REPOSITORY.resolve("examples/inbox/" + DATASET + "/" + file)));
        }
        stack.awaitIdle(Duration.ofMinutes(3));
    }

    private static long rows(Table table, long snapshotId, String unit) throws Exception {
        long rows = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshotId)
                .filter(Expressions.equal("unit", unit)).planFiles()) {
            for (FileScanTask task : tasks) {
                rows += task.file().recordCount();
            }
        }
        return rows;
    }

    /** The dependencies a stack function builds from its environment, with its role's session. */
    private static DependencyFactory dependencies(String logicalId) {
        FunctionSpec spec = stack.lambda().spec(stack.physicalId(logicalId));
        Map<String, String> environment = new LinkedHashMap<>(
                new LandingRuntime().variables(spec, stack.functionConnection(logicalId)));
        environment.putAll(spec.environment());
        // what Lambda's runtime sets (the local runtime's own variables are not exposed to tests)
        environment.put("AWS_REGION", stack.region());
        environment.put("AWS_LAMBDA_FUNCTION_NAME", spec.name());
        return DependencyFactory.forFunction(environment, System.out);
    }

    /** The product's runtime, with the table writer function built as it builds itself around two fault hooks. */
    static final class FaultyWriterRuntime implements FunctionRuntime {
        private final LandingRuntime landing = new LandingRuntime();

        @Override
        public Map<String, String> variables(FunctionSpec function, StackConnection session) {
            return landing.variables(function, session);
        }

        @Override
        public RequestStreamHandler handler(FunctionSpec function, Map<String, String> environment, PrintStream stdout)
                throws Exception {
            if (!TableWriterHandler.class.getName().equals(function.handlerClass())) {
                return landing.handler(function, environment, stdout);
            }
            DependencyFactory dependencies = DependencyFactory.forFunction(environment, stdout);
            TableCatalogConfig config = TableCatalogConfig.fromEnvironment(environment, dependencies.config().aws());
            writersCatalog = config.connect();
            writersTables = new IcebergTablePort(writersCatalog, config.namespace());
            writersLedger = dependencies.ledger();
            TableWriter writer = new TableWriter(new LosingLedger(writersLedger), dependencies.objectStore(),
                    dependencies.config().lakeBucket(), dependencies.contractStore(), new RefusingPort(writersTables),
                    Clock.systemUTC());
            return new TableWriterHandler((dataset, unit) -> {
                TableWriteResult result = writer.write(dataset, unit);
                outcomes.add(dataset + "/" + unit + " " + result.outcome() + " " + result.reason());
                return result;
            });
        }

        @Override
        public void afterDeploy(LocalDeployment deployed) throws Exception {
            landing.afterDeploy(deployed);
        }
    }

    /** The ledger, losing the first table record of the unit {@link #loseRecordOnce} names (after the commit). */
    private record LosingLedger(Ledger ledger) implements Ledger {
        @Override
        public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                   TableState state, HistoryEntry history) {
            String id = dataset + "/" + unit;
            if (state.snapshotId() != null && id.equals(loseRecordOnce.getAndUpdate(v -> id.equals(v) ? null : v))) {
                recordsLost.incrementAndGet();
                throw new IllegalStateException("planted: the ledger update after the commit is lost");
            }
            return ledger.recordTable(dataset, unit, expectedRunId, expectedSha256, state, history);
        }

        @Override
        public Optional<LedgerItem> get(String dataset, String unit) {
            return ledger.get(dataset, unit);
        }

        @Override
        public void write(LedgerItem item, long expectedRevision, HistoryEntry history)
                throws LedgerConflictException {
            ledger.write(item, expectedRevision, history);
        }

        @Override
        public void appendHistory(HistoryEntry history) {
            ledger.appendHistory(history);
        }

        @Override
        public List<HistoryEntry> history(String dataset, String unit) {
            return ledger.history(dataset, unit);
        }

        @Override
        public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
            return ledger.items(dataset, fromUnit, toUnit);
        }
    }

    /** The catalog, refusing the commits of the unit {@link #refuseCommits} names while it is set. */
    private record RefusingPort(TablePort port) implements TablePort {
        @Override
        public TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit, InputStream publishedRows) {
            if ((commit.dataset() + "/" + commit.unit()).equals(refuseCommits.get())) {
                commitsRefused.incrementAndGet();
                throw new IllegalStateException("planted: the catalog refuses the commit");
            }
            return port.replaceUnit(contract, commit, publishedRows);
        }

        @Override
        public void ensureTable(DatasetContract contract) {
            port.ensureTable(contract);
        }

        @Override
        public Optional<Long> currentSnapshotId(String dataset) {
            return port.currentSnapshotId(dataset);
        }

        @Override
        public List<TableSnapshot> unitSnapshots(String dataset, String unit) {
            return port.unitSnapshots(dataset, unit);
        }
    }
}
