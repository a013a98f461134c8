/**
 * The local stack's IAM: what AWS would allow, decided in front of emulators that enforce none of it
 * (emulators/IAM-MEASURED.md).
 *
 * <p>A gateway maps each HTTP request to the IAM actions it needs ({@link S3RequestActions},
 * {@link DynamoDbRequestActions}, {@link SqsRequestActions}, {@link LambdaRequestActions},
 * {@link CloudFormationRequestActions}, {@link EventBridgeRequestActions}), then asks {@link PolicyEvaluator}
 * whether the caller's role allows them,
 * with the policies of the deployed template ({@link TemplatePolicies}, read through the one template model,
 * {@code io.landingledger.localcloud.template}):
 *
 * <pre>{@code
 * TemplatePolicies template =
 *         TemplatePolicies.read(transformedJson, "us-east-1", "123456789012", "landing-ledger", Map.of());
 * PolicyEvaluator evaluator = new PolicyEvaluator();
 * Caller caller = Caller.roleSession(template.roleArn("ValidatorRole"), "landing-ledger-dev-validator");
 * RequestMapping mapping = S3RequestActions.map(S3Request.of(method, rawPath, query, headers, tls).withBody(body));
 * Decision decision = evaluator.authorize(caller, mapping, template.identityPolicies("ValidatorRole"),
 *         template::resourcePolicyOf);
 * if (!decision.allowed()) {
 *     respond(403, "AccessDenied", decision.message());   // AWS's wording, naming the deny's policy and Sid
 * }
 * }</pre>
 */
package io.landingledger.localcloud.iam;
