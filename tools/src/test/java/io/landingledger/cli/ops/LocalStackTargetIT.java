package io.landingledger.cli.ops;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The on-call command line's {@code --stack NAME} path against the stack {@code landing local} deployed from the
 * template, through the SDK's own endpoint setting ({@code aws.endpointUrl}, i.e. {@code AWS_ENDPOINT_URL}): the stack's
 * resources come from its CloudFormation API, repair and sweep run in the stack's functions under their roles, and a
 * deleted publish is found and restored as on AWS. No recorded answer, no stub.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class LocalStackTargetIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static WatchedLocalStack stack;
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("local-stack-target-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path inbox = Files.createDirectories(work.resolve("inbox/progress_events"));
        for (String day : new String[] {"2026-03-01", "2026-03-02", "2026-03-03"}) {
            Files.copy(ROOT.resolve("examples/inbox/progress_events/progress-" + day + ".jsonl"), inbox.resolve("progress-" + day + ".jsonl"));
        }
        stack = WatchedLocalStack.startIn(work);
        assertEquals("landing-local", stack.record.stackName());
        System.setProperty("aws.endpointUrl", stack.record.s3Endpoint().toString());
        System.setProperty("aws.accessKeyId", stack.record.accessKeyId());
        System.setProperty("aws.secretAccessKey", stack.record.secretAccessKey());
        TargetOptions.stackApis = null;
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("aws.endpointUrl");
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        if (stack != null) {
            stack.close();
        }
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    /** The command line in this process, aimed at the local stack as a deployed one: {@code --stack landing-local}. */
    static LandingRun landing(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 4);
        all[args.length] = "--stack";
        all[args.length + 1] = "landing-local";
        all[args.length + 2] = "--region";
        all[args.length + 3] = "us-east-1";
        return LandingRun.inProcess(all);
    }

    @Test
    void aDeletedPublish_isFoundAndRepaired_throughTheStacksOwnFunctions() throws Exception {
        LandingRun status = landing("status", "progress_events", "--from", "2026-03-01", "--to", "2026-03-03");
        assertTrue(status.stdout().contains("2026-03-03"), status.stdout() + status.stderr());
        String lake = stack.record.lakeBucket();
        stack.s3.deleteObject(r -> r.bucket(lake).key("published/progress_events/unit=2026-03-03/part-00000.jsonl"));

        LandingRun drift = landing("status", "progress_events", "--drift");
        assertEquals(1, drift.exit(), drift.stdout() + drift.stderr());
        assertTrue(drift.stdout().contains("LEDGER_DRIFT"), drift.stdout());

        LandingRun repair = landing("repair", "progress_events", "2026-03-03", "--reason", "INC-8 publish deleted", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        String repairLog = Files.readString(work.resolve("out/.stack/logs/_aws_lambda_landing-local-repair.log"));
        assertTrue(repairLog.contains("START RequestId"), "run by the stack's repair function: " + repairLog);
        stack.s3.headObject(r -> r.bucket(lake).key("published/progress_events/unit=2026-03-03/part-00000.jsonl"));

        LandingRun history = landing("history", "progress_events", "2026-03-03");
        assertEquals(0, history.exit(), history.stderr());
        assertTrue(history.stdout().contains("REPAIR") && history.stdout().contains("INC-8 publish deleted"), history.stdout());

        // the repair restored the same rows: the unit is OK, so the sweep (the stack's sweep function) finds it complete
        LandingRun sweep = landing("sweep", "progress_events", "--from", "2026-03-01", "--to", "2026-03-03");
        assertEquals(0, sweep.exit(), sweep.stdout() + sweep.stderr());
        assertTrue(sweep.stdout().contains("Complete: no unit fails completeness."), sweep.stdout());
        String sweepLog = Files.readString(work.resolve("out/.stack/logs/_aws_lambda_landing-local-sweep.log"));
        assertTrue(sweepLog.contains("START RequestId"), "run by the stack's sweep function: " + sweepLog);
    }

    @Test
    void anUnknownStack_isRefusedByTheStacksCloudFormation_namingIt() {
        LandingRun run = LandingRun.inProcess("status", "progress_events", "--stack", "no-such-stack", "--region", "us-east-1");
        assertEquals(2, run.exit(), run.stdout() + run.stderr());
        assertTrue(run.stderr().contains("no-such-stack"), run.stderr());
    }
}
