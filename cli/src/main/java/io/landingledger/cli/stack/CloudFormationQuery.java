package io.landingledger.cli.stack;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackResource;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CloudFormation's {@code DescribeStackResources} (the resources {@code --stack} needs) and {@code DescribeStacks} (the
 * outputs that name the stack's tables) through the SDK's CloudFormation client, with the credentials given (by default the SDK's default chain) and the URL-connection
 * HTTP client the rest of the command line uses.
 */
public final class CloudFormationQuery implements AutoCloseable {
    private final URI endpoint;
    private final CloudFormationClient client;

    /** Against {@code endpoint} (a test's stub, or null for the region's own endpoint). */
    public CloudFormationQuery(URI endpoint, Region region, AwsCredentialsProvider credentials) {
        this.endpoint = endpoint;
        var builder = CloudFormationClient.builder().region(region).credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofSeconds(30)));
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        this.client = builder.build();
    }

    /** The region's CloudFormation endpoint and the default credentials chain. */
    public static CloudFormationQuery create(Region region) {
        return new CloudFormationQuery(null, region, DefaultCredentialsProvider.builder().build());
    }

    /** The stack's resources: logical id to physical id (DescribeStackResources, which returns up to 100; the template has fewer). */
    public Map<String, String> describeStackResources(String stackName) {
        try {
            Map<String, String> resources = new LinkedHashMap<>();
            for (StackResource resource : client.describeStackResources(r -> r.stackName(stackName)).stackResources()) {
                if (resource.logicalResourceId() != null && resource.physicalResourceId() != null) {
                    resources.put(resource.logicalResourceId(), resource.physicalResourceId());
                }
            }
            return resources;
        } catch (CloudFormationException e) {
            String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
            String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            throw new StackResolutionException("CloudFormation refused DescribeStackResources for stack '" + stackName + "' (HTTP "
                    + e.statusCode() + " " + code + ": " + message + ")");
        } catch (SdkClientException e) {
            throw new StackResolutionException("cannot reach CloudFormation" + (endpoint == null ? "" : " at " + endpoint) + ": "
                    + e.getMessage());
        }
    }

    /** The stack's outputs: key to value (DescribeStacks). */
    public Map<String, String> describeStackOutputs(String stackName) {
        try {
            Map<String, String> outputs = new LinkedHashMap<>();
            for (Stack stack : client.describeStacks(r -> r.stackName(stackName)).stacks()) {
                for (Output output : stack.outputs()) {
                    if (output.outputKey() != null && output.outputValue() != null) {
                        outputs.put(output.outputKey(), output.outputValue());
                    }
                }
            }
            return outputs;
        } catch (CloudFormationException e) {
            String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
            String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            throw new StackResolutionException("CloudFormation refused DescribeStacks for stack '" + stackName + "' (HTTP "
                    + e.statusCode() + " " + code + ": " + message + ")");
        } catch (SdkClientException e) {
            throw new StackResolutionException("cannot reach CloudFormation" + (endpoint == null ? "" : " at " + endpoint) + ": "
                    + e.getMessage());
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
