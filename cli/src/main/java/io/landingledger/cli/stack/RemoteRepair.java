package io.landingledger.cli.stack;

import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;

import software.amazon.awssdk.services.lambda.LambdaClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A repair on a deployed stack: the repair function (RepairHandler, payloads as in events/repair-*.json) invoked
 * synchronously at its live alias with no retries and a read timeout above the function's, then again with each
 * answer's {@code continuation} until an answer has none. One invocation per page; the request and each answer are
 * the core's {@link RepairRequest} and {@link RepairResult}, through the codec the function uses.
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
    public record Result(List<RepairResult> pages) {
        public Result {
            pages = List.copyOf(pages);
        }

        /** Every page's per-unit rows, in order. */
        public List<RepairResult.UnitResult> units() {
            return pages.stream().flatMap(page -> page.units().stream()).toList();
        }

        /** The last page succeeded (a page with a continuation does not) and every unit of every page did. */
        public boolean succeeded() {
            return !pages.isEmpty() && pages.get(pages.size() - 1).succeeded() && units().stream().allMatch(RepairResult.UnitResult::succeeded);
        }

        /** Every page's table, one after the other. */
        public String table() {
            StringBuilder text = new StringBuilder();
            pages.forEach(page -> text.append(page.table()));
            return text.toString();
        }
    }

    public Result run(RepairRequest request) {
        return run(request, page -> { });
    }

    /**
     * Invokes the repair with {@code request}, then with each answer's continuation (a dry run's is a dry run);
     * {@code eachPage} sees every answer as it arrives.
     */
    public Result run(RepairRequest request, Consumer<RepairResult> eachPage) {
        List<RepairResult> pages = new ArrayList<>();
        RepairRequest next = request;
        while (next != null) {
            if (pages.size() >= MAX_PAGES) {
                throw new RemoteFunctionException(function.functionName(), "still returning a continuation after " + MAX_PAGES + " pages");
            }
            RepairResult page = function.invoke(next, RepairResult.class);
            pages.add(page);
            eachPage.accept(page);
            next = page.continuation();
        }
        return new Result(pages);
    }

    @Override
    public void close() {
        function.close();
    }
}
