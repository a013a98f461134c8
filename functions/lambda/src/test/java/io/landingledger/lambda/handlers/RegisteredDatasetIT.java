package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractTamperedException;
import io.landingledger.core.contract.InvalidContractException;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.sync.RequestBody;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dataset that is in no jar: registered in the lake's contract store as an operator does ({@code landing dataset add}),
 * then routed, validated and published by the validator as {@link DependencyFactory} wires it for Lambda; changed
 * (the next file records the new contract version), retired (its new files are unroutable, its publish and ledger stay),
 * and a bad contract refused with the loader's error and nothing stored.
 */
@ExtendWith(AwsEmulators.class)
class RegisteredDatasetIT {
    private static final String ORDERS = """
            {
              "dataset": "orders", "version": %d, "format": "jsonl",
              "unit": { "pattern": "orders-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "daily", "first": "2026-11-01" },
              "key": "order_id",
              "fields": {
                "order_id": { "type": "string", "required": true },
                "amount":   { "type": "number", "required": true }
              },
              "maxRejectedLines": %d
            }
            """;

    private final PipelineFixture pipeline;

    RegisteredDatasetIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    private static byte[] orders(int version, int cap) {
        return ORDERS.formatted(version, cap).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDatasetAddedToTheStoreIsRoutedValidatedAndPublishedWithoutAJarChange_thenChangedAndRetired() throws Exception {
        // TTL 0: each file reads the store (the TTL's own behaviour is ContractCacheTest's, on an injected clock)
        FunctionConfig config = pipeline.resources.config().toBuilder().contractCache(new ContractCache.Settings(10, Duration.ZERO)).build();
        try (DependencyFactory function = DependencyFactory.create(config)) {
            ValidateObjectHandler validator = new ValidateObjectHandler(function.router(), function.ingestService(), function.reporter(),
                    () -> UUID.randomUUID().toString());
            ContractRegistrar operator = new ContractRegistrar(function.contractStore(), Clock.systemUTC());

            // before registration: a file under orders/ goes nowhere
            PipelineFixture.Uploaded early = pipeline.put("orders/orders-2026-11-01.jsonl", line("o1", "1.50"));
            assertEquals("UNKNOWN_DATASET", record(Invocations.invoke(validator, pipeline.eventFor(early), null)).get("reason"));

            // a bad contract is refused with the loader's error, and nothing is stored
            byte[] bad = new String(orders(1, 0), StandardCharsets.UTF_8).replace("\"number\"", "\"money\"").getBytes(StandardCharsets.UTF_8);
            InvalidContractException refused = assertThrows(InvalidContractException.class, () -> operator.add("orders.json", bad, "INC-1", false));
            assertEquals("$.fields.amount.type", refused.jsonPath());
            assertEquals(List.of(), pipeline.keys("_contracts/"));

            // added: the same file, delivered again, is published under version 1
            assertEquals(1, operator.add("orders.json", orders(1, 0), "INC-1 onboard orders", false).entry().version());
            assertEquals("published", PipelineFixture.action(Invocations.invoke(validator, pipeline.eventFor(early), null)));
            LedgerItem first = pipeline.ledgerItem("orders", "2026-11-01");
            assertEquals(1, first.contractVersion());
            assertEquals("{\"amount\":1.5,\"order_id\":\"o1\"}\n", new String(pipeline.published("orders", "2026-11-01"), StandardCharsets.UTF_8));

            // changed: a bad line is now under the cap, and the publish records version 2
            operator.update("orders.json", orders(2, 1), "INC-2 allow one bad line", false);
            PipelineFixture.Uploaded second = pipeline.put("orders/orders-2026-11-02.jsonl",
                    (new String(line("o2", "2"), StandardCharsets.UTF_8) + "{\"order_id\":\"o3\"}\n").getBytes(StandardCharsets.UTF_8));
            assertEquals("published", PipelineFixture.action(Invocations.invoke(validator, pipeline.eventFor(second), null)));
            assertEquals(2, pipeline.ledgerItem("orders", "2026-11-02").contractVersion());
            assertEquals(1, pipeline.ledgerItem("orders", "2026-11-01").contractVersion(), "a change leaves what was published");

            // retired: a new file is unroutable with the reason; the publishes and the ledger stay
            operator.retire("orders", "INC-3 producer decommissioned");
            PipelineFixture.Uploaded late = pipeline.put("orders/orders-2026-11-03.jsonl", line("o4", "4"));
            Map<String, Object> unroutable = record(Invocations.invoke(validator, pipeline.eventFor(late), null));
            assertEquals("RETIRED_DATASET", unroutable.get("reason"));
            assertTrue(String.valueOf(unroutable.get("detail")).contains("INC-3 producer decommissioned"), unroutable.toString());
            assertEquals(first.revision(), pipeline.ledgerItem("orders", "2026-11-01").revision());
            assertEquals(List.of(LakeLayout.publishedKey("orders", "2026-11-01"), LakeLayout.publishedKey("orders", "2026-11-02")),
                    pipeline.keys(LakeLayout.PUBLISHED_PREFIX + "orders/"));
        }
    }

    /**
     * Issue 30, finding 3: a registered version rewritten in the store around its bucket policy (here straight to the
     * emulator) so that it no longer prohibits {@code email}: the validator refuses the version with CONTRACT_TAMPERED
     * naming the dataset and version, and publishes nothing of the file under it (the invocation fails, so Lambda
     * retries it and the failure queue keeps it for when on-call has restored the version).
     */
    @Test
    void finding3_aVersionRewrittenAroundThePolicy_isRefusedByTheValidator_CONTRACT_TAMPERED_andNothingIsPublished() throws Exception {
        FunctionConfig config = pipeline.resources.config().toBuilder().contractCache(new ContractCache.Settings(10, Duration.ZERO)).build();
        try (DependencyFactory function = DependencyFactory.create(config)) {
            ValidateObjectHandler validator = new ValidateObjectHandler(function.router(), function.ingestService(), function.reporter(),
                    () -> UUID.randomUUID().toString());
            String prohibiting = new String(orders(1, 0), StandardCharsets.UTF_8).replace("\"maxRejectedLines\"", "\"prohibited\": [\"email\"], \"maxRejectedLines\"");
            new ContractRegistrar(function.contractStore(), Clock.systemUTC())
                    .add("orders.json", prohibiting.getBytes(StandardCharsets.UTF_8), "INC-1 onboard orders", false);
            String key = S3ContractStore.key("orders", 1);
            String stored = pipeline.s3.getObjectAsBytes(r -> r.bucket(pipeline.lake()).key(key)).asUtf8String();
            String rewritten = stored.replace("\\\"prohibited\\\": [\\\"email\\\"], ", "");
            assertTrue(!rewritten.equals(stored), stored);
            pipeline.s3.putObject(r -> r.bucket(pipeline.lake()).key(key), RequestBody.fromString(rewritten));

            PipelineFixture.Uploaded file = pipeline.put("orders/orders-2026-11-01.jsonl",
                    "{\"order_id\":\"o1\",\"amount\":1,\"email\":\"planted@example.com\"}\n".getBytes(StandardCharsets.UTF_8));
            ContractTamperedException refused = assertThrows(ContractTamperedException.class,
                    () -> Invocations.invoke(validator, pipeline.eventFor(file), null));
            assertEquals("CONTRACT_TAMPERED", refused.code());
            assertEquals("CONTRACT_TAMPERED: orders v1 in the contract store does not match the SHA-256 recorded when it was registered; "
                    + "no file of orders is validated under it (docs/operations.md, \"A contract version refused\")", refused.getMessage());
            assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX + "orders/"));
            assertEquals(List.of(), pipeline.keys("_staging/"));
        }
    }

    private static byte[] line(String id, String amount) {
        return ("{\"order_id\":\"" + id + "\",\"amount\":" + amount + "}\n").getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> record(Map<String, Object> response) {
        return ((List<Map<String, Object>>) response.get("records")).get(0);
    }
}
