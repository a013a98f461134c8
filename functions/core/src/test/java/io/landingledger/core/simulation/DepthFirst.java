package io.landingledger.core.simulation;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Exhaustive mode's enumeration: every choice sequence, depth first, each schedule replayed from scratch from its
 * prefix (stateless model checking: no snapshots, the model factory rebuilds the state).
 *
 * <p>After each schedule the deepest choice that has an untried option is advanced and everything after it dropped;
 * the next replay explores what follows. Replaying a prefix must offer the same options as before, which is checked
 * every time (a model that is not deterministic fails loudly instead of exploring nonsense).
 *
 * <p>On several threads the tree is shared by work splitting: a subtree is a prefix, a worker explores its subtree
 * depth first, and when another worker is idle it gives away the untried options at the shallowest choice of its
 * path (the biggest subtrees) and bounds its own range there. The schedules in lexicographic order of their choices
 * are the depth-first order, so the reported violation is made independent of timing by keeping the least violating
 * sequence found and pruning only subtrees that lie entirely after it: every schedule before it still runs, and the
 * least one overall is the one a single thread finds first.
 */
final class DepthFirst {

    /** What the enumeration found. */
    record Result(long schedules, long truncated, long digest, boolean complete, Outcome violation) {
    }

    private record Subtree(int[] prefix, int[] options) {
    }

    private final Function<int[], Outcome> run;
    private final long maxSchedules;
    private final int threads;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Subtree> queue = new ArrayDeque<>();
    private int active;
    private int idle;
    private volatile boolean hungry;
    private volatile boolean stop;
    private volatile int[] best;
    private Outcome bestOutcome;
    private Throwable error;

    private final AtomicLong schedules = new AtomicLong();
    private final AtomicLong truncated = new AtomicLong();
    private final AtomicLong digest = new AtomicLong();
    private volatile boolean capped;

    DepthFirst(Function<int[], Outcome> run, long maxSchedules, int threads) {
        this.run = run;
        this.maxSchedules = maxSchedules;
        this.threads = threads;
    }

    /** Runs on the calling (driver) thread plus {@code threads - 1} more. */
    Result explore() {
        queue.add(new Subtree(new int[0], new int[0]));
        Thread[] helpers = new Thread[threads - 1];
        for (int i = 0; i < helpers.length; i++) {
            helpers[i] = Thread.ofVirtual().name("explorer-" + (i + 1)).start(this::work);
        }
        work();
        for (Thread t : helpers) {
            Explorer.joinUninterruptibly(t);
        }
        if (error instanceof RuntimeException e) {
            throw e;
        }
        if (error instanceof Error e) {
            throw e;
        }
        long n = bestOutcome != null ? schedules.get() : Math.min(schedules.get(), maxSchedules);
        return new Result(n, truncated.get(), digest.get(), bestOutcome == null && !capped, bestOutcome);
    }

    private void work() {
        try {
            Subtree subtree;
            while ((subtree = take()) != null) {
                try {
                    explore(subtree);
                } finally {
                    done();
                }
            }
        } catch (Throwable t) {
            lock.lock();
            try {
                if (error == null) {
                    error = t;
                }
                stop = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private Subtree take() {
        lock.lock();
        try {
            while (queue.isEmpty() && active > 0 && !stop) {
                idle++;
                hungry = true;
                changed.awaitUninterruptibly();
                idle--;
            }
            hungry = idle > 0 && queue.isEmpty();
            if (stop || queue.isEmpty()) {
                changed.signalAll();
                return null;
            }
            active++;
            return queue.poll();
        } finally {
            lock.unlock();
        }
    }

    private void done() {
        lock.lock();
        try {
            active--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void explore(Subtree subtree) {
        int base = subtree.prefix.length;
        int[] prefix = subtree.prefix;
        int[] prefixOptions = subtree.options;
        int[] limit = new int[Math.max(16, base + 1)];
        Arrays.fill(limit, Integer.MAX_VALUE);
        while (!stop && !after(prefix, best)) {
            if (schedules.incrementAndGet() > maxSchedules) {
                capped = true;
                stop = true;
                return;
            }
            Outcome o = run.apply(prefix);
            assertSamePrefix(prefix, prefixOptions, o);
            digest.addAndGet(mix(o.digest()));
            if (o.truncated()) {
                truncated.incrementAndGet();
            }
            if (o.violated()) {
                offer(o);
                return; // everything after it in this subtree comes later in depth-first order
            }
            if (limit.length < o.length) {
                int old = limit.length;
                limit = Arrays.copyOf(limit, Math.max(o.length, old * 2));
                Arrays.fill(limit, old, limit.length, Integer.MAX_VALUE);
            }
            int at = o.length - 1;
            while (at >= base && o.values[at] + 1 >= Math.min(limit[at], o.options[at])) {
                at--;
            }
            if (at < base) {
                return;
            }
            Arrays.fill(limit, at + 1, limit.length, Integer.MAX_VALUE);
            prefix = Arrays.copyOf(o.values, at + 1);
            prefix[at]++;
            prefixOptions = Arrays.copyOf(o.options, at + 1);
            if (hungry) {
                share(prefix, o.options, base, at, limit);
            }
        }
    }

    /** Gives away the untried options at the shallowest choice of the path that has some, and stops short of them. */
    private void share(int[] prefix, int[] options, int base, int at, int[] limit) {
        for (int j = base; j <= at; j++) {
            int end = Math.min(limit[j], options[j]);
            if (prefix[j] + 1 < end) {
                lock.lock();
                try {
                    for (int v = prefix[j] + 1; v < end; v++) {
                        int[] p = Arrays.copyOf(prefix, j + 1);
                        p[j] = v;
                        queue.add(new Subtree(p, Arrays.copyOf(options, j + 1)));
                    }
                    hungry = false;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                limit[j] = prefix[j] + 1;
                return;
            }
        }
    }

    private void offer(Outcome o) {
        lock.lock();
        try {
            if (best == null || Arrays.compare(o.values, best) < 0) {
                best = o.values;
                bestOutcome = o;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether every sequence starting with {@code prefix} comes after {@code best} in depth-first order. */
    private static boolean after(int[] prefix, int[] best) {
        if (best == null) {
            return false;
        }
        int n = Math.min(prefix.length, best.length);
        return Arrays.compare(prefix, 0, n, best, 0, n) > 0;
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
                    + "order of identity hashes, the wall clock, a random number, another thread?)");
        }
    }

    /** Order-independent digest contribution (the sum over all schedules is the same whatever ran where). */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
