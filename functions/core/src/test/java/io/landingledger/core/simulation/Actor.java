package io.landingledger.core.simulation;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One participant of a schedule: a <em>task</em> (real code on its own virtual thread, stopping at every yield point)
 * or a <em>step</em> (a model action run atomically, once or whenever its guard holds). Created by
 * {@link Scheduler#task}, {@link Scheduler#step} and {@link Scheduler#repeat}; named {@code name#id}, the id counting
 * spawns from 1, so names are unique and identical across replays. All state is touched only by whichever thread
 * holds the scheduler's turn, so none of it needs to be volatile: the turn handoff orders it.
 */
public final class Actor {

    /** A task's code: anything, typically one call into the service under test. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    final int id;
    final String name;
    final boolean task;
    final Body body;
    final Runnable step;
    final BooleanSupplier guard;
    final boolean once;

    Thread thread;
    /** The task has passed its first yield point. */
    boolean yielded;
    /** The task's code returned or threw, or the step (once) ran. */
    boolean ended;
    /** A crash was chosen for this task: every later yield point throws. */
    boolean crashed;
    /** The schedule is over and this task is being unwound. */
    boolean killed;
    /** A blocked task's condition (null: not blocked). */
    BooleanSupplier awaiting;
    String awaitLabel;
    String crashLabel;
    boolean crashable = true;
    boolean faultable = true;
    Consumer<TaskEnd> onEnd;

    Actor(int id, String name, Body body) {
        this.id = id;
        this.name = name;
        this.task = true;
        this.body = body;
        this.step = null;
        this.guard = null;
        this.once = true;
    }

    Actor(int id, String name, BooleanSupplier guard, Runnable step, boolean once) {
        this.id = id;
        this.name = name;
        this.task = false;
        this.body = null;
        this.step = step;
        this.guard = guard;
        this.once = once;
    }

    boolean enabled() {
        if (ended) {
            return false;
        }
        if (!task) {
            return guard == null || guard.getAsBoolean();
        }
        return awaiting == null || awaiting.getAsBoolean();
    }

    /** {@code name#id}, e.g. {@code run#2}. */
    public String name() {
        return name;
    }

    public int id() {
        return id;
    }

    public boolean isTask() {
        return task;
    }

    /** A task whose code has finished (returned, threw or crashed), or a one-shot step that ran. */
    public boolean ended() {
        return ended;
    }

    /** A task that was crashed. */
    public boolean crashed() {
        return crashed;
    }

    /** Whether the explorer may crash this task (default true). Returns this. */
    public Actor crashable(boolean crashable) {
        this.crashable = crashable;
        return this;
    }

    /** Whether the explorer may inject faults into this task's port calls (default true). Returns this. */
    public Actor faultable(boolean faultable) {
        this.faultable = faultable;
        return this;
    }

    /**
     * What to do when this task ends, instead of {@link Model#onTaskEnd}: e.g. spawn a retry after a crash or a
     * fault, as Lambda would, or assert on the outcome. Runs atomically; may spawn actors and make choices. Returns
     * this.
     */
    public Actor onEnd(Consumer<TaskEnd> onEnd) {
        this.onEnd = onEnd;
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
