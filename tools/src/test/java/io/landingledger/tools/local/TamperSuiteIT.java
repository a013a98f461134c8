package io.landingledger.tools.local;

import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.localcloud.deploy.StackConnection;

import com.fasterxml.jackson.jr.ob.JSON;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30's tamper suite, on the stack as deployed (infra/template.yaml on the emulators, every role and bucket
 * policy enforced): every principal the template defines (the account's operator, a role holding only
 * ContractAdminPolicy, one holding only ReaderPolicy, one holding only ProducerPolicy, and each function's role) tries
 * every write it could attempt against {@code published/}, {@code _contracts/}, the ledger and the history table.
 * Each (principal, write, target) prints one line, {@code [tamper] PRINCIPAL WRITE TARGET -> OUTCOME}, and must be
 * refused (AccessDenied, or S3's own refusal of the request) unless it is one of {@link #EXCEPTIONS}: the writes a
 * principal's job needs, each named with what detects or bounds its misuse (SECURITY.md, "Tamper suite"). An allowed
 * write not listed fails the suite, and so does a listed one that is now refused (the list and SECURITY.md must then
 * shrink). No write to {@code _contracts/} other than a create is allowed to anyone (finding 3).
 */
class TamperSuiteIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    static final String CONTRACT = S3ContractStore.key("progress_events", 1);
    static final String PUBLISHED = "published/tamper_probe/unit=1999-01-01/part-00000.jsonl";
    static final String PROBE_DATASET = "tamper_probe";
    static final String PROBE_UNIT = "1999-01-01";
    static final List<String> FUNCTIONS = List.of("ValidatorFunction", "CompletenessSweepFunction",
            "SweepPlannerFunction", "SweepShardFunction", "SweepChangeFunction", "RepairFunction",
            "ConsumerReceiptFunction");
    static final List<String> POLICIES = List.of("ContractAdminPolicy", "ReaderPolicy", "ProducerPolicy");
    static final List<String> S3_WRITES = List.of("put", "put-bogus-if-none-match", "put-if-match", "copy-onto",
            "delete", "delete-objects");

    /**
     * The allowed writes, by {@code PRINCIPAL WRITE TARGET}: the function's own job, and what catches its misuse. The
     * operator is the account's administrator: only the bucket policy binds it.
     */
    static final Map<String, String> EXCEPTIONS = exceptions();

    private static Map<String, String> exceptions() {
        Map<String, String> pinned = new TreeMap<>();
        String publishedByOperator = "OPERATOR_REPUBLISH: the account's administrator may replace or delete a publish"
                + " under a condition; the sweep reports the unit LEDGER_DRIFT"
                + " (PUBLISHED_ETAG_MISMATCH / PUBLISHED_OBJECT_MISSING)";
        pinned.put("operator put-if-match published", publishedByOperator);
        pinned.put("operator delete published", publishedByOperator);
        pinned.put("operator delete-objects published", publishedByOperator);
        String ledgerByOperator = "OPERATOR_TABLES: the account's administrator can write any item; IAM of the account,"
                + " not the stack, decides who that is (SECURITY.md)";
        for (String write : List.of("put-item", "update-item", "delete-item")) {
            pinned.put("operator " + write + " ledger", ledgerByOperator);
            pinned.put("operator " + write + " history", ledgerByOperator);
        }
        String republish = "FUNCTION_REPUBLISH: the validator and repair replace a publish under If-Match (their job); "
                + "a replacement the ledger does not name is LEDGER_DRIFT PUBLISHED_ETAG_MISMATCH at the next sweep";
        pinned.put("ValidatorFunction put-if-match published", republish);
        pinned.put("RepairFunction put-if-match published", republish);
        String ledgerWriters = "FUNCTION_LEDGER: the function writes ledger items (its job; IAM cannot restrict which"
                + " item or attribute): an item that names another ETag or a missing object is LEDGER_DRIFT"
                + " at the next sweep";
        String historyWriters = "FUNCTION_HISTORY_PUT: dynamodb:PutItem on history (its job) can replace an"
                + " existing item: IAM cannot require attribute_not_exists; the code writes history only with that"
                + " condition (SECURITY.md)";
        for (String function : List.of("ValidatorFunction", "RepairFunction")) {
            pinned.put(function + " update-item ledger", ledgerWriters);
            pinned.put(function + " put-item history", historyWriters);
        }
        return pinned;
    }

    static LocalDeployment stack;
    static S3Client operatorS3;
    static DynamoDbClient operatorDynamoDb;

    @BeforeAll
    static void deploy() throws Exception {
        LocalDeployment.Options options = LocalDeployment.Options.of(REPOSITORY, Files.createTempDirectory("tamper"));
        stack = LocalDeployment.start(options, new LandingRuntime());
        operatorS3 = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()));
        operatorDynamoDb = DependencyFactory.dynamoDbClient(LandingRuntime.aws(stack.operatorConnection()));
    }

    @AfterAll
    static void close() {
        if (operatorS3 != null) {
            operatorS3.close();
            operatorDynamoDb.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static String lake() {
        return stack.physicalId("LakeBucket");
    }

    private static S3Client s3(StackConnection connection) {
        return DependencyFactory.s3Client(LandingRuntime.aws(connection));
    }

    /**
     * Finding 3: a registered contract version cannot be rewritten in place by the contract administrator (nor by
     * anyone: the lake's policy), while `landing dataset`'s own conditional creates still work with that policy alone.
     */
    @Test
    void finding3_anUnconditionalOverwriteOfARegisteredVersion_byTheContractAdministrator_isAccessDenied()
            throws Exception {
        try (S3Client admin = s3(stack.managedPolicyConnection("ContractAdminPolicy"))) {
            ContractStore store = new S3ContractStore(admin, lake());
            String contract = Files.readString(REPOSITORY.resolve("datasets/progress_events.json"))
                    .replace("\"progress_events\"", "\"tamper_orders\"");
            ContractRegistrar registrar = new ContractRegistrar(store, Clock.systemUTC());
            assertEquals(1, registrar.add("orders.json", contract.getBytes(StandardCharsets.UTF_8),
                    "INC-30 registered by the contract administrator", false).entry().version());
            String version = S3ContractStore.key("tamper_orders", 1);
            String registered = admin.getObjectAsBytes(r -> r.bucket(lake()).key(version)).asUtf8String();
            for (String key : List.of(version, S3ContractStore.sealKey("tamper_orders", 1))) {
                S3Exception denied = assertThrows(S3Exception.class,
                        () -> admin.putObject(r -> r.bucket(lake()).key(key), RequestBody.fromString("{}")));
                assertEquals(403, denied.statusCode(), key);
                assertTrue(denied.awsErrorDetails().errorMessage().contains("explicit deny in a resource-based policy"),
                        denied.getMessage());
                assertEquals(403, assertThrows(S3Exception.class,
                        () -> admin.deleteObject(r -> r.bucket(lake()).key(key))).statusCode());
            }
            assertEquals(registered, admin.getObjectAsBytes(r -> r.bucket(lake()).key(version)).asUtf8String());
            assertEquals("tamper_orders", store.latest("tamper_orders").orElseThrow().dataset(),
                    "still opens against its record");
        }
    }

    @Test
    void everyWriteOfEveryPrincipal_againstPublishedContractsLedgerAndHistory_isRefusedOrAPinnedException() {
        Map<String, StackConnection> principals = new LinkedHashMap<>();
        principals.put("operator", stack.operatorConnection());
        POLICIES.forEach(policy -> principals.put(policy, stack.managedPolicyConnection(policy)));
        FUNCTIONS.forEach(function -> principals.put(function, stack.functionConnection(function)));
        Map<String, String> allowed = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, StackConnection> principal : principals.entrySet()) {
            try (S3Client s3 = s3(principal.getValue());
                 DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(LandingRuntime.aws(principal.getValue()))) {
                for (String target : List.of("published", "contracts")) {
                    for (String write : S3_WRITES) {
                        String outcome = s3Write(s3, write, target, principal.getKey());
                        record(principal.getKey(), write, target, outcome, allowed, lines);
                    }
                }
                for (String target : List.of("ledger", "history")) {
                    for (String write : List.of("put-item", "update-item", "delete-item")) {
                        String outcome = tableWrite(dynamoDb, write, target);
                        record(principal.getKey(), write, target, outcome, allowed, lines);
                    }
                }
            }
        }
        lines.forEach(line -> System.out.println("[tamper] " + line));
        List<String> problems = new ArrayList<>();
        allowed.forEach((what, outcome) -> {
            if (what.contains(" contracts")) {
                problems.add(what + " -> " + outcome + ": a contract version was replaced or deleted");
            } else if (!EXCEPTIONS.containsKey(what)) {
                problems.add(what + " -> " + outcome + ": allowed and not a pinned exception");
            }
        });
        EXCEPTIONS.keySet().stream().filter(what -> !allowed.containsKey(what))
                .forEach(what -> problems.add(what + ": pinned but refused now; shrink EXCEPTIONS and SECURITY.md"));
        System.out.println("[tamper] " + lines.size() + " writes, " + allowed.size() + " allowed, all pinned: "
                + problems.isEmpty());
        assertEquals(List.of(), problems);
    }

    /**
     * The pinned writes that change what a reader reads or what the ledger vouches for are detected: each is made on a
     * unit of its own, published by the stack from a real file, and the next sweep of that unit (the sweep function, as
     * scheduled) reports it LEDGER_DRIFT with the reason the pin names. One line per write.
     */
    @Test
    @SuppressWarnings("unchecked")
    void eachPinnedWriteToPublishedOrTheLedger_isLedgerDrift_atTheNextSweep() throws Exception {
        Path example = REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-01.jsonl");
        byte[] rows = Files.readAllBytes(example);
        Map<String, String> writes = new LinkedHashMap<>(); // "principal write" -> the reason the sweep must give
        writes.put("operator put-if-match", "PUBLISHED_ETAG_MISMATCH");
        writes.put("operator delete", "PUBLISHED_OBJECT_MISSING");
        writes.put("operator delete-objects", "PUBLISHED_OBJECT_MISSING");
        writes.put("ValidatorFunction put-if-match", "PUBLISHED_ETAG_MISMATCH");
        writes.put("RepairFunction put-if-match", "PUBLISHED_ETAG_MISMATCH");
        writes.put("ValidatorFunction update-item", "PUBLISHED_ETAG_MISMATCH");
        writes.put("RepairFunction update-item", "PUBLISHED_ETAG_MISMATCH");
        List<String> units = new ArrayList<>();
        for (int day = 1; day <= writes.size(); day++) {
            String unit = "2026-04-%02d".formatted(day);
            units.add(unit);
            String input = "progress_events/progress-" + unit + ".jsonl";
            operatorS3.putObject(r -> r.bucket(stack.physicalId("InboxBucket")).key(input),
                    RequestBody.fromBytes(rows));
        }
        stack.awaitIdle(Duration.ofMinutes(3));
        List<String> problems = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, String> write : writes.entrySet()) {
            String unit = units.get(i++);
            String key = LakeLayout.publishedKey("progress_events", unit);
            String principal = write.getKey().substring(0, write.getKey().indexOf(' '));
            String action = write.getKey().substring(write.getKey().indexOf(' ') + 1);
            StackConnection connection = principal.equals("operator") ? stack.operatorConnection()
                    : stack.functionConnection(principal);
            String etag = operatorS3.headObject(r -> r.bucket(lake()).key(key)).eTag();
            try (S3Client s3 = s3(connection);
                 DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(LandingRuntime.aws(connection))) {
                RequestBody tampered = RequestBody.fromString("{\"tampered_by\": \"" + write.getKey() + "\"}\n");
                switch (action) {
                    case "put-if-match" -> s3.putObject(r -> r.bucket(lake()).key(key).ifMatch(etag), tampered);
                    case "delete" -> s3.deleteObject(r -> r.bucket(lake()).key(key));
                    case "delete-objects" ->
                            s3.deleteObjects(r -> r.bucket(lake()).delete(d -> d.objects(o -> o.key(key))));
                    case "update-item" -> dynamoDb.updateItem(r -> r.tableName(stack.physicalId("LedgerTable"))
                            .key(Map.of("dataset", AttributeValue.fromS("progress_events"),
                                    "unit", AttributeValue.fromS(unit)))
                            .updateExpression("SET published_etag = :t")
                            .expressionAttributeValues(Map.of(":t",
                                    AttributeValue.fromS("\"0123456789abcdef0123456789abcdef\""))));
                    default -> throw new IllegalArgumentException(action);
                }
            }
            String answer = sweep(unit);
            Map<String, Object> dataset = ((List<Map<String, Object>>) JSON.std.mapFrom(answer).get("datasets")).get(0);
            Map<String, Object> found = ((List<Map<String, Object>>) dataset.get("not_ok")).stream()
                    .filter(u -> unit.equals(u.get("unit"))).findFirst().orElse(Map.of());
            String outcome = found.get("status") + " " + found.get("reason");
            String target = action.endsWith("item") ? "ledger" : "published";
            System.out.println("[tamper] " + write.getKey() + " " + target + " (unit " + unit + ") -> next sweep: "
                    + outcome);
            if (!outcome.equals("LEDGER_DRIFT " + write.getValue())) {
                problems.add(write.getKey() + ": expected LEDGER_DRIFT " + write.getValue() + ", the sweep said "
                        + outcome + " (" + answer + ")");
            }
            stack.awaitIdle(Duration.ofMinutes(2)); // the sweep's re-drive of the unit, if any, before the next write
        }
        assertEquals(List.of(), problems);
    }

    private static String sweep(String unit) {
        try (LambdaClient lambda = LambdaClient.builder()
                .region(Region.US_EAST_1).endpointOverride(stack.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(stack.operatorCredentials()))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            String payload = "{\"datasets\": [\"progress_events\"], \"from\": \"" + unit + "\", \"to\": \""
                    + unit + "\"}";
            String function = stack.physicalId("CompletenessSweepFunction");
            var answer = lambda.invoke(r -> r.functionName(function).qualifier("live")
                    .payload(SdkBytes.fromUtf8String(payload)));
            assertEquals(null, answer.functionError(), answer.payload().asUtf8String());
            return answer.payload().asUtf8String();
        }
    }

    private static void record(String principal, String write, String target, String outcome,
                               Map<String, String> allowed, List<String> lines) {
        String what = principal + " " + write + " " + target;
        if (outcome.startsWith("ALLOWED")) {
            allowed.put(what, outcome);
            String pinned = EXCEPTIONS.get(what);
            outcome += pinned == null ? " (NOT PINNED)" : " (" + pinned.substring(0, pinned.indexOf(':')) + ")";
        }
        lines.add(what + " -> " + outcome);
    }

    /** One write to the target object, which exists (as its owner made it) before the attempt. */
    private static String s3Write(S3Client s3, String write, String target, String principal) {
        String key = target.equals("contracts") ? CONTRACT : PUBLISHED;
        if (target.equals("published")) {
            ensurePublishedProbe();
        }
        String etag = operatorS3.headObject(r -> r.bucket(lake()).key(key)).eTag();
        // bytes of this attempt only, so a write that succeeded always changes the object's ETag
        RequestBody tampered = RequestBody.fromString("{\"tampered_by\": \"" + principal + " " + write + "\"}\n");
        try {
            switch (write) {
                case "put" -> s3.putObject(r -> r.bucket(lake()).key(key), tampered);
                case "put-bogus-if-none-match" ->
                        s3.putObject(r -> r.bucket(lake()).key(key).ifNoneMatch("\"bogus\""), tampered);
                case "put-if-match" -> s3.putObject(r -> r.bucket(lake()).key(key).ifMatch(etag), tampered);
                case "copy-onto" -> s3.copyObject(r -> r.sourceBucket(lake()).sourceKey(key)
                        .destinationBucket(lake()).destinationKey(key)
                        .metadataDirective("REPLACE").metadata(Map.of("tampered", "true")));
                case "delete" -> s3.deleteObject(r -> r.bucket(lake()).key(key));
                case "delete-objects" -> {
                    var answer = s3.deleteObjects(r -> r.bucket(lake()).delete(d -> d.objects(o -> o.key(key))));
                    if (!answer.errors().isEmpty()) {
                        return "REFUSED " + answer.errors().get(0).code();
                    }
                }
                default -> throw new IllegalArgumentException(write);
            }
        } catch (S3Exception e) {
            return refusal(e.statusCode(), e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode());
        }
        return changed(key, etag) ? "ALLOWED (the object changed or is gone)"
                : "ALLOWED (answered 2xx, the object unchanged)";
    }

    private static boolean changed(String key, String etag) {
        try {
            return !operatorS3.headObject(r -> r.bucket(lake()).key(key)).eTag().equals(etag);
        } catch (NoSuchKeyException e) {
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return true;
            }
            throw e;
        }
    }

    private static String refusal(int status, String code) {
        return status == 403 || "AccessDeniedException".equals(code) ? "REFUSED AccessDenied"
                : "REFUSED " + status + " " + code;
    }

    private static void ensurePublishedProbe() {
        try {
            operatorS3.putObject(r -> r.bucket(lake()).key(PUBLISHED).ifNoneMatch("*"),
                    RequestBody.fromString("{\"probe\": 1}\n"));
        } catch (S3Exception e) {
            if (e.statusCode() != 412) {
                throw e;
            }
        }
    }

    /** One write to the probe item of the table, which the operator (re)makes before the attempt. */
    private static String tableWrite(DynamoDbClient dynamoDb, String write, String target) {
        String table = stack.physicalId(target.equals("ledger") ? "LedgerTable" : "LedgerHistoryTable");
        Map<String, AttributeValue> key = target.equals("ledger")
                ? Map.of("dataset", AttributeValue.fromS(PROBE_DATASET), "unit", AttributeValue.fromS(PROBE_UNIT))
                : Map.of("dataset_unit", AttributeValue.fromS(PROBE_DATASET + "#" + PROBE_UNIT),
                        "at_run", AttributeValue.fromS("1999-01-02T00:00:00Z#probe"));
        Map<String, AttributeValue> item = new LinkedHashMap<>(key);
        item.put("probe", AttributeValue.fromS("original"));
        operatorDynamoDb.putItem(r -> r.tableName(table).item(item));
        Map<String, AttributeValue> tampered = new LinkedHashMap<>(key);
        tampered.put("probe", AttributeValue.fromS("tampered"));
        try {
            switch (write) {
                case "put-item" -> dynamoDb.putItem(r -> r.tableName(table).item(tampered));
                case "update-item" -> dynamoDb.updateItem(r -> r.tableName(table).key(key)
                        .updateExpression("SET probe = :t")
                        .expressionAttributeValues(Map.of(":t", AttributeValue.fromS("tampered"))));
                case "delete-item" -> dynamoDb.deleteItem(r -> r.tableName(table).key(key));
                default -> throw new IllegalArgumentException(write);
            }
        } catch (DynamoDbException e) {
            return refusal(e.statusCode(), e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode());
        }
        Map<String, AttributeValue> after = operatorDynamoDb
                .getItem(r -> r.tableName(table).key(key).consistentRead(true)).item();
        return after == null || after.isEmpty() || !"original".equals(after.get("probe").s())
                ? "ALLOWED (the item changed or is gone)" : "ALLOWED (answered 2xx, the item unchanged)";
    }
}
