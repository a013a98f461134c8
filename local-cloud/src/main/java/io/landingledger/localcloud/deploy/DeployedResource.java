package io.landingledger.localcloud.deploy;

import java.util.Map;

/**
 * One resource of the stack as created: what {@code Ref} and {@code Fn::GetAtt} return for it, and its properties as
 * resolved.
 *
 * @param modelled false for a type the local deploy records but cannot run (alarms, dashboards, Glue, Pipes...): it is
 *                 listed in the deploy's output as such, never silently skipped
 */
public record DeployedResource(String logicalId, String type, String physicalId, Map<String, String> attributes,
                               Map<String, Object> properties, boolean modelled) {
}
