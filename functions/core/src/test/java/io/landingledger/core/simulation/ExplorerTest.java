package io.landingledger.core.simulation;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine on toy protocols whose bugs and schedule counts are known: a lost update and a check-then-act race that
 * each need exactly one preemption, correct compare-and-set versions of both, and tasks that crash, fault, loop or
 * block.
 */
class ExplorerTest {
    /** Two tasks increment x by read-modify-write: the classic lost update. Final check: x == 2. */
    static final class LostUpdate implements Model {
        final MemKv mem;

        LostUpdate(Scheduler sim) {
            mem = new MemKv(sim);
            Kv kv = new SteppedKv(sim, mem);
            for (int i = 0; i < 2; i++) {
                sim.task("inc", () -> kv.put("x", kv.get("x") + 1));
            }
        }

        @Override
        public void checkFinal() {
            assertEquals(2, mem.values.get("x"), "x after two increments");
        }
    }

    /**
     * The same with a compare-and-set retry loop: correct. Every task that returned incremented x; one that crashed
     * or faulted after its compare-and-set may have, too.
     */
    static final class CasIncrement implements Model {
        final MemKv mem;
        final int tasks;
        int returned;
        int ended;

        CasIncrement(Scheduler sim, int tasks) {
            this.tasks = tasks;
            mem = new MemKv(sim);
            Kv kv = new SteppedKv(sim, mem);
            for (int i = 0; i < tasks; i++) {
                sim.task("inc", () -> {
                    while (true) {
                        int v = kv.get("x");
                        if (kv.cas("x", v, v + 1)) {
                            return;
                        }
                    }
                });
            }
        }

        @Override
        public void onTaskEnd(TaskEnd end) {
            Model.super.onTaskEnd(end);
            ended++;
            if (end.returned()) {
                returned++;
            }
        }

        @Override
        public void checkFinal() {
            int x = mem.values.getOrDefault("x", 0);
            assertEquals(tasks, ended);
            assertTrue(returned <= x && x <= tasks, "x " + x + " with " + returned + " of " + tasks + " returned");
        }
    }

    /**
     * Check-then-act: each task claims the owner slot if it looks free. The invariant, checked at every step, is
     * that at most one task believes it owns the slot.
     */
    static final class Claim implements Model {
        final List<Integer> owners = new ArrayList<>();

        Claim(Scheduler sim, int tasks, boolean atomic) {
            Kv kv = new SteppedKv(sim, new MemKv(sim));
            for (int i = 1; i <= tasks; i++) {
                int me = i;
                sim.task("claim", () -> {
                    if (atomic) {
                        if (kv.cas("owner", 0, me)) {
                            owners.add(me);
                        }
                        int owner = kv.get("owner");
                        if (owners.contains(me) && owner != me) {
                            throw new AssertionError("task " + me + " owns the slot but it says " + owner);
                        }
                    } else if (kv.get("owner") == 0) {
                        kv.put("owner", me);
                        owners.add(me);
                    }
                });
            }
        }

        @Override
        public void check() {
            assertTrue(owners.size() <= 1, "more than one owner: " + owners);
        }
    }

    @AfterEach
    void noThreadOutlivesItsSchedule() {
        assertEquals(0, Scheduler.liveThreads(), "task threads still alive");
    }

    @Test
    void lostUpdateNeedsOnePreemption() {
        Explorer explorer = Explorer.of(LostUpdate::new);

        Report none = explorer.with(c -> c.withMaxPreemptions(0)).exhaustive();
        assertFalse(none.violated(), none::toString);
        assertTrue(none.complete());
        assertEquals(2, none.schedules(), "without preemptions: one task, then the other, in either order");

        Report one = explorer.with(c -> c.withMaxPreemptions(1)).exhaustive();
        assertTrue(one.violated(), "the lost update needs exactly one preemption");
        Failure failure = one.failure();
        assertEquals("final check", failure.violation().kind());
        // pick inc#1 (its first call, the read, comes with the pick), preempt it before its put: the minimal schedule
        assertEquals(Schedule.of(0, 1), failure.shrunk().schedule(), failure::describe);
        assertEquals(List.of(
                "inc#1 kv.get x -> 0",
                "inc#2 preempts inc#1",
                "inc#2 kv.get x -> 0",
                "inc#2 kv.put x",
                "inc#2 ended: returned",
                "inc#1 kv.put x",
                "inc#1 ended: returned"), withoutViolation(failure.shrunk().trace().events()), failure::describe);
    }

