package io.landingledger.tools.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.lambda.handlers.FunctionHandlers;
import io.landingledger.localcloud.deploy.FunctionRuntime;
import io.landingledger.localcloud.deploy.FunctionSpec;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.localcloud.deploy.StackConnection;
import io.landingledger.tables.TableWriterHandler;

import software.amazon.awssdk.services.s3.S3Client;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;

/**
 * Landing Ledger's functions on the local cloud: the variables that point their clients at the stack's gateway with
 * their role's session, their handlers from {@link FunctionHandlers} (stream handlers: the local cloud calls them as
 * Lambda's runtime does, bytes in and out), and after the deploy the shipped example
 * contracts registered as an operator registers one ({@code landing dataset add}), before any file arrives.
 */
public final class LandingRuntime implements FunctionRuntime {
    @Override
    public Map<String, String> variables(FunctionSpec function, StackConnection session) {
        // the table catalog is the stack's Iceberg REST endpoint (LocalDeployment.icebergEndpoint), signed as s3tables
        return Map.of(FunctionConfig.LANDING_AWS_ENDPOINT, session.endpoint().toString(),
                FunctionConfig.LANDING_TABLE_CATALOG_URI, session.endpoint() + "/iceberg",
                FunctionConfig.LANDING_AWS_ACCESS_KEY_ID, session.credentials().accessKeyId(),
                FunctionConfig.LANDING_AWS_SECRET_ACCESS_KEY, session.credentials().secretAccessKey());
    }

    @Override
    public RequestStreamHandler handler(FunctionSpec function, Map<String, String> environment, PrintStream stdout) {
        if (TableWriterHandler.class.getName().equals(function.handlerClass())) {
            // its own artifact (functions/tables): the lean jar's registry of handlers does not know it
            return new TableWriterHandler(environment, stdout);
        }
        return FunctionHandlers.create(function.handlerClass(), environment, stdout).orElse(null);
    }

    /** Registers {@code datasets/*.json} (bundled) in the stack's contract store; one already in force writes nothing. */
    @Override
    public void afterDeploy(LocalDeployment stack) {
        try (S3Client operator = DependencyFactory.s3Client(aws(stack.operatorConnection()))) {
            ContractRegistrar registrar = new ContractRegistrar(new S3ContractStore(operator, stack.physicalId("LakeBucket")), Clock.systemUTC());
            ContractRegistry.bundledFiles(DependencyFactory.class)
                    .forEach((source, bytes) -> registrar.register(source, bytes, "landing local: the shipped example contracts"));
        }
    }

    /** The product's connection for a connection to the stack (one gateway endpoint for every API). */
    public static AwsConnection aws(StackConnection connection) {
        return AwsConnection.gateway(connection.region(), connection.endpoint(), connection.credentials());
    }
}
