package io.landingledger.core.ingest;

import io.landingledger.core.simulation.Config;
import io.landingledger.core.simulation.Explorer;
import io.landingledger.core.simulation.Report;
import io.landingledger.lambda.testing.AwsEmulators;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded subset of {@link ProtocolSimulationTest}'s schedules over the real adapters ({@code S3ObjectStore} on
 * S3Proxy, {@code DynamoDbLedger} on moto), fresh buckets and tables per schedule ({@link EmulatorProtocolWorld}),
 * with the same model and the same invariants: S1-S6 after every step, L1-L5, LEDGER_DRIFT and DryRun at quiescence,
 * every check reading what the emulators hold.
 *
 * <p>Shrinking is off: the emulators' LastModified is wall-clock seconds and their ETags and version ids are their
 * own, so replaying a schedule's choices need not take the same path. A violation is reported with its seed and
 * schedule as found; replay those choices on the in-memory world ({@code ProtocolSimulationTest.explorer}) to tell a
 * protocol bug (it fails there too) from an adapter or emulator difference (docs/testing.md).
 *
 * <p>{@code -Dprotocol.adapters.schedules=N} random schedules (default 120), {@code -Dprotocol.adapters.exhaustive=M}
 * the first M depth-first schedules of each chosen configuration (default 20), {@code -Dprotocol.seed=S}.
 */
class ProtocolSimulationAdaptersIT {
    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    static final long SCHEDULES = Long.getLong("protocol.adapters.schedules", 120);
    static final long EXHAUSTIVE = Long.getLong("protocol.adapters.exhaustive", 20);
    /**
     * The configurations explored (each up to EXHAUSTIVE schedules): two races of versions (finding 1's among them),
     * and an out-of-band delete of the published object with the sweep's re-drive (LEDGER_DRIFT, a delete on the lake).
     */
    static final List<String> CONFIGURATIONS = List.of("two new versions, their events at once",
            "published A, then B and A's rows again, at once (finding 1)",
            "the published object deleted out of band, the sweep's re-drive and a late replay at once");

    private static final ExecutorService UPLOADS = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "simulation-part-upload");
        t.setDaemon(true);
        return t;
    });

    @AfterAll
    static void stopUploads() {
        UPLOADS.shutdownNow();
    }

    private static Explorer explorer(Consumer<ProtocolModel> script, Config config) {
        return explorer(clock -> new EmulatorProtocolWorld(aws.s3(), aws.dynamoDb(), UPLOADS, clock), script, config);
    }

    private static Explorer explorer(ProtocolWorld.Factory worlds, Consumer<ProtocolModel> script, Config config) {
        return Explorer.of(sim -> new ProtocolModel(sim, worlds, script)).with(config.withShrink(false));
    }

    /** The checks read the emulators: published bytes changed behind the model's back fail the first schedule. */
    @Test
    void aPublishOverwrittenOnTheEmulator_isAViolation() {
        Report report = explorer(
                clock -> new EmulatorProtocolWorld(aws.s3(), aws.dynamoDb(), UPLOADS, clock).tamperingWithPromotes(),
                ProtocolSimulationTest.configurations().get(CONFIGURATIONS.get(0)),
                ProtocolSimulationTest.exhaustiveBounds().withMaxSchedules(1)).exhaustive();
        assertTrue(report.violated(), "a publish overwritten with other rows went unseen");
        String described = report.failure().describe();
        assertTrue(described.contains("S1: published/ does not hold the canonical accepted rows"), described);
    }

    @Test
    void theFirstSchedulesOfThreeSmallConfigurations_keepEveryInvariantOnTheEmulators() {
        for (String name : CONFIGURATIONS) {
            Consumer<ProtocolModel> script = ProtocolSimulationTest.configurations().get(name);
            long started = System.nanoTime();
            Report report = explorer(script, ProtocolSimulationTest.exhaustiveBounds().withMaxSchedules(EXHAUSTIVE))
                    .exhaustive();
            System.out.printf("protocol simulation over the adapters, depth-first (preemptions <= %d, crashes <= %d):"
                            + " %s: %,d schedules (%s), %.1f s%n", ProtocolSimulationTest.PREEMPTIONS,
                    ProtocolSimulationTest.CRASHES, name, report.schedules(),
                    report.complete() ? "complete" : "the first " + EXHAUSTIVE, (System.nanoTime() - started) / 1e9);
            report.assertNoViolation();
        }
    }

    @Test
    void randomSchedulesOfTheWholeWorld_keepEveryInvariantOnTheEmulators() {
        long started = System.nanoTime();
        Report report = explorer(ProtocolSimulationTest::world, ProtocolSimulationTest.randomBounds())
                .random(ProtocolSimulationTest.SEED, SCHEDULES);
        System.out.printf("protocol simulation over the adapters, random (seed %d): %,d schedules, %.1f s%n",
                ProtocolSimulationTest.SEED, report.schedules(), (System.nanoTime() - started) / 1e9);
        report.assertNoViolation();
    }
}