    @Test
    void randomModeFindsTheLostUpdateAndShrinksIt() {
        Report report = Explorer.of(LostUpdate::new).random(42, 1_000);
        assertTrue(report.violated());
        assertNotNull(report.failure().seed());
        assertEquals(Schedule.of(0, 1), report.failure().shrunk().schedule(), report::toString);

        Outcome fromSeed = Explorer.of(LostUpdate::new).replaySeed(report.failure().seed());
        assertTrue(fromSeed.violated());
        assertEquals(report.failure().found().schedule(), fromSeed.schedule());
    }

    @Test
    void aPrintedScheduleReplays() {
        Explorer explorer = Explorer.of(LostUpdate::new).with(c -> c.withMaxPreemptions(1));
        Failure failure = explorer.exhaustive().failure();
        String printed = failure.describe();
        assertTrue(printed.contains("explorer.replay(Schedule.of(0, 1))"), printed);

        Outcome fromList = explorer.replay(Schedule.parse(failure.shrunk().schedule().toString()));
        Outcome fromJava = explorer.replay(Schedule.parse(failure.shrunk().schedule().toJava()));
        Outcome pinned = explorer.replay(Schedule.of(0, 1));
        for (Outcome o : List.of(fromList, fromJava, pinned)) {
            assertTrue(o.violated());
            assertEquals(failure.shrunk().trace().toString(), o.trace().toString());
        }
        assertFalse(explorer.replay(Schedule.of()).violated(), "the all-default schedule is sequential");
        // any sequence replays: out-of-range values are clamped (7: inc#2 first, 9: preempt it), a short one
        // continues with defaults, and choices the bound no longer offers (99: a second preemption) are not asked
        assertEquals(Schedule.of(1, 1), explorer.replay(7, 9, 99).schedule());
    }

    @Test
    void checkThenActIsCaughtByTheStepCheck() {
        Explorer explorer = Explorer.of(sim -> new Claim(sim, 2, false));
        assertFalse(explorer.with(c -> c.withMaxPreemptions(0)).exhaustive().violated());

        Report report = explorer.with(c -> c.withMaxPreemptions(1)).exhaustive();
        assertTrue(report.violated());
        assertEquals("check", report.failure().violation().kind(), report::toString);
        assertEquals(Schedule.of(0, 1), report.failure().shrunk().schedule(), report::toString);

        assertTrue(explorer.random(7, 1_000).violated());
    }

    @Test
    void compareAndSetClaimIsCorrectOverTheWholeSpace() {
        // each task: cas, get: 2 yield points, so 2 atomic blocks (start, cas, up to get; get to the end: a task's
        // first yield point is no switch point); the schedules are the interleavings of the tasks' blocks with at
        // most p preemptions (a switch away from a task with blocks left), counted independently below
        for (int tasks = 2; tasks <= 3; tasks++) {
            for (int p : new int[] {0, 1, 2, Integer.MAX_VALUE}) {
                int n = tasks;
                Report report = Explorer.of(sim -> new Claim(sim, n, true)).with(c -> c.withMaxPreemptions(p)).exhaustive();
                report.assertNoViolation();
                assertTrue(report.complete());
                assertEquals(interleavings(new int[tasks], 2, -1, p), report.schedules(), "tasks " + tasks + ", bound " + p);
            }
        }
        assertEquals(6, Explorer.of(sim -> new Claim(sim, 2, true)).exhaustive().schedules(), "C(4, 2)");
        assertEquals(90, Explorer.of(sim -> new Claim(sim, 3, true)).exhaustive().schedules(), "6! / 2!^3");
    }

    /** Interleavings of blocks of equal-length tasks with at most {@code budget} preemptions. */
    private static long interleavings(int[] done, int blocks, int running, int budget) {
        long n = 0;
        boolean any = false;
        for (int t = 0; t < done.length; t++) {
            if (done[t] == blocks) {
                continue;
            }
            any = true;
            int cost = running >= 0 && running != t && done[running] < blocks ? 1 : 0;
            if (cost > budget) {
                continue;
            }
            done[t]++;
            n += interleavings(done, blocks, t, budget - cost);
            done[t]--;
        }
        return any ? n : 1;
    }

    @Test
    void compareAndSetIncrementHasNoLostUpdate() {
        Report report = Explorer.of(sim -> new CasIncrement(sim, 2)).with(c -> c.withMaxPreemptions(3)).exhaustive();
        report.assertNoViolation();
        assertTrue(report.complete());
        // a task retries only after the other one's compare-and-set succeeded, and that one then ends: every
        // schedule has at most 2 preemptions (get | other's get | cas, other's cas fails...), so bound 3 is the whole
        // space
        assertEquals(Explorer.of(sim -> new CasIncrement(sim, 2)).exhaustive().schedules(), report.schedules());
        assertEquals(6, report.schedules());
        Explorer.of(sim -> new CasIncrement(sim, 3)).random(1, 2_000).assertNoViolation();
    }

