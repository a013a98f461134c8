package io.landingledger.core.simulation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Runs one schedule: a set of actors, exactly one of them running at any time, every nondeterministic decision taken
 * through one {@link ChoiceSource} and recorded as an int. A model sees this class as its handle on the simulation:
 * it spawns actors ({@link #task}, {@link #step}, {@link #repeat}), asks for choices ({@link #choose}) and its stepped
 * ports call {@link #call} before every port call.
 *
 * <h2>The turn</h2>
 * Tasks run on virtual threads, but cooperatively: one volatile field, the turn, names the actor whose thread may
 * run, and a thread that gives the turn away parks until it gets it back ({@link LockSupport} park/unpark, measured
 * faster than a lock and condition, and as fast as a {@code SynchronousQueue} without its allocation: 170-350 ns a
 * handoff between two virtual threads here, against 230-1200 ns and 80-390 ns). There is no
 * scheduler thread: the thread that holds the turn makes the next decision itself, runs steps inline, and hands the
 * turn straight to the next task, so a task that keeps running costs no handoff at all and a switch costs one. The
 * volatile write and read of the turn order everything else, so model state and the scheduler's own fields need no
 * locks. The explorer's driver (a virtual thread too) holds the turn before the first actor and gets it back when the
 * schedule ends.
 *
 * <h2>Yield points and what can happen at one</h2>
 * {@link #call} is a yield point <em>before</em> the call. There the scheduler, in this order: counts a step and
 * checks the step bound; runs {@link Model#check()}; may crash the task (before the call: the call never happens; or
 * after it: the call is performed, then the task dies before it sees the result, the "promote committed, then Lambda
 * timed out" case); may inject a fault (a {@link SimulatedFault} thrown instead of the call, or after the call took
 * effect: a lost response); and picks the actor to run next, which may be this task (it continues), another task
 * (a preemption when this one could have continued) or a step. (Except at a task's first yield point, which is no
 * switch point: see {@code switchPoint}.) There is no yield point after a call: between a
 * call's return and the next call the task only computes locally, which no other actor can observe, so a switch
 * there would be indistinguishable from a switch at the next yield point; the "after" variants of crash and fault
 * cover what happens between a call taking effect and its caller seeing it. Reads offer no "after" variants: a
 * crash after a read is a crash before it.
 *
 * <h2>Crashes</h2>
 * A crashed task's thread unwinds by {@link SimulatedCrash}, an Error that {@code catch (RuntimeException)} does not
 * catch. Its {@code finally} blocks still run, but every yield point a crashed task reaches throws again without
 * performing the call or making a choice, so a crashed task performs no port call after its crash. When its code
 * has unwound, {@link Actor#onEnd} (or {@link Model#onTaskEnd}) hears of it and may spawn a retry.
 *
 * <h2>The end of a schedule</h2>
 * A schedule ends when no actor is enabled ({@link Model#checkFinal()} runs), at a violation, or at the step bound.
 * Then the driver kills every task thread that is still parked (each unwinds by {@link SimulatedCrash} as above) and
 * joins every thread the schedule started: no thread outlives its schedule. A task that loops forever without
 * reaching a yield point cannot be stopped (there is no preemption but at yield points, and no wall clock); one that
 * loops through yield points hits the step bound.
 */
public final class Scheduler {

    private static final AtomicInteger LIVE_THREADS = new AtomicInteger();

    private static final int PROCEED = 0;
    private static final int CRASH_BEFORE = 1;
    private static final int CRASH_AFTER = 2;
    private static final int FAULT_BEFORE = 3;
    private static final int FAULT_AFTER = 4;

    private final Config config;
    private final ChoiceSource source;
    private final Trace trace;
    private final Actor driver = new Actor(0, "explorer", () -> { });
    private final List<Actor> actors = new ArrayList<>();
    private Actor[] options = new Actor[8];

    private Model model;
    private Thread driverThread;
    private Actor current;
    private volatile Actor turn;

    private int[] values = new int[64];
    private int[] optionCounts = new int[64];
    private ChoiceKind[] kinds = new ChoiceKind[64];
    private int length;

    private int steps;
    private int preemptions;
    private int crashes;
    private int faults;
    private Violation violation;
    private boolean truncated;
    /** Set by a thread the scheduler does not run when it reaches a yield point; the turn's holder reports it. */
    private volatile String foreign;

    Scheduler(Config config, ChoiceSource source, boolean tracing) {
        this.config = config;
        this.source = source;
        this.trace = tracing ? new Trace() : null;
    }

    /** Task threads alive now, across all schedules (a leak check for tests). */
    static int liveThreads() {
        return LIVE_THREADS.get();
    }

    // ---------------------------------------------------------------- the model's API

    /**
     * Spawns a task: {@code body} runs on its own virtual thread once the scheduler first picks it, and stops at
     * every yield point (every call through a stepped port). Named {@code name#id}.
     */
    public Actor task(String name, Actor.Body body) {
        refuseIfDead();
        Actor a = new Actor(actors.size() + 1, name + "#" + (actors.size() + 1), body);
        actors.add(a);
        return a;
    }

    /** Spawns a step that runs once, atomically, whenever the scheduler picks it. */
    public Actor step(String name, Runnable body) {
        return spawnStep(name, null, body, true);
    }

    /** Spawns a step that runs once, atomically, when picked; it can be picked only while {@code guard} holds. */
    public Actor step(String name, BooleanSupplier guard, Runnable body) {
        return spawnStep(name, guard, body, true);
    }

    /**
     * Spawns a step that runs atomically every time it is picked, and can be picked while {@code guard} holds (e.g.
     * "deliver one pending event": guard "an event is pending", body chooses which). The schedule ends when no actor
     * is enabled, so a repeating step's guard must eventually fail (or the step bound ends the schedule).
     */
    public Actor repeat(String name, BooleanSupplier guard, Runnable body) {
        return spawnStep(name, guard, body, false);
    }

    private Actor spawnStep(String name, BooleanSupplier guard, Runnable body, boolean once) {
        refuseIfDead();
        Actor a = new Actor(actors.size() + 1, name + "#" + (actors.size() + 1), guard, body, once);
        actors.add(a);
        return a;
    }

    /**
     * A choice for the model: which event to deliver, whether to drop it, which version a listing shows. Returns an
     * int in {@code [0, options)}; make 0 the unremarkable option (deliver, in order, nothing dropped), since
     * shrinking drives choices towards 0. Exhaustive mode tries every answer.
     */
    public int choose(int options) {
        if (options < 1) {
            throw new IllegalArgumentException("a choice needs at least one option: " + options);
        }
        refuseIfDead();
        int v = choose(ChoiceKind.MODEL, options);
        if (trace != null && options > 1) {
            trace.add(steps, current, "choose(" + options + ") = " + v);
        }
        return v;
    }

    /** {@link #choose(int)} with two options: false is the default. */
    public boolean chooseBoolean() {
        return choose(2) == 1;
    }

    /**
     * The yield point before a port call, and the call. Called by stepped ports (and by a model's own stepped ports);
     * see the class comment for what may happen here. Outside a task (in a step, a task's end handler or the model's
     * constructor) the call is simply performed: those run atomically.
     *
     * @param op     what the call is, e.g. {@code s3.promote}
     * @param arg    what it is on (null for nothing), e.g. the key; joined to {@code op} only for traces and faults
     * @param writes whether the call can change what others observe (offers the "after" crash and fault variants)
     * @param effect the call itself; its checked exceptions are rethrown unchanged
     */
    public <T> T call(String op, String arg, boolean writes, PortCall<T> effect) {
        return call(op, arg, null, writes, effect);
    }

    /**
     * {@link #call(String, String, boolean, PortCall)} with a detail for the trace only (e.g. a promote's source
     * and precondition). Pass null unless {@link #tracing()}: the detail is for people, and building it costs.
     * The label that crashes and faults carry, and that {@link TaskEnd#label()} reports, is {@code op arg} either
     * way, so nothing a model can observe depends on whether a schedule is traced.
     */
    public <T> T call(String op, String arg, String detail, boolean writes, PortCall<T> effect) {
        Actor me = current;
        if (me == driver || !me.task || me.ended) {
            return perform(effect);
        }
        enter(me, op, arg);
        int fate = PROCEED;
        if (crashes < config.maxCrashes() && me.crashable) {
            int c = choose(ChoiceKind.CRASH, writes && config.crashAfter() ? 3 : 2);
            if (c != 0) {
                crashes++;
                fate = c == 1 ? CRASH_BEFORE : CRASH_AFTER;
            }
        }
        if (fate == PROCEED && faults < config.maxFaults() && me.faultable) {
            int f = choose(ChoiceKind.FAULT, writes && config.faultAfter() ? 3 : 2);
            if (f != 0) {
                faults++;
                fate = f == 1 ? FAULT_BEFORE : FAULT_AFTER;
            }
        }
        if (fate == CRASH_BEFORE) {
            crash(me, op, arg, "crash before ");
        }
        switchPoint(me);
        switch (fate) {
            case PROCEED:
                return trace == null ? perform(effect) : performTraced(me, op, arg, detail, effect);
            case FAULT_BEFORE:
                if (trace != null) {
                    trace.add(steps, me, "fault before " + label(op, arg));
                }
                throw new SimulatedFault(label(op, arg), false);
            case FAULT_AFTER:
                performIgnoringFailure(effect);
                if (trace != null) {
                    trace.add(steps, me, label(op, arg) + ", then fault (response lost)");
                }
                throw new SimulatedFault(label(op, arg), true);
            default: // CRASH_AFTER
                performIgnoringFailure(effect);
                crash(me, op, arg, "crash after ");
                throw new AssertionError("unreachable");
        }
    }

    /** A yield point without a call: a place where a model's task may be preempted (no crash, no fault). */
    public void yieldPoint(String label) {
        Actor me = current;
        if (me == driver || !me.task || me.ended) {
            return;
        }
        enter(me, label, null);
        switchPoint(me);
        if (trace != null) {
            trace.add(steps, me, label);
        }
    }

    /**
     * Blocks the calling task until {@code condition} holds (evaluated by the scheduler, atomically, whenever it
     * picks an actor). Switching away from a blocked task is free. If every unfinished task is blocked and no step
     * is enabled, the schedule ends in a deadlock violation.
     */
    public void await(String label, BooleanSupplier condition) {
        Actor me = current;
        if (me == driver || !me.task || me.ended) {
            throw new IllegalStateException("await outside a task: " + label);
        }
        enter(me, label, null);
        if (!me.yielded && condition.getAsBoolean()) {
            me.yielded = true;
        } else {
            me.yielded = true;
            me.awaiting = condition;
            me.awaitLabel = label;
            try {
                if (!dispatch(me, true)) {
                    awaitTurn(me);
                }
            } finally {
                me.awaiting = null;
            }
            if (me.killed) {
                throw SimulatedCrash.INSTANCE;
            }
        }
        if (trace != null) {
            trace.add(steps, me, "awaited " + label);
        }
    }

    /** The actor running now (a task, a step, or during the model's construction a pseudo-actor "explorer"). */
    public Actor current() {
        return current;
    }

    /** Every actor spawned so far, in spawn order. */
    public List<Actor> actors() {
        return Collections.unmodifiableList(actors);
    }

    /** Yield points and steps so far. */
    public int steps() {
        return steps;
    }

    /** Whether this schedule is being traced (a replay for a report): lets a model describe more in {@link #note}. */
    public boolean tracing() {
        return trace != null;
    }

    /** Adds a line to the trace when tracing (free otherwise): e.g. what a step delivered. */
    public void note(String text) {
        if (trace != null) {
            trace.add(steps, current, text);
        }
    }

    // ---------------------------------------------------------------- the driver's side

    /** Builds the model, runs the schedule to its end and cleans up. Call on the driver thread, once. */
    Outcome run(Function<Scheduler, ? extends Model> factory) {
        driverThread = Thread.currentThread();
        current = driver;
        turn = driver;
        try {
            model = factory.apply(this);
        } catch (Throwable t) {
            violation("factory", "the model factory threw", t);
        }
        if (violation == null) {
            dispatch(driver, false);
        }
        awaitTurn(driver);
        cleanUp();
        return new Outcome(values, optionCounts, kinds, length, violation, truncated, steps, preemptions, crashes,
                faults, trace);
    }

    private void cleanUp() {
        for (int i = 0; i < actors.size(); i++) {
            Actor a = actors.get(i);
            if (a.thread != null && !a.ended) {
                a.killed = true;
                giveTurn(a);
                awaitTurn(driver);
            }
        }
        for (int i = 0; i < actors.size(); i++) {
            Thread t = actors.get(i).thread;
            if (t != null) {
                Explorer.joinUninterruptibly(t);
            }
        }
        current = driver;
    }

    // ---------------------------------------------------------------- decisions

    /**
     * The scheduling loop, run by whichever thread holds the turn. Picks actors, runs steps inline, and either returns
     * true ({@code self} was picked and continues) or hands the turn to another task, or to the driver when the
     * schedule is over, and returns false (the caller then waits for the turn, or its thread ends).
     */
    private boolean dispatch(Actor self, boolean selfContinuable) {
        Actor resume = selfContinuable ? self : null;
        while (true) {
            if (violation != null || truncated) {
                giveTurn(driver);
                return false;
            }
            Actor next;
            try {
                next = pick(resume);
            } catch (Throwable t) {
                // a step's guard or an await condition threw: the model's fault, never the code under test's
                violation("guard", "a guard or await condition threw", t);
                giveTurn(driver);
                return false;
            }
            if (next == null) {
                finish();
                giveTurn(driver);
                return false;
            }
            if (!next.task) {
                runStep(next);
                if (config.stepsPreempt()) {
                    resume = null;
                }
                continue;
            }
            if (next == self) {
                current = self;
                return true;
            }
            giveTurn(next);
            return false;
        }
    }

    /**
     * Option 0 is the task that could continue ({@code resume}, if enabled); the others, in spawn order, are
     * preemptions and offered only within the preemption bound. With no task to continue every enabled actor is a
     * free pick.
     */
    private Actor pick(Actor resume) {
        boolean stay = resume != null && resume.enabled();
        boolean budget = preemptions < config.maxPreemptions();
        boolean stepsCost = config.stepsPreempt();
        int n = 0;
        if (stay) {
            options[n++] = resume;
        }
        for (int i = 0, size = actors.size(); i < size; i++) {
            Actor a = actors.get(i);
            if (a == resume || (stay && !budget && (a.task || stepsCost)) || !a.enabled()) {
                continue;
            }
            if (n == options.length) {
                options = Arrays.copyOf(options, n * 2);
            }
            options[n++] = a;
        }
        if (n == 0) {
            return null;
        }
        int i = choose(stay ? ChoiceKind.SWITCH : ChoiceKind.PICK, n);
        Actor next = options[i];
        if (stay && i != 0) {
            if (next.task || stepsCost) {
                preemptions++;
            }
            if (trace != null) {
                trace.add(steps, next, "preempts " + resume);
            }
        }
        return next;
    }

    private int choose(ChoiceKind kind, int n) {
        if (n == 1) {
            return 0;
        }
        int v = source.choose(kind, n, length);
        if (v < 0) {
            v = 0;
        } else if (v >= n) {
            v = n - 1;
        }
        if (length == values.length) {
            values = Arrays.copyOf(values, length * 2);
            optionCounts = Arrays.copyOf(optionCounts, length * 2);
            kinds = Arrays.copyOf(kinds, length * 2);
        }
        values[length] = v;
        optionCounts[length] = n;
        kinds[length] = kind;
        length++;
        return v;
    }

    // ---------------------------------------------------------------- actors

    /** A task arrives at a yield point: refuse it if dead, count the step, run the invariants. */
    private void enter(Actor me, String op, String arg) {
        if (Thread.currentThread() != me.thread) {
            String what = "yield point " + label(op, arg) + " reached on " + Thread.currentThread()
                    + ", a thread the scheduler does not run, while " + me + " holds the turn";
            foreign = what;
            throw new IllegalStateException(what);
        }
        if (me.crashed || me.killed) {
            throw SimulatedCrash.INSTANCE;
        }
        if (++steps > config.maxSteps()) {
            stepLimit(me, label(op, arg));
        } else {
            check();
        }
        if (violation != null || truncated) {
            giveTurn(driver);
            awaitTurn(me);
            throw SimulatedCrash.INSTANCE;
        }
    }

    /**
     * Where a task at a yield point may be switched away from. Not at its first yield point: the pick that started
     * the task already chose when it runs, and switching away before its first call would only repeat, at the price
     * of a preemption, schedules in which something else was picked first. (So code a task runs before its first
     * yield point must not touch state other actors observe; it runs together with the first call.)
     */
    private void switchPoint(Actor me) {
        if (!me.yielded) {
            me.yielded = true;
            return;
        }
        if (!dispatch(me, true)) {
            awaitTurn(me);
            if (me.killed) {
                throw SimulatedCrash.INSTANCE;
            }
        }
    }

    private void crash(Actor me, String op, String arg, String how) {
        me.crashed = true;
        me.crashLabel = label(op, arg);
        if (trace != null) {
            trace.add(steps, me, how + me.crashLabel);
        }
        throw SimulatedCrash.INSTANCE;
    }

    private void runStep(Actor a) {
        current = a;
        if (++steps > config.maxSteps()) {
            stepLimit(a, "step");
            return;
        }
        if (trace != null) {
            trace.add(steps, a, "step");
        }
        if (a.once) {
            a.ended = true;
        }
        try {
            a.step.run();
        } catch (Throwable t) {
            violation("step", a + " threw", t);
            return;
        }
        check();
    }

    private void taskMain(Actor a) {
        try {
            awaitTurn(a);
            Throwable thrown = null;
            if (!a.killed) {
                try {
                    a.body.run();
                } catch (Throwable t) {
                    thrown = t;
                }
            }
            a.ended = true;
            if (a.killed || violation != null || truncated) {
                giveTurn(driver);
                return;
            }
            endTask(a, thrown);
            dispatch(a, false);
        } finally {
            LIVE_THREADS.decrementAndGet();
        }
    }

    private void endTask(Actor a, Throwable thrown) {
        TaskEnd end;
        if (a.crashed) {
            if (thrown == null) {
                violation("swallowed crash", a + " returned normally after it was crashed at " + a.crashLabel
                        + ": the code under test caught the SimulatedCrash (catch Throwable or Error?)", null);
                return;
            }
            end = new TaskEnd(a, TaskEnd.Kind.CRASHED, null, a.crashLabel);
        } else if (thrown == null) {
            end = new TaskEnd(a, TaskEnd.Kind.RETURNED, null, null);
        } else {
            end = new TaskEnd(a, TaskEnd.Kind.THREW, thrown, null);
        }
        if (trace != null) {
            trace.add(steps, a, switch (end.kind()) {
                case RETURNED -> "ended: returned";
                case CRASHED -> "ended: crashed";
                case THREW -> "ended: threw " + thrown;
            });
        }
        try {
            if (a.onEnd != null) {
                a.onEnd.accept(end);
            } else {
                model.onTaskEnd(end);
            }
        } catch (Throwable t) {
            violation("task end", a + "'s end (" + end + ") is a violation", t);
            return;
        }
        check();
    }

    private void finish() {
        StringBuilder blocked = null;
        for (int i = 0; i < actors.size(); i++) {
            Actor a = actors.get(i);
            if (a.task && !a.ended) {
                blocked = (blocked == null ? new StringBuilder() : blocked.append(", "))
                        .append(a).append(" awaiting ").append(a.awaitLabel);
            }
        }
        if (blocked != null) {
            violation("deadlock", "deadlock: no actor enabled, " + blocked, null);
            return;
        }
        try {
            model.checkFinal();
        } catch (Throwable t) {
            violation("final check", "final check failed", t);
        }
    }

    private void check() {
        if (foreign != null) {
            violation("foreign thread", foreign + ": the code under test runs port calls on threads of its own,"
                    + " which the simulation cannot schedule", null);
            return;
        }
        try {
            model.check();
        } catch (Throwable t) {
            violation("check", "check failed at step " + steps + " (" + current + ")", t);
        }
    }

    private void stepLimit(Actor at, String label) {
        if (config.stepLimitIsViolation()) {
            violation("step bound", "step bound of " + config.maxSteps() + " reached at " + at + " " + label
                    + " (a livelock, or a task that never ends?)", null);
        } else {
            truncated = true;
        }
    }

    private void violation(String kind, String message, Throwable cause) {
        if (violation == null) {
            violation = new Violation(kind, message, cause, steps);
            if (trace != null) {
                trace.add(steps, current, "VIOLATION " + violation.describe());
            }
        }
    }

    private void refuseIfDead() {
        Actor me = current;
        if (me.killed || (me.crashed && !me.ended)) {
            throw SimulatedCrash.INSTANCE;
        }
    }

    // ---------------------------------------------------------------- the turn

    private void giveTurn(Actor next) {
        current = next;
        if (next == driver) {
            turn = driver;
            LockSupport.unpark(driverThread);
            return;
        }
        if (next.thread == null) {
            next.thread = Thread.ofVirtual().name(next.name).unstarted(() -> taskMain(next));
            LIVE_THREADS.incrementAndGet();
            turn = next;
            next.thread.start();
        } else {
            turn = next;
            LockSupport.unpark(next.thread);
        }
    }

    /**
     * Parks until the turn is {@code me}. No spinning first: measured, spinning a few hundred or thousand times
     * before parking made schedules 2 to 15 times slower, since a spinning virtual thread holds one of the two
     * carriers the turn's next holder needs.
     */
    private void awaitTurn(Actor me) {
        while (turn != me) {
            LockSupport.park(this);
        }
    }

    // ---------------------------------------------------------------- calls

    private static <T> T perform(PortCall<T> effect) {
        try {
            return effect.run();
        } catch (Exception e) {
            throw Scheduler.<RuntimeException>sneaky(e);
        }
    }

    private <T> T performTraced(Actor me, String op, String arg, String detail, PortCall<T> effect) {
        String label = label(op, arg) + (detail == null ? "" : " " + detail);
        T result;
        try {
            result = effect.run();
        } catch (Exception e) {
            trace.add(steps, me, label + " -> " + e.getClass().getSimpleName());
            throw Scheduler.<RuntimeException>sneaky(e);
        }
        trace.add(steps, me, label + describe(result));
        return result;
    }

    private static void performIgnoringFailure(PortCall<?> effect) {
        try {
            effect.run();
        } catch (Exception ignored) {
            // the caller never learns how the call ended
        }
    }

    private static String describe(Object result) {
        if (result instanceof Optional<?> o) {
            return o.isEmpty() ? " -> empty" : " -> found";
        }
        if (result instanceof Boolean || result instanceof Number || result instanceof String) {
            return " -> " + result;
        }
        return "";
    }

    static String label(String op, String arg) {
        return arg == null ? op : op + " " + arg;
    }

    @SuppressWarnings("unchecked")
    private static <X extends Throwable> X sneaky(Throwable t) throws X {
        throw (X) t;
    }
}
