package io.landingledger.core.simulation;

import java.util.Arrays;
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
 * <p>All schedules of one call run on one virtual "driver" thread: handing the turn between virtual threads is far
 * cheaper than waking a platform thread.
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
     * {@code i} (so any one can be rerun alone with {@link #replaySeed}). Stops at the first violation.
     */
    public Report random(long baseSeed, long schedules) {
        String mode = "random (base seed " + baseSeed + ")";
        return onDriver(() -> {
            long digest = 17;
            long truncated = 0;
            for (long i = 0; i < schedules; i++) {
                long seed = RandomChoices.scheduleSeed(baseSeed, i);
                Outcome o = runOnce(new RandomChoices(seed, config), false);
                digest = digest * 31 + o.digest();
                if (o.truncated()) {
                    truncated++;
                }
                if (o.violated()) {
                    String where = "random schedule " + i + " of base seed " + baseSeed;
                    return new Report(mode, i + 1, truncated, false, digest, failure(where, seed, o));
                }
            }
            return new Report(mode, schedules, truncated, true, digest, null);
        });
    }

    /**
     * Runs every schedule within the bounds (preemptions, crashes, faults, steps), depth first in choice order, up to
     * {@link Config#maxSchedules()}. Stops at the first violation. The first schedule is the all-default one.
     */
    public Report exhaustive() {
        String mode = "exhaustive (" + bounds() + ")";
        return onDriver(() -> {
            int[] prefix = new int[0];
            int[] prefixOptions = new int[0];
            long schedules = 0;
            long truncated = 0;
            long digest = 17;
            while (true) {
                Outcome o = runOnce(new ReplayChoices(prefix), false);
                schedules++;
                digest = digest * 31 + o.digest();
                if (o.truncated()) {
                    truncated++;
                }
                assertSamePrefix(prefix, prefixOptions, o);
                if (o.violated()) {
                    return new Report(mode, schedules, truncated, false, digest,
                            failure("exhaustive schedule " + (schedules - 1), null, o));
                }
                int at = o.length - 1;
                while (at >= 0 && o.values[at] + 1 >= o.options[at]) {
                    at--;
                }
                if (at < 0) {
                    return new Report(mode, schedules, truncated, true, digest, null);
                }
                if (schedules >= config.maxSchedules()) {
                    return new Report(mode, schedules, truncated, false, digest, null);
                }
                prefix = Arrays.copyOf(o.values, at + 1);
                prefix[at]++;
                prefixOptions = Arrays.copyOf(o.options, at + 1);
            }
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

    private static void assertSamePrefix(int[] prefix, int[] prefixOptions, Outcome o) {
        boolean same = o.length >= prefix.length;
        for (int i = 0; same && i < prefix.length; i++) {
            same = o.values[i] == prefix[i] && o.options[i] == prefixOptions[i];
        }
        if (!same) {
            throw new IllegalStateException("nondeterminism: replaying the choice prefix " + Arrays.toString(prefix)
                    + " with options " + Arrays.toString(prefixOptions) + " offered " + o.choicesExplained()
                    + "; the model or the code under test decides something outside Scheduler.choose (a HashMap "
                    + "order, the wall clock, a random number, another thread?)");
        }
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
        boolean interrupted = false;
        while (true) {
            try {
                driver.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
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
}