    /** A task that writes a, then b, cleans up in finally and recovers from runtime exceptions. */
    static final class Careful implements Model {
        final MemKv mem;
        final List<TaskEnd> ends = new ArrayList<>();

        Careful(Scheduler sim) {
            mem = new MemKv(sim);
            Kv kv = new SteppedKv(sim, mem);
            sim.task("run", () -> {
                try {
                    kv.put("a", 1);
                    kv.put("b", 1);
                } catch (RuntimeException e) {
                    kv.put("recovered", 1);
                    throw e;
                } finally {
                    kv.put("cleanup", 1);
                }
            }).onEnd(ends::add);
        }
    }

    @Test
    void aCrashedTaskMakesNoFurtherCallsNotEvenFromFinally() {
        List<Careful> models = new ArrayList<>();
        Explorer explorer = Explorer.of(sim -> {
            Careful m = new Careful(sim);
            models.add(m);
            return m;
        }).with(c -> c.withMaxCrashes(1));
        Report report = explorer.exhaustive();
        report.assertNoViolation();
        // 3 writes (a, b, cleanup), each: no crash, crash before, crash after
        assertEquals(1 + 2 * 3, report.schedules());
        List<List<String>> crashedLogs = new ArrayList<>();
        for (Careful m : models) {
            TaskEnd end = m.ends.get(0);
            if (end.crashed()) {
                crashedLogs.add(m.mem.log);
                assertFalse(m.mem.log.contains("run#1 put recovered"), m.mem.log::toString);
            } else {
                assertEquals(List.of("run#1 put a", "run#1 put b", "run#1 put cleanup"), m.mem.log);
            }
        }
        assertEquals(List.of(
                List.of(),
                List.of("run#1 put a"),
                List.of("run#1 put a"),
                List.of("run#1 put a", "run#1 put b"),
                List.of("run#1 put a", "run#1 put b"),
                List.of("run#1 put a", "run#1 put b", "run#1 put cleanup")),
                crashedLogs.stream().sorted((x, y) -> x.size() - y.size()).toList(),
                "crash before a; after a; before b; after b; before cleanup; after cleanup");
    }

    @Test
    void aFaultReachesTheCodeUnderTestWhichHandlesIt() {
        List<Careful> models = new ArrayList<>();
        Report report = Explorer.of(sim -> {
            Careful m = new Careful(sim);
            models.add(m);
            return m;
        }).with(c -> c.withMaxFaults(1)).exhaustive();
        report.assertNoViolation();
        // faults on a (before, after), b (before, after), recovered (never: needs a second fault), cleanup
        assertEquals(1 + 2 * 3, report.schedules());
        for (Careful m : models) {
            TaskEnd end = m.ends.get(0);
            assertFalse(end.crashed());
            assertTrue(m.mem.log.contains("run#1 put cleanup") || end.faulted(), m.mem.log::toString);
            if (end.faulted() && !m.mem.log.contains("run#1 put recovered")) {
                // only a fault on cleanup itself, in finally, escapes without recovery
                assertTrue(m.mem.log.size() >= 2);
            }
        }
        Outcome faultOnB = Explorer.of(Careful::new).with(c -> c.withMaxFaults(1)).replay(0, 1);
        assertEquals(List.of("run#1 kv.put a", "run#1 fault before kv.put b", "run#1 kv.put recovered",
                "run#1 kv.put cleanup", "run#1 ended: threw io.landingledger.core.simulation.SimulatedFault: "
                        + "simulated fault before kv.put b"), faultOnB.trace().events());
    }

    @Test
    void aScheduleAbandonedAtAViolationKillsTheParkedTasks() {
        AtomicReference<MemKv> last = new AtomicReference<>();
        Explorer explorer = Explorer.of(sim -> {
            MemKv mem = new MemKv(sim);
            last.set(mem);
            Kv kv = new SteppedKv(sim, mem);
            for (int i = 0; i < 2; i++) {
                sim.task("run", () -> {
                    try {
                        kv.put("x", kv.get("x") + 1);
                    } finally {
                        kv.put("cleanup", 1);
                    }
                });
            }
            return new Model() {
                @Override
                public void check() {
                    assertTrue(mem.values.getOrDefault("x", 0) < 1, "x reached 1");
                }
            };
        }).with(c -> c.withMaxPreemptions(1));
        Outcome o = explorer.replay(0, 1); // run#1 reads, run#2 reads and puts: violation while run#1 is parked
        assertTrue(o.violated());
        assertEquals(List.of("run#1 get x", "run#2 get x", "run#2 put x"), last.get().log,
                "run#1 was killed at its put and its finally did not run its cleanup put; nor did run#2's");
    }

