package io.landingledger.localcloud.deploy;

import java.util.Map;
import java.util.Objects;

/**
 * One AWS::Lambda::Function as the template declares it, resolved: what the local runtime needs to run it as Lambda
 * would. {@code environment} is exactly the template's variables; the runtime adds its own (region, function name, the
 * role's credentials, the gateway) when it starts the function, as Lambda adds its reserved variables.
 *
 * @param logicalId   the template's logical id
 * @param name        FunctionName
 * @param arn         the function's unqualified ARN
 * @param handler     {@code package.Class::method}
 * @param environment Environment.Variables, resolved
 * @param timeoutSeconds Timeout
 * @param memoryMb    MemorySize (reported to the function; one JVM cannot bound one function's heap)
 * @param roleArn     Role: the credentials the function's SDK clients sign with belong to it
 * @param logGroup    LoggingConfig.LogGroup, or /aws/lambda/NAME
 * @param snapStart   SnapStart.ApplyOn is PublishedVersions: a version is published by running the function's init
 */
public record FunctionSpec(String logicalId, String name, String arn, String handler, Map<String, String> environment,
                           int timeoutSeconds, int memoryMb, String roleArn, String logGroup, boolean snapStart) {
    public FunctionSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        environment = Map.copyOf(environment);
    }

    public String handlerClass() {
        int separator = handler.indexOf("::");
        return separator < 0 ? handler : handler.substring(0, separator);
    }

    String handlerMethod() {
        int separator = handler.indexOf("::");
        return separator < 0 ? "handleRequest" : handler.substring(separator + 2);
    }
}
