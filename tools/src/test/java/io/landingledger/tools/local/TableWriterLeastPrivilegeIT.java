package io.landingledger.tools.local;

import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.localcloud.deploy.AllowedRequest;
import io.landingledger.localcloud.deploy.LocalDeployment;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table writer's role (TableWriterRole) against what the writer really asks, on the locally deployed stack: the
 * writer runs as Lambda runs it there (TableWriterFunction, from the table commit queue's event source mapping, signing
 * as its own role), fed by the validator's publishes through the ledger's stream. Its requests are not calls of
 * clients a test can wrap: Iceberg's REST catalog requests (routes of {@code <endpoint>/iceberg}, signing name
 * s3tables), Iceberg's own S3 client reading and writing the table's files, and the poller's SQS calls. So the
 * gateway, which authorizes every request as IAM would (the role's policies, the table bucket's policy), records each
 * authorization it allowed the role with the statement that allowed it ({@link LocalDeployment#recordAllowed}).
 *
 * <p>Proven here: every request the writer's role made in a first publish and a restatement of a unit was allowed
 * (the stack refused none), and every grant of the role (each action of each Sid) allowed at least one of them, but
 * the two the Lambda service uses (logs, X-Ray), which the local runtime does not call, and the grants pinned in
 * {@link #NOT_REACHED} with why. Not proven here: that the gateway's mapping of a request to its IAM actions is AWS's
 * (io.landingledger.localcloud.iam; S3 Tables' REST routes and table storage as its s3tables actions), and the
 * requests the writer makes only on paths this scenario does not take (a catalog conflict's retry, a failed commit).
 */
class TableWriterLeastPrivilegeIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    /** Grants the Lambda service uses with the role, never the function's code (as LeastPrivilegeIT's). */
    private static final Set<String> SERVICE_GRANTS = Set.of("WriteOwnLogs", "WriteTraces");
    private static final String UNIT = "2026-10-01";
    /**
     * The grants no request of this scenario used, each pinned with why, so that the report says so and the test
     * fails once one is used (then it leaves this list) or a new one goes unused. These are not proven by this test.
     */
    private static final Map<String, String> NOT_REACHED = Map.of(
            "TakeTableCommits sqs:GetQueueAttributes", "Lambda's event source mapping reads the queue's attributes on "
                    + "AWS; the local poller makes only ReceiveMessage and DeleteMessage",
            "ListContracts s3:ListBucket", "the writer reads the contract version the ledger item names (GetObject); "
                    + "no listing while that version is there",
            "UseTableBucket s3tables:GetNamespace", "Iceberg's REST client made no namespace request (the namespace is "
                    + "the stack's)",
            "CommitTables s3tables:GetTable", "Iceberg's REST client made no table-exists request and sent no metrics "
                    + "report",
            "CommitTables s3tables:PutTableMaintenanceConfiguration", "NO CODE CALLS IT: the writer does not set a "
                    + "table's maintenance (TABLE_SNAPSHOT_MAX_AGE_HOURS, TABLE_MIN_SNAPSHOTS are read by nothing)");

    static LocalDeployment stack;
    static final List<AllowedRequest> allowed = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void deploy() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, Files.createTempDirectory("table-writer-lp")),
                new LandingRuntime());
        String role = stack.physicalId("TableWriterRole");
        stack.recordAllowed(request -> {
            if (role.equals(request.roleName())) {
                allowed.add(request);
            }
        });
    }

    @AfterAll
    static void close() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void tableWriterFunction_everyRequestIsAllowedAndEveryGrantIsUsed() throws Exception {
        String inbox = stack.physicalId("InboxBucket");
        String key = "transactions/transactions-" + UNIT + ".csv";
        Path example = REPOSITORY.resolve("examples/inbox/transactions/transactions-" + UNIT + ".csv");
        try (S3Client producer = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()));
             DynamoDbClient dynamo = DependencyFactory.dynamoDbClient(LandingRuntime.aws(stack.operatorConnection()))) {
            DynamoDbLedger ledger = new DynamoDbLedger(dynamo, stack.physicalId("LedgerTable"),
                    stack.physicalId("LedgerHistoryTable"));
            // the dataset's first publish: the writer creates the table (and its maintenance) and commits the unit
            producer.putObject(r -> r.bucket(inbox).key(key), RequestBody.fromFile(example));
            stack.awaitIdle(Duration.ofMinutes(3));
            LedgerItem first = ledger.get("transactions", UNIT).orElseThrow();
            assertNotNull(first.table(), "the writer recorded the table's state: " + first);
            assertTrue(first.table().holds(first.runId(), first.published().contentSha256()),
                    "the table holds the first publish: " + first.table() + "; undeliverable: " + stack.undeliverable());
            // a restatement: the writer loads the table, reads its snapshot and replaces the unit's partition
            String restated = Files.readString(example, StandardCharsets.UTF_8).replace("120.00", "121.00");
            producer.putObject(r -> r.bucket(inbox).key(key), RequestBody.fromString(restated));
            stack.awaitIdle(Duration.ofMinutes(3));
            LedgerItem second = ledger.get("transactions", UNIT).orElseThrow();
            assertTrue(!second.runId().equals(first.runId()), "restated: " + second);
            assertTrue(second.table().holds(second.runId(), second.published().contentSha256()),
                    "the table holds the restatement: " + second.table());
        }

        String role = stack.physicalId("TableWriterRole");
        List<String> findings = new ArrayList<>();
        stack.accessDenied().stream().filter(line -> line.contains("assumed-role/" + role + "/"))
                .forEach(line -> findings.add("refused: " + line));
        // each grant (Sid, action) and the requests it allowed
        Map<String, Integer> used = new TreeMap<>();
        for (Map<String, Object> document : stack.rolePolicies("TableWriterRole").values()) {
            for (Object element : (List<?>) document.get("Statement")) {
                Map<?, ?> statement = (Map<?, ?>) element;
                if ("Allow".equals(statement.get("Effect"))) {
                    Object actions = statement.get("Action");
                    for (Object action : actions instanceof List<?> list ? list : List.of(actions)) {
                        used.put(statement.get("Sid") + " " + action, 0);
                    }
                }
            }
        }
        StringBuilder report = new StringBuilder("TableWriterRole against the requests the stack allowed it:\n");
        Map<String, Integer> requests = new TreeMap<>();
        for (AllowedRequest request : allowed) {
            requests.merge(request.operation() + " -> " + request.action() + " " + request.resource() + ": "
                    + request.sid(), 1, Integer::sum);
            used.computeIfPresent(request.sid() + " " + request.action(), (grant, count) -> count + 1);
        }
        requests.forEach((line, count) -> report.append("  ").append(line).append(" (x").append(count).append(")\n"));
        report.append("grants of the role (Sid action: requests it allowed):\n");
        used.forEach((grant, count) -> {
            boolean service = SERVICE_GRANTS.contains(grant.substring(0, grant.indexOf(' ')));
            String pinned = NOT_REACHED.get(grant);
            report.append("  ").append(grant).append(": ").append(service ? "Lambda service" : "used " + count)
                    .append(pinned != null && count == 0 ? ", NOT PROVEN: " + pinned : "").append('\n');
            if (count == 0 && !service && pinned == null) {
                findings.add("unused grant " + grant);
            }
            if (count > 0 && pinned != null) {
                findings.add(grant + " is used now: take it out of NOT_REACHED");
            }
        });
        System.out.println("[least-privilege] " + report.toString().replace("\n", "\n[least-privilege] ").stripTrailing());
        findings.forEach(f -> System.out.println("[least-privilege]     " + f));
        NOT_REACHED.keySet().stream().filter(grant -> !used.containsKey(grant))
                .forEach(grant -> findings.add("NOT_REACHED names " + grant + ", which the role does not grant"));
        assertTrue(!allowed.isEmpty(), "the writer made no request: the scenario did not run");
        assertEquals(List.of(), findings, "TableWriterRole against its requests (the report above lists them)");
    }
}
