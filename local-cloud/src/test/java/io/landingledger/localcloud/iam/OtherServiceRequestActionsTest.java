package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Lambda, SQS, CloudFormation and EventBridge requests. */
class OtherServiceRequestActionsTest {
    private static final String FN = "arn:aws:lambda:us-east-1:123456789012:function:";

    private static String only(RequestMapping mapping) {
        assertTrue(mapping.mapped(), () -> "unmapped: " + mapping.unmappedReason());
        assertEquals(1, mapping.requests().size());
        return mapping.requests().get(0).action() + " " + mapping.requests().get(0).resource();
    }

    @ParameterizedTest(name = "{0} {1} Qualifier={2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "POST|/2015-03-31/functions/landing-ledger-dev-validator/invocations|-|lambda:InvokeFunction " + FN
                    + "landing-ledger-dev-validator",
            "POST|/2015-03-31/functions/landing-ledger-dev-validator/invocations|live|lambda:InvokeFunction " + FN
            + "landing-ledger-dev-validator:live",
            "POST|/2015-03-31/functions/v:live/invocations|-|lambda:InvokeFunction " + FN + "v:live",
            "POST|/2015-03-31/functions/v:live/invocations|live|lambda:InvokeFunction " + FN + "v:live",
            "POST|/2015-03-31/functions/arn%3Aaws%3Alambda%3Aus-east-1%3A123456789012%3Afunction%3Av%3Alive/"
                    + "invocations|-|lambda:InvokeFunction " + FN + "v:live",
            "POST|/2015-03-31/functions/123456789012%3Afunction%3Av/invocations|3|lambda:InvokeFunction " + FN + "v:3",
            "GET|/2015-03-31/functions/v|-|lambda:GetFunction " + FN + "v",
            "GET|/2015-03-31/functions/v/configuration|-|lambda:GetFunctionConfiguration " + FN + "v",
            "GET|/2015-03-31/functions/|-|lambda:ListFunctions *",
    })
    void lambda(String method, String path, String qualifier, String expected) {
        Map<String, List<String>> query = qualifier == null ? Map.of() : Map.of("Qualifier", List.of(qualifier));
        assertEquals(expected, only(new LambdaRequestActions("us-east-1", "123456789012").map(method, path, query)));
    }

    @Test
    void lambdaUnmapped() {
        LambdaRequestActions lambda = new LambdaRequestActions("us-east-1", "123456789012");
        assertFalse(lambda.map("POST", "/2015-03-31/functions/v:live/invocations",
                Map.of("Qualifier", List.of("3"))).mapped());
        assertFalse(lambda.map("PUT", "/2015-03-31/functions/v/configuration", Map.of()).mapped());
        assertFalse(lambda.map("POST", "/2014-11-13/functions/v/invoke-async/", Map.of()).mapped());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SendMessage|sqs:SendMessage arn:aws:sqs:us-east-1:123456789012:landing-ledger-dev-validator-failed",
            "SendMessageBatch|sqs:SendMessage arn:aws:sqs:us-east-1:123456789012:landing-ledger-dev-validator-failed",
            "ReceiveMessage|sqs:ReceiveMessage arn:aws:sqs:us-east-1:123456789012:landing-ledger-dev-validator-failed",
            "DeleteMessageBatch|sqs:DeleteMessage "
            + "arn:aws:sqs:us-east-1:123456789012:landing-ledger-dev-validator-failed",
            "GetQueueAttributes|sqs:GetQueueAttributes "
            + "arn:aws:sqs:us-east-1:123456789012:landing-ledger-dev-validator-failed",
    })
    void sqsInBothProtocols(String action, String expected) {
        SqsRequestActions sqs = new SqsRequestActions("us-east-1", "123456789012");
        String url = "http://127.0.0.1:4566/123456789012/landing-ledger-dev-validator-failed";
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Action", action);
        form.put("QueueUrl", url);
        form.put("MessageBody", "{}");
        assertEquals(expected, only(sqs.mapQuery(form)));
        String body = "{\"QueueUrl\": \"" + url + "\", \"MessageBody\": \"{}\"}";
        assertEquals(expected, only(sqs.mapJson("AmazonSQS." + action, body.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void sqsByNameAndUnmapped() {
        SqsRequestActions sqs = new SqsRequestActions("us-east-1", "123456789012");
        assertEquals("sqs:GetQueueUrl arn:aws:sqs:us-east-1:123456789012:q",
                only(sqs.mapQuery(Map.of("Action", "GetQueueUrl", "QueueName", "q"))));
        assertEquals("sqs:GetQueueUrl arn:aws:sqs:us-east-1:999999999999:q",
                only(sqs.mapQuery(Map.of("Action", "GetQueueUrl", "QueueName", "q", "QueueOwnerAWSAccountId",
                        "999999999999"))));
        assertEquals("sqs:CreateQueue arn:aws:sqs:us-east-1:123456789012:q", only(sqs.mapJson("AmazonSQS.CreateQueue",
                "{\"QueueName\": \"q\"}".getBytes(StandardCharsets.UTF_8))));
        assertEquals("sqs:ListQueues *", only(sqs.mapQuery(Map.of("Action", "ListQueues"))));
        assertFalse(sqs.mapQuery(Map.of("Action", "SendMessage", "QueueUrl", "https://example.com/q")).mapped());
        assertFalse(sqs.mapQuery(Map.of("Action", "StartMessageMoveTask", "SourceArn", "x")).mapped());
        assertFalse(sqs.mapQuery(Map.of("QueueUrl", "x")).mapped());
        assertFalse(sqs.mapJson("AmazonSQS.SendMessage", "[]".getBytes(StandardCharsets.UTF_8)).mapped());
    }

    @Test
    void cloudFormation() {
        CloudFormationRequestActions cfn = new CloudFormationRequestActions("us-east-1", "123456789012");
        assertEquals("cloudformation:DescribeStacks "
                + "arn:aws:cloudformation:us-east-1:123456789012:stack/landing-ledger/local",
                only(cfn.map(Map.of("Action", "DescribeStacks", "StackName", "landing-ledger"))));
        assertEquals("cloudformation:DescribeStackResources arn:aws:cloudformation:us-east-1:123456789012:stack/s/abc",
                only(cfn.map(Map.of("Action", "DescribeStackResources", "StackName",
                        "arn:aws:cloudformation:us-east-1:123456789012:stack/s/abc"))));
        assertEquals("cloudformation:DescribeStacks *", only(cfn.map(Map.of("Action", "DescribeStacks"))));
        assertFalse(cfn.map(Map.of("Action", "DescribeStackResources", "PhysicalResourceId", "x")).mapped());
        assertFalse(cfn.map(Map.of("Action", "DeleteStack", "StackName", "s")).mapped());
    }

    @Test
    void eventBridge() {
        EventBridgeRequestActions events = new EventBridgeRequestActions("us-east-1", "123456789012");
        String bus = "arn:aws:events:us-east-1:123456789012:event-bus/";
        RequestMapping mapping = events.map("AWSEvents.PutEvents", ("{\"Entries\": [{\"EventBusName\": \"landing-ledger-dev-ledger\"},"
                + " {}, {\"EventBusName\": \"" + bus + "other\"}]}").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("events:PutEvents " + bus + "landing-ledger-dev-ledger", "events:PutEvents " + bus + "default",
                "events:PutEvents " + bus + "other"), mapping.requests().stream().map(r -> r.action() + " " + r.resource()).toList());
        assertFalse(events.map("AWSEvents.PutRule", "{}".getBytes(StandardCharsets.UTF_8)).mapped());
        // a rule's ARN names its bus (rule/<bus>/<name>), the default bus's none (rule/<name>)
        String rule = "arn:aws:events:us-east-1:123456789012:rule/";
        assertEquals(List.of("events:PutRule " + rule + "landing-ledger-dev-ledger/producer-a"), events.map("AWSEvents.PutRule",
                "{\"Name\": \"producer-a\", \"EventBusName\": \"landing-ledger-dev-ledger\"}".getBytes(StandardCharsets.UTF_8))
                .requests().stream().map(r -> r.action() + " " + r.resource()).toList());
        assertEquals(List.of("events:PutTargets " + rule + "landing-ledger-dev-ledger/producer-a"), events.map("AWSEvents.PutTargets",
                ("{\"Rule\": \"producer-a\", \"EventBusName\": \"" + bus + "landing-ledger-dev-ledger\"}").getBytes(StandardCharsets.UTF_8))
                .requests().stream().map(r -> r.action() + " " + r.resource()).toList());
        assertEquals(List.of("events:PutRule " + rule + "mine"), events.map("AWSEvents.PutRule",
                "{\"Name\": \"mine\"}".getBytes(StandardCharsets.UTF_8)).requests().stream().map(r -> r.action() + " " + r.resource()).toList());
        assertFalse(events.map("AWSEvents.DeleteRule", "{\"Name\": \"mine\"}".getBytes(StandardCharsets.UTF_8)).mapped());
        assertFalse(events.map("AWSEvents.PutEvents", "not json".getBytes(StandardCharsets.UTF_8)).mapped());
        assertFalse(events.map("AWSEvents.PutEvents", "{}".getBytes(StandardCharsets.UTF_8)).mapped());
        assertFalse(events.map(null, null).mapped());
    }
}
