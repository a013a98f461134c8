package io.landingledger.localcloud.template;

/**
 * The physical side of a stack's resources, the one thing that differs between a deploy and a test: the deployer
 * answers with what it created, {@link DeclaredNames} with the names the template declares (for a test that checks
 * the template without deploying it). Both are asked through the same {@link StackScope}, so a resolved value means
 * the same in both.
 */
public interface Resources {
    /** {@code Ref logicalId} of a resource; null when the stack has no such resource (yet). */
    Object ref(String logicalId, StackScope stack);

    /** {@code Fn::GetAtt [logicalId, attribute]}; null when unknown. */
    Object attribute(String logicalId, String attribute, StackScope stack);
}
