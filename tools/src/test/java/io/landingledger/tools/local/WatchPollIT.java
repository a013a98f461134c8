package io.landingledger.tools.local;

import io.landingledger.localcloud.deploy.LocalDeployment;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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
}
