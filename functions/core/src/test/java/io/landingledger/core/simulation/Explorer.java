package io.landingledger.core.simulation;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Explores the schedules of a model: many random ones, or every one within bounds, and on a violation reports it
 * reproducibly (seed and choice sequence), shrunk, with a readable trace.
 *
 * <pre>{@code
 * Explorer explorer = Explorer.of(sim -> new PublishModel(sim))
 *         .with(c -> c.withMaxPreemptions(2).withMaxCrashes(2));
 * explorer.exhaustive().assertNoViolation();
 * explorer.random(42, 20_000).assertNoViolation();
 * Outcome pinned = explorer.replay(Schedule.of(0, 0, 1));   // a schedule a report printed
 * }</pre>
 *
 * <p>Each schedule builds a fresh model from the factory and runs it to the end, so a schedule's outcome depends on
 * nothing but its choices: same seed (or same choice sequence), same model, same code, same result, bit for bit.
 * That is also what makes exhaustive mode stateless: it enumerates choice sequences depth first, replaying each
 * prefix from scratch instead of snapshotting state, and it checks on every replay that the prefix offered the same
 * options as before (a model that is not deterministic fails loudly rather than exploring nonsense).
 *
 * <p>All schedules of one call run on one virtual "driver" thread (or {@link Config#threads()} of them): handing
 * the turn between virtual threads is far cheaper than waking a platform thread.
 */
public final class Explorer {
    private final Function<Scheduler, ? extends Model> factory;
    private final Config config;

    private Explorer(Function<Scheduler, ? extends Model> factory, Config config) {
        this.factory = factory;
        this.config = config;
    }

    /** An explorer of {@code factory}'s model with {@link Config#defaults()}. */
    public static Explorer of(Function<Scheduler, ? extends Model> factory) {
        return new Explorer(factory, Config.defaults());
    }

    public Explorer with(Config config) {
        return new Explorer(factory, config);
    }

    public Explorer with(UnaryOperator<Config> change) {
        return new Explorer(factory, change.apply(config));
    }

    public Config config() {
        return config;
    }

    /**
     * Runs {@code schedules} random schedules; schedule {@code i} uses its own seed derived from {@code baseSeed} and
     * {@code i} (so any one can be rerun alone with {@link #replaySeed}). Stops at the first violation (the one with
     * the lowest index, on any number of threads).
     */
    public Report random(long baseSeed, long schedules) {
        String mode = "random (base seed " + baseSeed + ")";
        return onDriver(() -> {
            AtomicLong next = new AtomicLong();
            AtomicLong digest = new AtomicLong();
            AtomicLong truncated = new AtomicLong();
            AtomicLong firstViolation = new AtomicLong(Long.MAX_VALUE);
            Outcome[] first = new Outcome[1];
            onThreads(config.threads(), () -> {
                long i;
                while ((i = next.getAndIncrement()) < schedules && i < firstViolation.get()) {
                    Outcome o = runOnce(new RandomChoices(RandomChoices.scheduleSeed(baseSeed, i), config), false);
                    digest.addAndGet(DepthFirst.mix(o.digest() + i * 0x9E3779B97F4A7C15L));
                    if (o.truncated()) {
                        truncated.incrementAndGet();
                    }
                    if (o.violated()) {
                        synchronized (first) {
                            if (i < firstViolation.get()) {
                                firstViolation.set(i);
                                first[0] = o;
                            }
                        }
                    }
                }
            });
            if (first[0] == null) {
                return new Report(mode, schedules, truncated.get(), true, digest.get(), null);
            }
            long i = firstViolation.get();
            String where = "random schedule " + i + " of base seed " + baseSeed;
            return new Report(mode, i + 1, truncated.get(), false, digest.get(),
                    failure(where, RandomChoices.scheduleSeed(baseSeed, i), first[0]));
        });
    }

    /**
     * Runs every schedule within the bounds (preemptions, crashes, faults, steps), depth first in choice order, up to
     * {@link Config#maxSchedules()}. Stops at the first violation (the first in depth-first order, on any number of
     * threads). The first schedule is the all-default one.
     */
    public Report exhaustive() {
        String mode = "exhaustive (" + bounds() + ")";
        return onDriver(() -> {
            DepthFirst.Result r = new DepthFirst(choices -> runOnce(new ReplayChoices(choices), false),
                    config.maxSchedules(), config.threads()).explore();
            Failure failure = r.violation() == null ? null
                    : failure("exhaustive mode, after " + r.schedules() + " schedules", null, r.violation());
            return new Report(mode, r.schedules(), r.truncated(), r.complete(), r.digest(), failure);
        });
    }

    /**
     * Runs {@code schedules} random schedules twice each, the second time as a traced replay of the first one's
     * recorded choices, and throws if any differs in its choices, options, steps or violation: finds what makes a
     * model or the code under test nondeterministic (iteration over identity hashes, the wall clock, randomness,
     * threads of its own, behaviour that depends on {@link Scheduler#tracing()}) before it corrupts an exploration.
     */
    public void assertDeterministic(long baseSeed, long schedules) {
        onDriver(() -> {
            for (long i = 0; i < schedules; i++) {
                long seed = RandomChoices.scheduleSeed(baseSeed, i);
                Outcome first = runOnce(new RandomChoices(seed, config), false);
                Outcome again = runOnce(new ReplayChoices(first.schedule().raw()), true);
                if (first.digest() != again.digest()) {
                    throw new IllegalStateException("nondeterminism: random schedule " + i + " (seed " + seed
                            + ") made " + first.choicesExplained() + " in " + first.steps() + " steps ("
                            + first + "), its replay " + again.choicesExplained() + " in " + again.steps()
                            + " steps (" + again + ")\n" + again.trace());
                }
            }
            return null;
        });
    }

    /** Replays a schedule (as printed by a report, or pinned in a test) with its trace. */
    public Outcome replay(Schedule schedule) {
        return onDriver(() -> runOnce(new ReplayChoices(schedule.raw()), true));
    }

    /** Replays a choice sequence with its trace. */
    public Outcome replay(int... choices) {
        return replay(Schedule.of(choices));
    }

    /** Reruns one random schedule from its own seed (a report's "schedule seed"), with its trace. */
    public Outcome replaySeed(long scheduleSeed) {
        return onDriver(() -> runOnce(new RandomChoices(scheduleSeed, config), true));
    }

    private Outcome runOnce(ChoiceSource source, boolean tracing) {
        return new Scheduler(config, source, tracing).run(factory);
    }

    private Failure failure(String where, Long seed, Outcome found) {
        System.err.println("simulation: VIOLATION in " + where + (seed != null ? ", schedule seed " + seed : "")
                + ", schedule " + found.schedule() + ": " + found.violation().describe()
                + (config.shrink() ? " (shrinking)" : ""));
        Outcome simplest = found;
        int runs = 0;
        if (config.shrink()) {
            Shrinker shrinker = new Shrinker(choices -> runOnce(new ReplayChoices(choices), false), found.violation(),
                    config.maxShrinkRuns());
            simplest = shrinker.shrink(found);
            runs = shrinker.runs();
        }
        Outcome traced = runOnce(new ReplayChoices(simplest.schedule().raw()), true);
        return new Failure(where, seed, found, traced, runs);
    }

    private String bounds() {
        return "preemptions " + bound(config.maxPreemptions()) + ", crashes " + config.maxCrashes() + ", faults "
                + config.maxFaults() + ", steps " + config.maxSteps();
    }

    private static String bound(int b) {
        return b == Integer.MAX_VALUE ? "unbounded" : String.valueOf(b);
    }

    /** Runs {@code work} on a virtual driver thread (or on this one if it is virtual) and returns its result. */
    private static <T> T onDriver(Supplier<T> work) {
        if (Thread.currentThread().isVirtual()) {
            return work.get();
        }
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread driver = Thread.ofVirtual().name("explorer").start(() -> {
            try {
                result[0] = work.get();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        joinUninterruptibly(driver);
        if (failure[0] instanceof RuntimeException e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    /** Runs {@code work} on this (driver) thread and {@code threads - 1} more virtual threads; rethrows a failure. */
    private static void onThreads(int threads, Runnable work) {
        Thread[] helpers = new Thread[threads - 1];
        Throwable[] failure = new Throwable[1];
        for (int i = 0; i < helpers.length; i++) {
            helpers[i] = Thread.ofVirtual().name("explorer-" + (i + 1)).start(() -> {
                try {
                    work.run();
                } catch (Throwable t) {
                    synchronized (failure) {
                        failure[0] = failure[0] == null ? t : failure[0];
                    }
                }
            });
        }
        work.run();
        for (Thread t : helpers) {
            joinUninterruptibly(t);
        }
        synchronized (failure) {
            if (failure[0] instanceof RuntimeException e) {
                throw e;
            }
            if (failure[0] instanceof Error e) {
                throw e;
            }
        }
    }

    static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
