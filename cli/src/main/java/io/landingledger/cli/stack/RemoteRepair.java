package io.landingledger.cli.stack;

import software.amazon.awssdk.services.lambda.LambdaClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A repair on a deployed stack: the repair function (RepairHandler, payloads as in events/repair-*.json) invoked
 * synchronously at its live alias with no retries and a read timeout above the function's, then again with each
 * answer's {@code continuation} until an answer has none. One invocation per page.
 */
public final class RemoteRepair implements AutoCloseable {
    /** The RepairFunction's Timeout in infra/template.yaml (Globals.Function.Timeout); RemoteFunctionsTest holds them together. */
    public static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(900);
    /** More pages than a repair of any real range needs; a continuation loop past it is a bug, not a long repair. */
    static final int MAX_PAGES = 1000;

    private final RemoteFunction function;

    public RemoteRepair(LambdaClient lambda, String functionName) {
        this.function = new RemoteFunction(lambda, functionName, StackResources.LIVE_ALIAS, false);
    }

    private RemoteRepair(RemoteFunction function) {
        this.function = function;
    }

    /** The stack's repair function, with the default credentials chain (closing this closes its client). */
    public static RemoteRepair forStack(StackResources stack) {
        return new RemoteRepair(new RemoteFunction(RemoteFunction.lambdaClient(stack.region(), FUNCTION_TIMEOUT),
                stack.repairFunction(), StackResources.LIVE_ALIAS, true));
    }

    /** Every page's answer, in order; the repair is done when the last has no continuation. */
    public record Result(List<Map<String, Object>> pages) {
        public Result {
            pages = List.copyOf(pages);
        }

        /** Every page's per-unit rows, in order. */
        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> units() {
            List<Map<String, Object>> units = new ArrayList<>();
            for (Map<String, Object> page : pages) {
                Object list = page.get("units");
                if (list instanceof List<?> rows) {
                    rows.forEach(row -> units.add((Map<String, Object>) row));
                }
            }
            return units;
        }

        /** Every page said {@code succeeded} (a page with a continuation says false for the units it did not reach). */
        public boolean succeeded() {
            return !pages.isEmpty() && Boolean.TRUE.equals(pages.get(pages.size() - 1).get("succeeded"))
                    && units().stream().allMatch(u -> !"failed".equals(u.get("action")));
        }

        /** Every page's table, one after the other. */
        public String table() {
            StringBuilder text = new StringBuilder();
            for (Map<String, Object> page : pages) {
                Object table = page.get("table");
                if (table != null) {
                    text.append(table);
                }
            }
            return text.toString();
        }
    }

    public Result run(Map<String, Object> payload) {
        return run(payload, page -> { });
    }

    /**
     * Invokes the repair with {@code payload}, then with each answer's continuation; {@code eachPage} sees every answer
     * as it arrives. A dry run stays a dry run: the function's continuation carries {@code dryRun}, but one deployed
     * before RepairResult.continuation did returned none, so a dry run's next page is marked here too.
     */
    public Result run(Map<String, Object> payload, Consumer<Map<String, Object>> eachPage) {
        List<Map<String, Object>> pages = new ArrayList<>();
        Map<String, Object> next = payload;
        boolean dryRun = Boolean.TRUE.equals(payload.get("dryRun"));
        while (next != null) {
            if (pages.size() >= MAX_PAGES) {
                throw new RemoteFunctionException(function.functionName(), "still returning a continuation after " + MAX_PAGES + " pages");
            }
            Map<String, Object> page = function.invoke(next);
            pages.add(page);
            eachPage.accept(page);
            next = continuation(page, dryRun);
        }
        return new Result(pages);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> continuation(Map<String, Object> page, boolean dryRun) {
        if (!(page.get("continuation") instanceof Map<?, ?> continuation) || continuation.isEmpty()) {
            return null;
        }
        Map<String, Object> next = new LinkedHashMap<>((Map<String, Object>) continuation);
        if (dryRun) {
            next.put("dryRun", true);
        }
        return next;
    }

    @Override
    public void close() {
        function.close();
    }
}
