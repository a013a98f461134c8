package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * {@code landing repair} over many datasets: which units of each dataset to repair, and the fan-out that runs one
 * dataset's repair job per task, at most {@code parallelism} at once. A dataset is one task, so its pages run in order
 * and no two repairs of one dataset ever run at once from one command (on a deployed stack: one repair invocation at a
 * time per dataset, as the single-dataset repair invokes it, several datasets side by side).
 */
final class FleetRepair {
    /** The default number of datasets repaired at once: the repair function's invocations (or this machine's threads). */
    static final int DEFAULT_PARALLELISM = 4;
    /** The most datasets repaired at once: each is a 900 s function invocation on a deployed stack. */
    static final int MAX_PARALLELISM = 64;

    private FleetRepair() {
    }

    /**
     * The units of a sweep's status table ({@code _status/<dataset>/status.jsonl}, one JSON line per expected unit of
     * the last sweep's range) whose status is one of {@code statuses}, in the table's (unit) order.
     */
    static List<String> unitsWithStatus(byte[] statusJsonl, Set<String> statuses) {
        List<String> units = new ArrayList<>();
        for (String line : new String(statusJsonl, StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> row;
            try {
                row = JSON.std.mapFrom(line);
            } catch (IOException e) {
                throw new UncheckedIOException("a line of the status table is not JSON", e);
            }
            if (statuses.contains(String.valueOf(row.get("status"))) && row.get("unit") instanceof String unit) {
                units.add(unit);
            }
        }
        return units;
    }

    /**
     * Runs {@code job} once per dataset, at most {@code parallelism} at once, and returns each dataset's answer in the
     * order given. A job that throws answers its exception, not the others': every dataset is tried.
     *
     * @throws IllegalArgumentException a dataset named twice (two repairs of one dataset must never run at once)
     */
    static <T> Map<String, Outcome<T>> fanOut(List<String> datasets, int parallelism, Function<String, T> job) {
        if (Set.copyOf(datasets).size() != datasets.size()) {
            throw new IllegalArgumentException("a dataset is named twice: " + datasets);
        }
        if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
            throw new IllegalArgumentException("--parallel must be from 1 to " + MAX_PARALLELISM + ", not " + parallelism);
        }
        Set<String> running = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, Math.max(1, datasets.size())), r -> {
            Thread thread = new Thread(r, "landing-fleet-repair");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Map<String, Future<T>> futures = new LinkedHashMap<>();
            for (String dataset : datasets) {
                futures.put(dataset, pool.submit(() -> {
                    if (!running.add(dataset)) {
                        throw new IllegalStateException("a second repair of " + dataset + " while one runs");
                    }
                    try {
                        return job.apply(dataset);
                    } finally {
                        running.remove(dataset);
                    }
                }));
            }
            Map<String, Outcome<T>> outcomes = new LinkedHashMap<>();
            for (Map.Entry<String, Future<T>> future : futures.entrySet()) {
                try {
                    outcomes.put(future.getKey(), new Outcome<>(future.getValue().get(), null));
                } catch (ExecutionException e) {
                    outcomes.put(future.getKey(), new Outcome<>(null, e.getCause() instanceof Exception cause ? cause : e));
                }
            }
            return outcomes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while repairing", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One dataset's answer, or the exception its job threw. */
    record Outcome<T>(T value, Exception failure) {
        boolean failed() {
            return failure != null;
        }
    }
}