    /**
     * Publish, then record, retried after a crash: a retry that finds the object published assumes someone else
     * published it and records nothing. Wrong when the one who published was its own crashed attempt.
     */
    static final class PublishThenRecord implements Model {
        final MemKv mem;

        PublishThenRecord(Scheduler sim) {
            mem = new MemKv(sim);
            spawn(sim, new SteppedKv(sim, mem));
        }

        private void spawn(Scheduler sim, Kv kv) {
            sim.task("run", () -> {
                kv.put("staged", 1);
                if (kv.cas("published", 0, 1)) {
                    kv.put("recorded", 1);
                }
            }).onEnd(end -> {
                if (end.crashed()) {
                    spawn(sim, kv); // Lambda's retry
                }
            });
        }

        @Override
        public void checkFinal() {
            assertEquals(mem.values.getOrDefault("published", 0), mem.values.getOrDefault("recorded", 0),
                    "published but not recorded");
        }
    }

    @Test
    void aCrashBetweenCommitAndRecordThenARetryIsFoundAndShrunkToOneCrash() {
        Explorer explorer = Explorer.of(PublishThenRecord::new).with(c -> c.withMaxCrashes(1));
        Report exhaustive = explorer.exhaustive();
        assertTrue(exhaustive.violated());
        assertEquals(Schedule.of(0, 0, 1), exhaustive.failure().found().schedule(),
                "depth first, the first failing schedule: the crash before the record");
        assertEquals(List.of(
                "run#1 kv.put staged",
                "run#1 kv.cas published -> true",
                "run#1 crash before kv.put recorded",
                "run#1 ended: crashed",
                "run#2 kv.put staged",
                "run#2 kv.cas published -> false",
                "run#2 ended: returned"), withoutViolation(exhaustive.failure().shrunk().trace().events()));

        Failure random = explorer.random(3, 2_000).failure();
        assertNotNull(random);
        assertEquals(1, random.shrunk().schedule().unusual(), random::describe);
        assertEquals(1, random.shrunk().crashes());
        assertEquals(0, random.shrunk().preemptions());
        // the other one-crash schedule: after the cas took effect
        Outcome after = explorer.replay(0, 2);
        assertTrue(after.violated());
        assertTrue(after.trace().events().contains("run#1 crash after kv.cas published"), after.trace()::toString);
    }

    @Test
    void sameSeedSameSchedules() {
        Explorer explorer = Explorer.of(sim -> new CasIncrement(sim, 3)).with(c -> c.withMaxCrashes(2).withMaxFaults(1));
        Report a = explorer.random(99, 2_000);
        Report b = explorer.random(99, 2_000);
        assertEquals(a.digest(), b.digest());
        assertNotEquals(a.digest(), explorer.random(100, 2_000).digest());
        long seed = RandomChoices.scheduleSeed(99, 17);
        assertEquals(explorer.replaySeed(seed).trace().toString(), explorer.replaySeed(seed).trace().toString());
        Outcome traced = explorer.replaySeed(seed);
        assertEquals(traced.trace().toString(), explorer.replay(traced.schedule()).trace().toString(),
                "a random schedule and the replay of its choices are the same schedule");
    }

    @Test
    void threadsChangeNothingButSpeed() {
        Explorer one = Explorer.of(sim -> new CasIncrement(sim, 3)).with(c -> c.withMaxPreemptions(2).withMaxCrashes(1));
        Explorer two = one.with(c -> c.withThreads(2));
        Report a = one.exhaustive();
        Report b = two.exhaustive();
        a.assertNoViolation();
        b.assertNoViolation();
        assertTrue(a.schedules() > 500, a::toString);
        assertEquals(a.schedules(), b.schedules());
        assertEquals(a.digest(), b.digest());
        assertEquals(one.random(5, 3_000).digest(), two.random(5, 3_000).digest());

        Explorer buggy = Explorer.of(LostUpdate::new).with(c -> c.withMaxPreemptions(2));
        for (Report[] pair : new Report[][] {
                {buggy.exhaustive(), buggy.with(c -> c.withThreads(2)).exhaustive()},
                {buggy.random(3, 1_000), buggy.with(c -> c.withThreads(2)).random(3, 1_000)}}) {
            assertEquals(pair[0].failure().found().schedule(), pair[1].failure().found().schedule());
            assertEquals(pair[0].failure().where(), pair[1].failure().where().replaceAll("after \\d+", "after 2"));
            assertEquals(pair[0].failure().shrunk().schedule(), pair[1].failure().shrunk().schedule());
        }
    }

