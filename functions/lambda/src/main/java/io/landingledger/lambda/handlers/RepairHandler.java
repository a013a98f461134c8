package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;

import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.LambdaDeadline;

import java.io.PrintStream;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Operator repair: {@code AWS_MAX_ATTEMPTS=1 aws lambda invoke --cli-read-timeout 910
 * --function-name <RepairFunction> --payload file://events/repair-dry-run.json out.json} (a read timeout above the
 * function's 900 s and no CLI retries, so one repair never runs twice at once).
 * Reads the payload as a {@link RepairRequest} (JsonCodec), runs {@link RepairService}, answers the
 * {@link RepairResult} (its per-unit table included). A payload error fails the invocation with a message that names
 * the field.
 */
public final class RepairHandler extends TypedHandler<RepairRequest, RepairResult> {
    private final RepairService repair;
    private final Supplier<String> runIds;

    public RepairHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    RepairHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout).repairService(), () -> UUID.randomUUID().toString());
    }

    public RepairHandler(RepairService repair, Supplier<String> runIds) {
        super(RepairRequest.class);
        this.repair = repair;
        this.runIds = runIds;
    }

    @Override
    public RepairResult handle(RepairRequest payload, Context context) {
        RepairResult result = repair.run(RepairRequest.orRefuse(payload), LambdaDeadline.of(context), runIds);
        if (context != null) {
            context.getLogger().log(result.table());
        }
        return result;
    }
}
