package io.landingledger.core.simulation;

import java.util.SplittableRandom;

/**
 * Random mode's choices, from one seeded {@link SplittableRandom} per schedule (so a schedule's seed alone reproduces
 * it). Uniform for picks and model choices; for a task at a yield point it switches away with
 * {@link Config#switchProbability()} (a uniform switch at every yield point would preempt almost every call, while
 * most bugs need a few well-placed preemptions in an otherwise sequential run), and crashes or faults with their
 * configured probabilities, the variant (before or after the call) uniform.
 */
final class RandomChoices implements ChoiceSource {
    private final SplittableRandom random;
    private final double switchProbability;
    private final double crashProbability;
    private final double faultProbability;

    RandomChoices(long seed, Config config) {
        this.random = new SplittableRandom(seed);
        this.switchProbability = config.switchProbability();
        this.crashProbability = config.crashProbability();
        this.faultProbability = config.faultProbability();
    }

    @Override
    public int choose(ChoiceKind kind, int options, int position) {
        return switch (kind) {
            case PICK, MODEL -> random.nextInt(options);
            case SWITCH -> unusual(switchProbability, options);
            case CRASH -> unusual(crashProbability, options);
            case FAULT -> unusual(faultProbability, options);
        };
    }

    private int unusual(double probability, int options) {
        return random.nextDouble() < probability ? 1 + random.nextInt(options - 1) : 0;
    }

    /** Schedule {@code index}'s seed: the base seed and the index through SplitMix64's finalizer. */
    static long scheduleSeed(long baseSeed, long index) {
        long z = baseSeed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