    @Test
    void nondeterminismIsCaught() {
        Explorer.of(sim -> new CasIncrement(sim, 3)).with(c -> c.withMaxCrashes(1).withMaxFaults(1))
                .assertDeterministic(1, 500);
        AtomicInteger calls = new AtomicInteger();
        Explorer flaky = Explorer.of(sim -> {
            Kv kv = new SteppedKv(sim, new MemKv(sim));
            int n = calls.incrementAndGet() % 2 == 0 ? 3 : 2; // state from outside the model
            for (int i = 0; i < n; i++) {
                sim.task("run", () -> kv.get("x"));
            }
            return new Model() { };
        });
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                flaky::exhaustive);
        assertTrue(e.getMessage().startsWith("nondeterminism"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> flaky.assertDeterministic(1, 10));
    }

    @Test
    void aTaskThatNeverEndsHitsTheStepBound() {
        Explorer explorer = Explorer.of(sim -> {
            Kv kv = new SteppedKv(sim, new MemKv(sim));
            sim.task("spin", () -> {
                while (kv.get("stop") == 0) {
                    Thread.onSpinWait();
                }
            });
            return new Model() { };
        }).with(c -> c.withMaxSteps(500));
        Report report = explorer.random(1, 10);
        assertTrue(report.violated());
        assertEquals("step bound", report.failure().violation().kind());

        Report truncated = explorer.with(c -> c.withMaxSteps(500).withStepLimitIsViolation(false)).random(1, 10);
        assertFalse(truncated.violated());
        assertEquals(10, truncated.truncated());
    }

    @Test
    void deadlockedTasksAreAViolation() {
        Report report = Explorer.of(sim -> {
            AtomicInteger go = new AtomicInteger();
            sim.task("waiter", () -> sim.await("go", () -> go.get() > 0));
            sim.step("never", () -> { });
            return new Model() { };
        }).exhaustive();
        assertTrue(report.violated());
        assertEquals("deadlock", report.failure().violation().kind());

        Report released = Explorer.of(sim -> {
            AtomicInteger go = new AtomicInteger();
            sim.task("waiter", () -> sim.await("go", () -> go.get() > 0));
            sim.step("release", () -> go.set(1));
            return new Model() { };
        }).exhaustive();
        released.assertNoViolation();
        assertEquals(2, released.schedules(), "the release before or after the waiter starts waiting");
    }

    @Test
    void stepsRunAtomicallyAndCanSpawnTasks() {
        Report report = Explorer.of(sim -> {
            MemKv mem = new MemKv(sim);
            Kv kv = new SteppedKv(sim, mem);
            List<Integer> events = new ArrayList<>(List.of(1, 2));
            sim.repeat("deliver", () -> !events.isEmpty(), () -> {
                int e = events.remove(sim.choose(events.size()));
                kv.put("delivered" + e, 1); // atomic: a step's calls are not yield points
                sim.task("run", () -> kv.put("ran" + e, kv.get("delivered" + e)));
            });
            return new Model() {
                @Override
                public void checkFinal() {
                    assertEquals(1, mem.values.get("ran1"));
                    assertEquals(1, mem.values.get("ran2"));
                }
            };
        }).with(c -> c.withMaxPreemptions(1)).exhaustive();
        report.assertNoViolation();
        assertTrue(report.schedules() > 4, report::toString);
    }

    @Test
    void aPortCallFromAForeignThreadIsRefused() {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        Report report = Explorer.of(sim -> {
            Kv kv = new SteppedKv(sim, new MemKv(sim));
            sim.task("run", () -> {
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        kv.get("x");
                    } catch (Throwable e) {
                        refused.set(e);
                    }
                });
                t.join();
                kv.get("y");
            });
            return new Model() { };
        }).random(1, 1);
        assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
        assertEquals("foreign thread", report.failure().violation().kind(), report::toString);
    }

    private static List<String> withoutViolation(List<String> events) {
        return events.stream().filter(e -> !e.contains("VIOLATION")).toList();
    }
}
