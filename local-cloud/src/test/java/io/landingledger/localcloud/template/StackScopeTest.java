package io.landingledger.localcloud.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one template model on a small template: parameters, conditions, every intrinsic, and declared names. */
class StackScopeTest {
    private static final String TEMPLATE = """
            {
              "Parameters": {
                "Stage": {"Type": "String", "Default": "dev", "AllowedPattern": "^[a-z]+$"},
                "Days": {"Type": "Number", "Default": 60, "MinValue": 37},
                "Email": {"Type": "String", "Default": ""},
                "Mode": {"Type": "String", "Default": "on", "AllowedValues": ["on", "off"]}
              },
              "Conditions": {
                "HasEmail": {"Fn::Not": [{"Fn::Equals": [{"Ref": "Email"}, ""]}]},
                "Prod": {"Fn::Equals": [{"Ref": "Stage"}, "prod"]},
                "ProdWithEmail": {"Fn::And": [{"Condition": "HasEmail"}, {"Condition": "Prod"}]}
              },
              "Mappings": {"Sizes": {"dev": {"Memory": 512}}},
              "Resources": {
                "Lake": {"Type": "AWS::S3::Bucket",
                         "Properties": {"BucketName": {"Fn::Sub": "ll-${Stage}-lake-${AWS::AccountId}-${AWS::Region}"}}},
                "Ledger": {"Type": "AWS::DynamoDB::Table", "Properties": {"TableName": {"Fn::Join": ["-", ["ll", {"Ref": "Stage"}, "ledger"]]}}},
                "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "ll-failures"}},
                "Role": {"Type": "AWS::IAM::Role", "Properties": {}},
                "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "ll-fn"}},
                "Live": {"Type": "AWS::Lambda::Alias", "Properties": {"FunctionName": {"Ref": "Fn"}, "Name": "live"}},
                "Topic": {"Type": "AWS::SNS::Topic", "Condition": "HasEmail", "Properties": {}},
                "Unnamed": {"Type": "AWS::Events::Rule", "Properties": {}}
              }
            }
            """;

    private static StackScope stack(Map<String, String> overrides) throws IOException {
        return StackScope.declared(Template.of(JSON.std.mapFrom(TEMPLATE)), "us-east-1", "123456789012", "s", overrides);
    }

    @Test
    void parameters_takeOverridesElseDefaults_andAreCheckedAgainstTheirConstraints() throws IOException {
        assertEquals(Map.of("Stage", "prod", "Days", "60", "Email", "", "Mode", "on"), stack(Map.of("Stage", "prod")).parameters());
        assertEquals("parameter Stage is 'Prod', which does not match ^[a-z]+$",
                assertThrows(TemplateException.class, () -> stack(Map.of("Stage", "Prod"))).getMessage());
        assertEquals("parameter Days is 36, outside MinValue/MaxValue",
                assertThrows(TemplateException.class, () -> stack(Map.of("Days", "36"))).getMessage());
        assertEquals("parameter Mode is 'maybe', not one of [on, off]",
                assertThrows(TemplateException.class, () -> stack(Map.of("Mode", "maybe"))).getMessage());
        assertEquals("parameter Nope is not declared by the template",
                assertThrows(TemplateException.class, () -> stack(Map.of("Nope", "x"))).getMessage());
    }

    @Test
    void conditions_areEvaluatedOnTheParameters_andDecideWhetherAResourceIsIncluded() throws IOException {
        StackScope dev = stack(Map.of());
        assertFalse(dev.condition("HasEmail"));
        assertFalse(dev.included("Topic"));
        assertTrue(dev.included("Lake"));
        StackScope prod = stack(Map.of("Stage", "prod", "Email", "a@b.c"));
        assertTrue(prod.condition("ProdWithEmail"));
        assertTrue(prod.included("Topic"));
    }

    @Test
    void intrinsics_resolveAsCloudFormationDoes() throws IOException {
        StackScope stack = stack(Map.of());
        assertEquals("ll-dev-lake-123456789012-us-east-1", stack.string(Map.of("Ref", "Lake"), "t"));
        assertEquals("arn:aws:s3:::ll-dev-lake-123456789012-us-east-1/x/*",
                stack.string(Map.of("Fn::Sub", "${Lake.Arn}/x/*"), "t"));
        assertEquals("ll-dev-ledger:${Literal}:v",
                stack.string(Map.of("Fn::Sub", List.of("${Ledger}:${!Literal}:${V}", Map.of("V", "v"))), "t"));
        assertEquals("b", stack.resolve(Map.of("Fn::Select", List.of("1", Map.of("Fn::Split", List.of(",", "a,b,c")))), "t"));
        assertEquals("no", stack.resolve(Map.of("Fn::If", List.of("HasEmail", "yes", "no")), "t"));
        assertEquals("ZGV2", stack.resolve(Map.of("Fn::Base64", Map.of("Ref", "Stage")), "t"));
        assertEquals(512, stack.resolve(Map.of("Fn::FindInMap", List.of("Sizes", Map.of("Ref", "Stage"), "Memory")), "t"));
        assertEquals(Map.of("Kept", "k"), stack.resolve(Map.of("Kept", "k", "Dropped", Map.of("Ref", "AWS::NoValue")), "t"));
        assertEquals("s", stack.resolve(Map.of("Ref", "AWS::StackName"), "t"));
        assertEquals("where (Fn::Cidr): Fn::Cidr is not implemented by the template model",
                assertThrows(TemplateException.class, () -> stack.resolve(Map.of("Fn::Cidr", List.of()), "where")).getMessage());
        assertEquals("where (Ref): Ref Nothing names no parameter or created resource",
                assertThrows(TemplateException.class, () -> stack.resolve(Map.of("Ref", "Nothing"), "where")).getMessage());
    }

    @Test
    void declaredNames_nameResourcesByTheirNameProperty_andRefuseToGuess() throws IOException {
        StackScope stack = stack(Map.of());
        assertEquals("arn:aws:dynamodb:us-east-1:123456789012:table/ll-dev-ledger/stream/" + DeclaredNames.STREAM_LABEL,
                stack.resolve(Map.of("Fn::GetAtt", List.of("Ledger", "StreamArn")), "t"));
        assertEquals("https://sqs.us-east-1.amazonaws.com/123456789012/ll-failures", stack.resolve(Map.of("Ref", "Queue"), "t"));
        assertEquals("arn:aws:sqs:us-east-1:123456789012:ll-failures", stack.resolve(Map.of("Fn::GetAtt", "Queue.Arn"), "t"));
        assertEquals("arn:aws:iam::123456789012:role/Role", stack.resolve(Map.of("Fn::GetAtt", List.of("Role", "Arn")), "t"));
        assertEquals("arn:aws:lambda:us-east-1:123456789012:function:ll-fn:live", stack.resolve(Map.of("Ref", "Live"), "t"));
        assertEquals("Unnamed (AWS::Events::Rule) declares no name DeclaredNames knows",
                assertThrows(TemplateException.class, () -> stack.resolve(Map.of("Ref", "Unnamed"), "t")).getMessage());
        assertThrows(TemplateException.class, () -> stack.resolve(Map.of("Fn::GetAtt", List.of("Lake", "WebsiteURL")), "t"));
    }
}
