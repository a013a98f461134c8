package io.landingledger.tools.local;

import io.landingledger.localcloud.deploy.InvokeResult;
import io.landingledger.localcloud.deploy.DeployException;
import io.landingledger.localcloud.deploy.LocalDeployment;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.lambda.DependencyFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local deploy can fail: four faults planted in a scratch copy of infra/template.yaml, each of which a static check
 * of the template lets through, and each of which fails the deploy or an end-to-end run with a message naming the
 * resource. The unchanged template deploys and runs (LocalDeploymentIT), so each failure is the fault's.
 */
class TemplateFaultsIT {
    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

    /** A scratch copy of the template with one edit, which must apply exactly once. */
    private static Path plant(Path dir, String what, UnaryOperator<String> edit) throws Exception {
        String template = Files.readString(REPOSITORY.resolve("infra/template.yaml"));
        String changed = edit.apply(template);
        assertNotEquals(template, changed, "the fault '" + what + "' did not apply: the template changed; update this test");
        Path infra = Files.createDirectories(dir.resolve("infra"));
        Path copy = infra.resolve("template.yaml");
        Files.writeString(copy, changed);
        return copy;
    }

    private static LocalDeployment.Options options(Path dir, Path template) {
        return LocalDeployment.Options.of(REPOSITORY, dir.resolve("work")).withTemplate(template);
    }

    private static String once(String text, String old, String replacement) {
        int at = text.indexOf(old);
        assertTrue(at >= 0 && text.indexOf(old, at + 1) < 0, "expected exactly one occurrence of: " + old);
        return text.replace(old, replacement);
    }

    @Test
    void aRenamedEnvironmentVariable_failsTheDeploy_namingTheFunctionAndTheVariable(@TempDir Path dir) throws Exception {
        Path template = plant(dir, "LEDGER_TABLE renamed", t -> once(t, "        LEDGER_TABLE: !Ref LedgerTable\n",
                "        LEDGER_TABLE_NAME: !Ref LedgerTable\n"));
        DeployException failed = assertThrows(DeployException.class, () -> LocalDeployment.start(options(dir, template), new LandingRuntime()).close());
        System.out.println("[template-faults] " + failed.getMessage());
        assertTrue(failed.getMessage().contains("LEDGER_TABLE is not set"), failed.getMessage());
        assertTrue(failed.getMessage().matches("(?s).*(Validator|CompletenessSweep|Repair)Function.*"), failed.getMessage());
    }

    @Test
    void aRepairRoleWithoutAnActionItsRarePathCalls_failsTheRepair_withAccessDeniedNamingTheActionAndRole(@TempDir Path dir) throws Exception {
        // only a repair that republishes an input with rejected lines writes its quarantine: a path most repairs never take
        Path template = plant(dir, "RepairRole without WriteQuarantine", t -> {
            int repairRole = t.indexOf("  RepairRole:\n");
            String statement = "              - Sid: WriteQuarantine\n                Effect: Allow\n                Action: s3:PutObject\n"
                    + "                Resource: !Sub '${LakeBucket.Arn}/_quarantine/*'\n";
            int at = t.indexOf(statement, repairRole);
            assertTrue(repairRole > 0 && at > repairRole, "RepairRole's WriteQuarantine moved; update this test");
            return t.substring(0, at) + t.substring(at + statement.length());
        });
        try (LocalDeployment stack = LocalDeployment.start(options(dir, template), new LandingRuntime());
             S3Client operator = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()))) {
            String inbox = stack.physicalId("InboxBucket");
            String lake = stack.physicalId("LakeBucket");
            operator.putObject(r -> r.bucket(inbox).key("progress_events/progress-2026-03-03.jsonl"),
                    RequestBody.fromFile(REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-03.jsonl")));
            stack.awaitIdle(Duration.ofMinutes(2));
            operator.deleteObject(r -> r.bucket(lake).key("published/progress_events/unit=2026-03-03/part-00000.jsonl"));
            InvokeResult repair = stack.lambda().invoke(stack.physicalId("RepairFunction"), "live", JSON.std.asString(Map.of(
                    "dataset", "progress_events", "units", List.of("2026-03-03"), "reason", "INC-1 publish deleted")));
            String answer = repair.payloadText();
            System.out.println("[template-faults] " + answer);
            assertTrue(answer.contains("\"succeeded\":false"), answer);
            assertTrue(answer.contains("s3:PutObject") && answer.contains("RepairRole") && answer.contains("_quarantine/"), answer);
            assertTrue(String.join("\n", stack.accessDenied()).contains("RepairRole"), stack.accessDenied().toString());
        }
    }

    @Test
    void aNarrowedNotificationFilter_leavesTheFileUnprocessed_andTheRunSaysWhichBucketsFilterMissedIt(@TempDir Path dir) throws Exception {
        Path template = plant(dir, "the inbox's notification narrowed to one prefix", t -> once(t,
                "          - Event: s3:ObjectCreated:*\n            Function: !Ref ValidatorFunction.Alias\n",
                "          - Event: s3:ObjectCreated:*\n            Filter:\n              S3Key:\n                Rules:\n"
                        + "                  - Name: prefix\n                    Value: progress_events/daily/\n"
                        + "            Function: !Ref ValidatorFunction.Alias\n"));
        try (LocalDeployment stack = LocalDeployment.start(options(dir, template), new LandingRuntime());
             S3Client operator = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()))) {
            String inbox = stack.physicalId("InboxBucket");
            List<String> runs = new java.util.concurrent.CopyOnWriteArrayList<>();
            stack.lambda().addListener((function, payload, result, attempt, async) -> {
                if (function.logicalId().equals("ValidatorFunction")) {
                    runs.add(function.logicalId());
                }
            });
            operator.putObject(r -> r.bucket(inbox).key("progress_events/progress-2026-03-01.jsonl"),
                    RequestBody.fromFile(REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-01.jsonl")));
            stack.awaitIdle(Duration.ofMinutes(1));
            assertEquals(List.of(), runs, "nothing was invoked for a key the filter misses");
            String why = stack.notificationsFor(inbox, "progress_events/progress-2026-03-01.jsonl");
            System.out.println("[template-faults] " + why);
            assertTrue(why.contains("none of its LambdaConfigurations matches") && why.contains("prefix progress_events/daily/"), why);
        }
    }

    @Test
    void aBucketPolicyWithoutItsConditionalPublishRule_failsTheDeploy_namingTheLakeBucket(@TempDir Path dir) throws Exception {
        Path template = plant(dir, "DenyUnconditionalPublish removed", t -> {
            int at = t.indexOf("          - Sid: DenyUnconditionalPublish\n");
            int end = t.indexOf("\n\n", at);
            assertTrue(at > 0 && end > at, "LakeBucketPolicy's DenyUnconditionalPublish moved; update this test");
            return t.substring(0, at) + t.substring(end + 1);
        });
        DeployException failed = assertThrows(DeployException.class, () -> LocalDeployment.start(options(dir, template), new LandingRuntime()).close());
        System.out.println("[template-faults] " + failed.getMessage());
        assertTrue(failed.getMessage().startsWith("LakeBucket (landing-local-lake-123456789012-us-east-1)"), failed.getMessage());
        assertTrue(failed.getMessage().contains("unconditional PutObject into published/"), failed.getMessage());
    }
}
