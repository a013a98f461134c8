package io.landingledger.tools.local;

import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.localcloud.deploy.LocalDeployment;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing local --watch} sweeps again only when something new reached the validator since its last sweep. Its
 * first poll used to sweep round 1's objects again, re-driving whatever an operator had changed meanwhile (a deleted
 * publish restored behind the on-call engineer's back; DeployedTargetIT's repair then found nothing to repair on a
 * machine slow enough for that poll to come after its deletion).
 */
class WatchPollIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

    @Test
    void thePollAfterASweep_findsNothingNew_untilAnotherObjectReachesTheValidator() throws Exception {
        Path work = Files.createTempDirectory("watch-poll");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, work), new LandingRuntime());
             DeployedPipeline pipeline = new DeployedPipeline(stack, quiet)) {
            pipeline.progress(true, null);
            Path examples = REPOSITORY.resolve("examples/inbox/progress_events");
            pipeline.drop("progress_events", examples.resolve("progress-2026-03-01.jsonl"), 1);
            pipeline.sweep();
            assertFalse(pipeline.deliverNewVersions(1), "round 1 was swept: the first poll has nothing new");

            pipeline.drop("progress_events", examples.resolve("progress-2026-03-02.jsonl"), 1);
            assertTrue(pipeline.deliverNewVersions(1), "a new object reached the validator after the sweep");
            assertFalse(pipeline.deliverNewVersions(1), "and is reported once");
        }
    }

    /**
     * OnCallIT's deleted publish came back before its dry run on a loaded machine: the lost event's repair (an
     * operator's own run of the validator) made the next poll sweep again with re-drive, restoring the publish the
     * test had just deleted. Only what S3's notifications bring is new to the watch.
     */
    @Test
    void aRedriveOrRepairOfAnObject_isNotNewToTheWatch_onlyWhatS3Notified() throws Exception {
        Path work = Files.createTempDirectory("watch-poll");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, work), new LandingRuntime());
             DeployedPipeline pipeline = new DeployedPipeline(stack, quiet);
             S3Client s3 = LocalDeployment.s3Client(stack.operatorConnection())) {
            pipeline.progress(true, null);
            pipeline.loseOtherClientsEvents();
            Path examples = REPOSITORY.resolve("examples/inbox/progress_events");
            pipeline.drop("progress_events", examples.resolve("progress-2026-03-01.jsonl"), 1);
            pipeline.sweep();
            // a producer's file whose S3 event is lost, then the operator's sweep re-drives it through the validator
            s3.putObject(r -> r.bucket(stack.physicalId("InboxBucket")).key("progress_events/progress-2026-03-02.jsonl"),
                    RequestBody.fromFile(examples.resolve("progress-2026-03-02.jsonl")));
            String payload = JsonCodec.writeString(new SweepRequest.Payload(List.of("progress_events"), "2026-03-01", "2026-03-02"));
            assertFalse(stack.lambda().invoke(stack.physicalId("CompletenessSweepFunction"), "live", payload).failed());
            stack.awaitIdle(Duration.ofMinutes(5));
            assertTrue(pipeline.outcomes().stream().anyMatch(o -> o.unit().equals("2026-03-02")), "the sweep re-drove the lost object");
            assertFalse(pipeline.deliverNewVersions(1), "a re-drive is the sweep's own run: the watch does not sweep again");
        }
    }
}
