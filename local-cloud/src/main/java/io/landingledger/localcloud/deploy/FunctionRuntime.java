package io.landingledger.localcloud.deploy;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import java.io.PrintStream;
import java.util.Map;

/**
 * What the local cloud asks of the project whose stack it deploys: the variables its functions' code reads beyond the
 * template's and Lambda's own, each function's handler, and the project's own set-up once the stack stands. The local
 * cloud knows nothing else of the project: it never loads a handler class by name.
 */
public interface FunctionRuntime {
    /**
     * The variables a function's code needs to reach the stack: on AWS the role's session arrives as
     * {@code AWS_ACCESS_KEY_ID} and friends, but in one JVM the process's variables are every function's, so the
     * project names its own.
     */
    Map<String, String> variables(FunctionSpec function, StackConnection session);

    /**
     * The function's init, as Lambda's runtime does it for the handler the template names: the handler built with the
     * function's whole environment and its log stream as standard output. An exception fails the init (and, with
     * SnapStart, the version and so the deploy).
     */
    RequestStreamHandler handler(FunctionSpec function, Map<String, String> environment, PrintStream stdout) throws Exception;

    /** Runs once the stack is deployed and its checks passed, with the operator's connection (the project's set-up). */
    default void afterDeploy(LocalDeployment stack) throws Exception {
    }
}
