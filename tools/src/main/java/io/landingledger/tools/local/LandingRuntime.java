package io.landingledger.tools.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.jr.ob.JSON;

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

import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Landing Ledger's functions on the local cloud: the variables that point their clients at the stack's gateway with
 * their role's session, their handlers from {@link FunctionHandlers}, and after the deploy the shipped example
 * contracts registered as an operator registers one ({@code landing dataset add}), before any file arrives.
 */
public final class LandingRuntime implements FunctionRuntime {
    @Override
    public Map<String, String> variables(FunctionSpec function, StackConnection session) {
        return Map.of(FunctionConfig.LANDING_AWS_ENDPOINT, session.endpoint().toString(),
                FunctionConfig.LANDING_AWS_ACCESS_KEY_ID, session.credentials().accessKeyId(),
                FunctionConfig.LANDING_AWS_SECRET_ACCESS_KEY, session.credentials().secretAccessKey());
    }

    @Override
    public RequestStreamHandler handler(FunctionSpec function, Map<String, String> environment, PrintStream stdout) {
        return FunctionHandlers.create(function.handlerClass(), environment, stdout).map(LandingRuntime::stream).orElse(null);
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

    /** A handler read as Lambda's Java runtime reads one: an event type through its serializers, anything else as JSON. */
    private static <I> RequestStreamHandler stream(FunctionHandlers.FunctionHandler<I> typed) {
        return (InputStream input, OutputStream output, Context context) -> {
            byte[] payload = input.readAllBytes();
            Object result = typed.handler().handleRequest(read(typed.input(), payload), context);
            output.write(result == null ? "null".getBytes(StandardCharsets.UTF_8) : JSON.std.asBytes(result));
        };
    }

    @SuppressWarnings("unchecked")
    private static <I> I read(Class<I> type, byte[] payload) throws IOException {
        if (LambdaEventSerializers.isLambdaSupportedEvent(type.getName())) {
            PojoSerializer<I> serializer = LambdaEventSerializers.serializerFor(type, type.getClassLoader());
            return serializer.fromJson(new String(payload, StandardCharsets.UTF_8));
        }
        String text = new String(payload, StandardCharsets.UTF_8);
        return (I) (text.isBlank() ? new LinkedHashMap<>() : JSON.std.mapFrom(text));
    }

}
