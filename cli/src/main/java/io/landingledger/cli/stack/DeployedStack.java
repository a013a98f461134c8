package io.landingledger.cli.stack;

import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code --stack NAME [--region R]}: a deployed stack's resources, resolved from CloudFormation by the template's
 * logical ids (infra/template.yaml), with the SDK's default credentials chain.
 */
public final class DeployedStack {
    public static final String INBOX_BUCKET = "InboxBucket";
    public static final String LAKE_BUCKET = "LakeBucket";
    public static final String LEDGER_TABLE = "LedgerTable";
    public static final String HISTORY_TABLE = "LedgerHistoryTable";
    public static final String REPAIR_FUNCTION = "RepairFunction";
    public static final String SWEEP_FUNCTION = "CompletenessSweepFunction";
    /** Consumer receipts; optional, so that a stack deployed before it still resolves. */
    public static final String CONSUMERS_TABLE = "ConsumersTable";
    /** The Glue database of the reader tables, which `landing dataset add` fills. */
    public static final String READER_DATABASE = "ReaderDatabase";
    /** The product's bus (UnitPublished, UnitRefused, UnitConsumed). */
    public static final String EVENT_BUS = "LedgerEventBus";

    private DeployedStack() {
    }

    /** The region given, else the SDK's default region chain (AWS_REGION, the profile, ...). */
    public static Region region(String region) {
        if (region != null && !region.isBlank()) {
            return Region.of(region);
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (RuntimeException e) {
            throw new StackResolutionException("no region: pass --region, or set AWS_REGION (" + e.getMessage() + ")");
        }
    }

    /** Resolves {@code stackName} in {@code region} (null: the default chain) with the default credentials chain. */
    public static StackResources resolve(String stackName, String region) {
        Region chosen = region(region);
        try (CloudFormationQuery cloudFormation = CloudFormationQuery.create(chosen)) {
            return resolve(stackName, chosen.id(), cloudFormation);
        }
    }

    /** Resolves {@code stackName} through {@code cloudFormation} (tests pass one pointed at a stub). */
    public static StackResources resolve(String stackName, String region, CloudFormationQuery cloudFormation) {
        Map<String, String> physical = cloudFormation.describeStackResources(stackName);
        List<String> missing = new ArrayList<>();
        for (String logical : List.of(INBOX_BUCKET, LAKE_BUCKET, LEDGER_TABLE, HISTORY_TABLE, REPAIR_FUNCTION, SWEEP_FUNCTION)) {
            if (!physical.containsKey(logical)) {
                missing.add(logical);
            }
        }
        if (!missing.isEmpty()) {
            throw new StackResolutionException("stack '" + stackName + "' has no " + String.join(", ", missing)
                    + ": not a Landing Ledger stack (infra/template.yaml), or it is still being created");
        }
        return new StackResources(region, physical.get(INBOX_BUCKET), physical.get(LAKE_BUCKET), physical.get(LEDGER_TABLE),
                physical.get(HISTORY_TABLE), physical.get(REPAIR_FUNCTION), physical.get(SWEEP_FUNCTION), physical.get(CONSUMERS_TABLE));
    }
}
