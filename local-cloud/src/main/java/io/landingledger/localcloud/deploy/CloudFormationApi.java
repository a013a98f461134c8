package io.landingledger.localcloud.deploy;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * CloudFormation's read API for the locally deployed stack (DescribeStackResources, DescribeStacks), so that
 * {@code landing ... --stack NAME} finds its buckets, tables and functions here exactly as it does on AWS.
 */
final class CloudFormationApi implements AwsGateway.LocalService {
    private static final String NAMESPACE = "http://cloudformation.amazonaws.com/doc/2010-05-15/";
    private final StackParts stack;

    CloudFormationApi(StackParts stack) {
        this.stack = stack;
    }

    @Override
    public AwsGateway.Answer handle(Principal principal, HttpHead head, byte[] body) {
        Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
        String action = form.getOrDefault("Action", "");
        String name = form.get("StackName");
        if (name != null && !name.equals(stack.stackName) && !name.equals(stack.stackId)) {
            return AwsGateway.error("cloudformation", 400, "ValidationError", "Stack with id " + name + " does not exist");
        }
        StringBuilder xml = new StringBuilder();
        switch (action) {
            case "DescribeStackResources" -> {
                xml.append("<DescribeStackResourcesResponse xmlns=\"").append(NAMESPACE).append("\"><DescribeStackResourcesResult><StackResources>");
                for (DeployedResource resource : stack.resources()) {
                    xml.append("<member><StackId>").append(AwsGateway.xmlEscape(stack.stackId)).append("</StackId><StackName>")
                            .append(stack.stackName).append("</StackName><LogicalResourceId>").append(resource.logicalId())
                            .append("</LogicalResourceId><PhysicalResourceId>").append(AwsGateway.xmlEscape(resource.physicalId()))
                            .append("</PhysicalResourceId><ResourceType>").append(resource.type()).append("</ResourceType><Timestamp>")
                            .append(stack.createdAt).append("</Timestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>");
                }
                xml.append("</StackResources></DescribeStackResourcesResult><ResponseMetadata><RequestId>local</RequestId>"
                        + "</ResponseMetadata></DescribeStackResourcesResponse>");
            }
            case "DescribeStacks" -> {
                xml.append("<DescribeStacksResponse xmlns=\"").append(NAMESPACE).append("\"><DescribeStacksResult><Stacks><member><StackId>")
                        .append(AwsGateway.xmlEscape(stack.stackId)).append("</StackId><StackName>").append(stack.stackName)
                        .append("</StackName><CreationTime>").append(stack.createdAt)
                        .append("</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Outputs>");
                stack.outputs().forEach((key, value) -> xml.append("<member><OutputKey>").append(key).append("</OutputKey><OutputValue>")
                        .append(AwsGateway.xmlEscape(value)).append("</OutputValue></member>"));
                xml.append("</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>local</RequestId>"
                        + "</ResponseMetadata></DescribeStacksResponse>");
            }
            default -> {
                return AwsGateway.error("cloudformation", 400, "UnsupportedOperation", "the local stack's CloudFormation answers "
                        + "DescribeStackResources and DescribeStacks, not " + action);
            }
        }
        return new AwsGateway.Answer(200, Map.of("Content-Type", "text/xml"), xml.toString().getBytes(StandardCharsets.UTF_8));
    }

    static Map<String, String> form(String body) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return fields;
    }
}
