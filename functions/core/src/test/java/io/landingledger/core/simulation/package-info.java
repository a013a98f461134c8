/**
 * A deterministic schedule explorer: runs real code (the publish protocol's services, unmodified) as concurrent
 * actors over in-memory ports, switching, crashing and faulting them at every port call, and checks a model's
 * invariants after every step.
 *
 * <h2>Writing a model</h2>
 * <pre>{@code
 * final class PublishModel implements Model {
 *     final InMemoryS3 s3 = new InMemoryS3();           // the model's own fakes: plain, deterministic
 *     final InMemoryLedger db = new InMemoryLedger();
 *     final SimClock clock = new SimClock(Instant.parse("2024-05-01T00:00:00Z"));
 *
 *     PublishModel(Scheduler sim) {
 *         IngestService service = new IngestService(
 *                 new SteppedObjectStore(sim, s3), new SteppedLedger(sim, db), "lake", clock, ...);
 *         sim.step("producer puts v2", () -> s3.put(...));                      // atomic, once
 *         sim.repeat("deliver", () -> !events.isEmpty(), () -> {                 // atomic, while enabled
 *             Event e = events.remove(sim.choose(events.size()));                // which one: a choice
 *             if (sim.chooseBoolean()) { events.add(e); }                        // duplicated
 *             spawnRun(sim, service, e);
 *         });
 *         spawnRun(sim, service, firstEvent);
 *     }
 *
 *     void spawnRun(Scheduler sim, IngestService service, Event e) {
 *         sim.task("run", () -> service.ingest(request(e)))                     // real code, its own thread
 *            .onEnd(end -> { if (end.crashed() || end.faulted()) spawnRun(sim, service, e); }); // Lambda retries
 *     }
 *
 *     public void check() { ... }       // after every yield point and step: e.g. the ledger vouches for no
 *                                       // missing ETag
 *     public void checkFinal() { ... }  // at quiescence: e.g. the published object is the newest valid input
 * }
 * }</pre>
 *
 * <h2>Running it</h2>
 * <pre>{@code
 * Explorer explorer = Explorer.of(PublishModel::new)
 *         .with(c -> c.withMaxPreemptions(2).withMaxCrashes(2).withMaxFaults(1).withThreads(2));
 * explorer.exhaustive().assertNoViolation();                 // every schedule within the bounds
 * explorer.random(42, Long.getLong("sim.schedules", 20_000)).assertNoViolation();
 * explorer.assertDeterministic(1, 200);                      // the model replays exactly (run this first)
 * Outcome o = explorer.replay(Schedule.of(0, 2, 0, 1));      // a schedule a report printed, pinned
 * System.out.println(o.trace());
 * }</pre>
 * A violation's report (thrown by {@link io.landingledger.core.simulation.Report#assertNoViolation()}) gives the
 * seed, the schedule as found and shrunk, the Java literal to pin it, and the shrunk schedule's trace, one line per
 * step: {@code run#1 ledger.get u}, {@code run#2 preempts run#1}, {@code run#2 crash before s3.promote published/x},
 * {@code run#1 s3.promote published/x from staging/1 If-None-Match * -> e4}, {@code run#3 ended: crashed}.
 *
 * <h2>Rules for models</h2>
 * <ul>
 *   <li>Deterministic: no wall clock (use {@link io.landingledger.core.simulation.SimClock}), no randomness but
 *       {@link io.landingledger.core.simulation.Scheduler#choose}, no iteration over identity-hashed sets, no threads
 *       of its own. Exhaustive mode detects a prefix that replays differently; {@code assertDeterministic} finds the
 *       rest.</li>
 *   <li>Everything runs one thing at a time: model state needs no locks.</li>
 *   <li>Steps call the fakes directly (or stepped ports, which are atomic outside tasks); tasks share state with
 *       others only through stepped ports, and not before their first port call (a task's first yield point is not
 *       a switch point).</li>
 *   <li>Make choice 0 the unremarkable option: shrinking drives choices to 0.</li>
 * </ul>
 */
package io.landingledger.core.simulation;
