package io.landingledger.core.simulation;

import java.util.Arrays;
import java.util.function.Function;

/**
 * Turns a failing schedule into a simpler one that fails the same way ({@link Violation#sameFailure}).
 *
 * <p>Simpler means, in this order: fewer non-default choices (preemptions, crashes, faults, non-zero model
 * choices), then a shorter choice sequence (its last non-default choice earlier), then smaller values, position by
 * position. Every candidate is replayed from scratch, and since any int sequence replays (values out of range are
 * clamped, a sequence that runs out continues with defaults), candidates can be edited freely:
 * <ol>
 *   <li>delete chunks (delta debugging: halves, quarters, ... single choices), which drops whole preemptions or
 *       crashes and lets what follows slide earlier;</li>
 *   <li>replace each non-default choice by 0 (no preemption, no crash, no fault) or a smaller value.</li>
 * </ol>
 * Both passes repeat until neither finds anything, or the replay budget is spent. Only strict improvements are
 * accepted, so it terminates. The result is a local minimum, not necessarily a global one; for the small bugs the
 * tests pin it is the minimum.
 */
final class Shrinker {
    private final Function<int[], Outcome> replay;
    private final Violation target;
    private final int budget;
    private int runs;

    Shrinker(Function<int[], Outcome> replay, Violation target, int budget) {
        this.replay = replay;
        this.target = target;
        this.budget = budget;
    }

    /** How many replays shrinking took. */
    int runs() {
        return runs;
    }

    Outcome shrink(Outcome failing) {
        Outcome best = failing;
        int[] cur = best.schedule().raw();
        boolean improved = true;
        while (improved && runs < budget) {
            improved = false;
            for (int chunk = Math.max(1, cur.length / 2); chunk >= 1 && runs < budget; chunk /= 2) {
                for (int at = 0; at + chunk <= cur.length && runs < budget; ) {
                    int[] candidate = new int[cur.length - chunk];
                    System.arraycopy(cur, 0, candidate, 0, at);
                    System.arraycopy(cur, at + chunk, candidate, at, cur.length - at - chunk);
                    Outcome o = attempt(candidate, cur);
                    if (o != null) {
                        best = o;
                        cur = o.schedule().raw();
                        improved = true;
                    } else {
                        at++;
                    }
                }
            }
            for (int at = cur.length - 1; at >= 0 && runs < budget; at--) {
                if (at >= cur.length) {
                    continue;
                }
                for (int v = 0; v < cur[at] && runs < budget; v++) {
                    int[] candidate = cur.clone();
                    candidate[at] = v;
                    Outcome o = attempt(candidate, cur);
                    if (o != null) {
                        best = o;
                        cur = o.schedule().raw();
                        improved = true;
                        break;
                    }
                }
            }
        }
        return best;
    }

    private Outcome attempt(int[] candidate, int[] current) {
        runs++;
        Outcome o = replay.apply(candidate);
        if (o.violated() && target.sameFailure(o.violation()) && simpler(o.schedule().raw(), current)) {
            return o;
        }
        return null;
    }

    /** Whether {@code a} is strictly simpler than {@code b}: fewer non-zeros, then shorter, then smaller. */
    static boolean simpler(int[] a, int[] b) {
        int ua = unusual(a);
        int ub = unusual(b);
        if (ua != ub) {
            return ua < ub;
        }
        if (a.length != b.length) {
            return a.length < b.length;
        }
        return Arrays.compare(a, b) < 0;
    }

    private static int unusual(int[] choices) {
        int n = 0;
        for (int c : choices) {
            if (c != 0) {
                n++;
            }
        }
        return n;
    }
}
