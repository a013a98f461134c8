package io.landingledger.core.simulation;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's speed on a toy the size of a publish run: tasks of ten port calls each (read a ledger-like item, head,
 * open, stage, promote under a condition, write the item under its revision), a producer step and an event delivery
 * step that spawns a run, crashes and faults on. The code under test is trivial, so this measures the engine: the
 * handoffs, the thread per task, the bookkeeping per yield point.
 *
 * <p>Prints schedules per second, on one thread and on two. {@code -Dlanding.sim.schedules=N} runs N random
 * schedules instead of the default 20,000 (the long run), {@code -Dlanding.sim.preemptions=B} explores with
 * preemption bound B instead of 3, e.g. {@code mvn -pl functions/core test -Dtest=ExplorerSpeedTest
 * -Dlanding.sim.schedules=2000000 -Dlanding.sim.preemptions=3}.
 */
class ExplorerSpeedTest {

    /** Two runs from the start, a third once the event for it is delivered; each ten calls. */
    static final class PublishLike implements Model {
        final MemKv mem;
        final List<Integer> pending = new ArrayList<>();
        int runs;

        PublishLike(Scheduler sim, int initialRuns, boolean withSteps) {
            mem = new MemKv(sim);
            Kv kv = new SteppedKv(sim, mem);
            for (int i = 0; i < initialRuns; i++) {
                spawnRun(sim, kv, i + 1);
            }
            if (withSteps) {
                sim.step("produce", () -> {
                    mem.put("input", 2);
                    pending.add(3);
                });
                sim.repeat("deliver", () -> !pending.isEmpty(), () -> spawnRun(sim, kv, pending.remove(0)));
            }
        }

        private void spawnRun(Scheduler sim, Kv kv, int id) {
            runs++;
            sim.task("run", () -> run(kv, id));
        }

        /** Ten calls: the shape of one ingest. */
        private static void run(Kv kv, int id) {
            int revision = kv.get("ledger");
            int input = kv.get("input");
            kv.get("published");
            kv.get("staging" + id);
            kv.put("staging" + id, input);
            kv.get("staging" + id);
            if (kv.cas("published", 0, id) || kv.get("published") == id) {
                kv.get("published");
            }
            if (!kv.cas("ledger", revision, revision + 1)) {
                kv.get("ledger");
            }
            kv.put("staging" + id, 0);
        }

        @Override
        public void check() {
            int published = mem.values.getOrDefault("published", 0);
            if (published < 0) {
                throw new AssertionError("negative");
            }
        }

        @Override
        public void checkFinal() {
            assertTrue(mem.values.getOrDefault("ledger", 0) <= runs);
        }
    }

    @Test
    void randomSchedulesPerSecond() {
        long n = Long.getLong("landing.sim.schedules", 20_000);
        Explorer explorer = Explorer.of(sim -> new PublishLike(sim, 2, true))
                .with(c -> c.withMaxCrashes(2).withMaxFaults(2).withCrashProbability(0.03).withFaultProbability(0.03));
        explorer.random(1, 20_000); // warm up: the JIT compiles the engine's hot paths after some 10,000 schedules
        long digest = 0;
        for (int threads = 1; threads <= 2; threads++) {
            int t = threads;
            long t0 = System.nanoTime();
            Report report = explorer.with(c -> c.withThreads(t)).random(1, n);
            double seconds = (System.nanoTime() - t0) / 1e9;
            report.assertNoViolation();
            System.out.printf("simulation speed: random, 3 runs of 10 calls + 2 steps, crashes and faults, %d thread(s):"
                    + " %d schedules in %.2f s, %.0f schedules/s%n", threads, n, seconds, n / seconds);
            assertTrue(threads == 1 || digest == report.digest(), "the same schedules on any number of threads");
            digest = report.digest();
        }
    }

    @Test
    void exhaustiveSchedulesPerSecond() {
        int bound = Integer.getInteger("landing.sim.preemptions", 3);
        Explorer explorer = Explorer.of(sim -> new PublishLike(sim, 2, false))
                .with(c -> c.withMaxPreemptions(bound).withMaxCrashes(2));
        explorer.with(c -> c.withMaxSchedules(20_000)).exhaustive(); // warm up
        long schedules = 0;
        for (int threads = 1; threads <= 2; threads++) {
            int t = threads;
            long t0 = System.nanoTime();
            Report report = explorer.with(c -> c.withThreads(t)).exhaustive();
            double seconds = (System.nanoTime() - t0) / 1e9;
            report.assertNoViolation();
            assertTrue(report.complete());
            System.out.printf("simulation speed: exhaustive, 2 runs of 10 calls, preemption bound %d, up to one crash"
                            + " each, %d thread(s): %d schedules in %.2f s, %.0f schedules/s%n", bound, threads,
                    report.schedules(), seconds, report.schedules() / seconds);
            assertTrue(threads == 1 || schedules == report.schedules(), "the same space on any number of threads");
            schedules = report.schedules();
        }
    }
}
