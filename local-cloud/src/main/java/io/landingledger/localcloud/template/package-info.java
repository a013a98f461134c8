/**
 * The one model of the deployed template: {@code infra/template.yaml} as {@code sam deploy} transforms it
 * ({@link io.landingledger.localcloud.template.TransformedTemplate}, cached by SHA-256), parsed
 * ({@link io.landingledger.localcloud.template.Template}) and resolved for one stack
 * ({@link io.landingledger.localcloud.template.StackScope}: pseudo parameters, parameters with defaults and overrides,
 * conditions, and CloudFormation's intrinsics, {@link io.landingledger.localcloud.template.Intrinsics}).
 *
 * <p>The local deployer resolves against the resources it created; tests that read the template without deploying
 * it resolve against {@link io.landingledger.localcloud.template.DeclaredNames}, which names each resource by the
 * name it declares. Both go through the same resolver, so a test checks the values the deploy would use.
 */
package io.landingledger.localcloud.template;
