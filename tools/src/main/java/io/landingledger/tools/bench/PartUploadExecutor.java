package io.landingledger.tools.bench;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The staging upload's part threads, as {@code DependencyFactory} sizes them, counting what the benchmark reports:
 * how many parts were uploading at once at most, and when each finished (to show how many were done before the
 * last row was parsed).
 */
final class PartUploadExecutor extends ThreadPoolExecutor {
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger maxActive = new AtomicInteger();
    private final ConcurrentLinkedQueue<Long> finishedAt = new ConcurrentLinkedQueue<>();

    PartUploadExecutor(int threads) {
        super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "landing-part-upload");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Forgets the previous pass. */
    void reset() {
        maxActive.set(active.get());
        finishedAt.clear();
    }

    @Override
    protected void beforeExecute(Thread thread, Runnable task) {
        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
        active.decrementAndGet();
        finishedAt.add(System.nanoTime());
    }

    int maxActive() {
        return maxActive.get();
    }

    int completed() {
        return finishedAt.size();
    }

    /** Tasks that finished before {@code nanoTime} (all of them when it is 0: the moment never came). */
    int completedBefore(long nanoTime) {
        return nanoTime == 0 ? completed() : (int) finishedAt.stream().filter(t -> t < nanoTime).count();
    }
}
