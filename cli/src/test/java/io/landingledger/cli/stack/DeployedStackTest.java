package io.landingledger.cli.stack;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --stack NAME}: the resources resolved from a stub CloudFormation answering a DescribeStackResources response. */
class DeployedStackTest {
    private static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"));

    static String recordedDescription() throws Exception {
        try (InputStream in = DeployedStackTest.class.getResourceAsStream("/stack/describe-stack-resources.xml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void resolve_readsEachResourceByTheTemplatesLogicalId_withOneSignedDescribeStackResources() throws Exception {
        try (StubAws cloudFormation = new StubAws().answer(200, Map.of("Content-Type", "text/xml"), recordedDescription());
             CloudFormationQuery query = new CloudFormationQuery(URI.create(cloudFormation.endpoint() + "/"), Region.EU_WEST_1, CREDENTIALS)) {
            StackResources stack = DeployedStack.resolve("landing-ledger-dev", "eu-west-1", query);

            assertEquals(new StackResources("eu-west-1", "landing-ledger-dev-inbox-123456789012", "landing-ledger-dev-lake-123456789012",
                    "landing-ledger-dev-Ledger", "landing-ledger-dev-LedgerHistory", "landing-ledger-dev-repair", "landing-ledger-dev-sweep"), stack);
            assertEquals(1, cloudFormation.requests.size());
            StubAws.Request request = cloudFormation.requests.get(0);
            assertEquals("POST", request.method());
            assertEquals("Action=DescribeStackResources&Version=2010-05-15&StackName=landing-ledger-dev", request.body());
            String authorization = request.header("Authorization");
            assertTrue(authorization.startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"), authorization);
            assertTrue(authorization.contains("/eu-west-1/cloudformation/aws4_request"), authorization);
        }
    }

    @Test
    void resolve_ofAStackThatDoesNotExist_saysWhatCloudFormationSaid() throws Exception {
        String error = """
                <ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
                  <Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id nope does not exist</Message></Error>
                  <RequestId>4af14eec-350e-11e4-b260-EXAMPLE</RequestId>
                </ErrorResponse>""";
        try (StubAws cloudFormation = new StubAws().answer(400, Map.of("Content-Type", "text/xml"), error);
             CloudFormationQuery query = new CloudFormationQuery(URI.create(cloudFormation.endpoint() + "/"), Region.EU_WEST_1, CREDENTIALS)) {
            StackResolutionException e = assertThrows(StackResolutionException.class, () -> DeployedStack.resolve("nope", "eu-west-1", query));
            assertEquals("CloudFormation refused DescribeStackResources for stack 'nope' (HTTP 400 ValidationError: Stack with id nope does not exist)",
                    e.getMessage());
        }
    }

    @Test
    void resolve_ofAnotherKindOfStack_namesTheMissingLogicalIds() throws Exception {
        String other = recordedDescription().replace("<LogicalResourceId>RepairFunction</LogicalResourceId>", "<LogicalResourceId>Other</LogicalResourceId>");
        try (StubAws cloudFormation = new StubAws().answer(200, Map.of(), other);
             CloudFormationQuery query = new CloudFormationQuery(URI.create(cloudFormation.endpoint() + "/"), Region.EU_WEST_1, CREDENTIALS)) {
            StackResolutionException e = assertThrows(StackResolutionException.class, () -> DeployedStack.resolve("x", "eu-west-1", query));
            assertTrue(e.getMessage().contains("has no RepairFunction"), e.getMessage());
        }
    }
}
