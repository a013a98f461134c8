package io.landingledger.localcloud.template;

import java.util.Map;

/**
 * The resources of a stack that was not deployed, named deterministically: each by the name property it declares
 * (BucketName, TableName, FunctionName, QueueName, LogGroupName, Name...), resolved for the stack, and ARNs built as
 * AWS builds them from that name. An IAM role or managed policy without a declared name, whose name CloudFormation
 * would generate, is named by its logical id. Any other resource without a declared name, or an attribute not
 * modelled here, is a {@link TemplateException}: a test never checks a policy against an ARN guessed wrongly.
 */
public final class DeclaredNames implements Resources {
    /** DynamoDB chooses a stream's label when it creates the stream; a fixed one stands in. */
    static final String STREAM_LABEL = "1970-01-01T00:00:00.000";

    @Override
    public Object ref(String logicalId, StackScope stack) {
        Template template = stack.template();
        Map<String, Object> properties = template.properties(logicalId);
        return switch (template.type(logicalId)) {
            case "AWS::Lambda::Alias" -> functionArn(stack.string(properties.get("FunctionName"), logicalId + ".FunctionName"), stack)
                    + ":" + stack.string(properties.get("Name"), logicalId + ".Name");
            case "AWS::SQS::Queue" -> "https://sqs." + stack.region() + ".amazonaws.com/" + stack.account() + "/" + name(logicalId, stack);
            case "AWS::SNS::Topic" -> arn(stack, "sns", name(logicalId, stack));
            case "AWS::IAM::ManagedPolicy" -> "arn:aws:iam::" + stack.account() + ":policy/" + name(logicalId, stack);
            // a table bucket's Ref is its ARN
            case "AWS::S3Tables::TableBucket" -> arn(stack, "s3tables", "bucket/" + name(logicalId, stack));
            default -> name(logicalId, stack);
        };
    }

    @Override
    public Object attribute(String logicalId, String attribute, StackScope stack) {
        String type = stack.template().type(logicalId);
        String name = name(logicalId, stack);
        String arn = switch (type) {
            case "AWS::S3::Bucket" -> "arn:aws:s3:::" + name;
            case "AWS::DynamoDB::Table" -> arn(stack, "dynamodb", "table/" + name);
            case "AWS::SQS::Queue" -> arn(stack, "sqs", name);
            case "AWS::Lambda::Function" -> functionArn(name, stack);
            case "AWS::IAM::Role" -> "arn:aws:iam::" + stack.account() + ":role/" + name;
            case "AWS::Logs::LogGroup" -> arn(stack, "logs", "log-group:" + name + ":*");
            case "AWS::Events::EventBus" -> arn(stack, "events", "event-bus/" + name);
            case "AWS::Events::Rule" -> arn(stack, "events", "rule/" + name);
            case "AWS::Scheduler::ScheduleGroup" -> arn(stack, "scheduler", "schedule-group/" + name);
            case "AWS::SNS::Topic" -> arn(stack, "sns", name);
            default -> null;
        };
        Object value = switch (attribute) {
            case "Arn" -> arn;
            case "StreamArn" -> type.equals("AWS::DynamoDB::Table") ? arn + "/stream/" + STREAM_LABEL : null;
            case "QueueName", "Name", "TopicName" -> name;
            case "QueueUrl" -> type.equals("AWS::SQS::Queue") ? ref(logicalId, stack) : null;
            case "TopicArn" -> type.equals("AWS::SNS::Topic") ? arn : null;
            case "TableBucketARN" -> type.equals("AWS::S3Tables::TableBucket") ? arn(stack, "s3tables", "bucket/" + name) : null;
            default -> null;
        };
        if (value == null) {
            throw new TemplateException("Fn::GetAtt " + logicalId + "." + attribute + ": not modelled for " + type
                    + " by DeclaredNames");
        }
        return value;
    }

    /** The name the resource declares, resolved; null when it declares none (CloudFormation would generate one). */
    public static String declaredName(String logicalId, StackScope stack) {
        Map<String, Object> properties = stack.template().properties(logicalId);
        Object declared = switch (stack.template().type(logicalId)) {
            case "AWS::S3::Bucket" -> properties.get("BucketName");
            case "AWS::DynamoDB::Table" -> properties.get("TableName");
            case "AWS::Lambda::Function" -> properties.get("FunctionName");
            case "AWS::SQS::Queue" -> properties.get("QueueName");
            case "AWS::Logs::LogGroup" -> properties.get("LogGroupName");
            case "AWS::IAM::Role" -> properties.get("RoleName");
            case "AWS::IAM::ManagedPolicy" -> properties.get("ManagedPolicyName");
            case "AWS::SNS::Topic" -> properties.get("TopicName");
            case "AWS::S3Tables::TableBucket" -> properties.get("TableBucketName");
            case "AWS::CloudWatch::Alarm" -> properties.get("AlarmName");
            case "AWS::CloudWatch::Dashboard" -> properties.get("DashboardName");
            case "AWS::Glue::Database" -> properties.get("DatabaseInput") instanceof Map<?, ?> input ? input.get("Name") : null;
            case "AWS::Glue::Table" -> properties.get("TableInput") instanceof Map<?, ?> input ? input.get("Name") : null;
            case "AWS::Events::EventBus", "AWS::Events::Rule", "AWS::Scheduler::ScheduleGroup", "AWS::Scheduler::Schedule",
                    "AWS::Athena::WorkGroup", "AWS::Pipes::Pipe" -> properties.get("Name");
            default -> null;
        };
        return declared == null ? null : stack.string(declared, logicalId + " name");
    }

    private static String name(String logicalId, StackScope stack) {
        String declared = declaredName(logicalId, stack);
        if (declared != null) {
            return declared;
        }
        String type = stack.template().type(logicalId);
        if (type.equals("AWS::IAM::Role") || type.equals("AWS::IAM::ManagedPolicy")) {
            return logicalId;
        }
        throw new TemplateException(logicalId + " (" + type + ") declares no name DeclaredNames knows");
    }

    private static String functionArn(String nameOrArn, StackScope stack) {
        return nameOrArn.startsWith("arn:") ? nameOrArn : arn(stack, "lambda", "function:" + nameOrArn);
    }

    private static String arn(StackScope stack, String service, String resource) {
        return "arn:aws:" + service + ":" + stack.region() + ":" + stack.account() + ":" + resource;
    }
}
