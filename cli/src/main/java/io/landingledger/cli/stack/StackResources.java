package io.landingledger.cli.stack;

import java.util.Objects;

/**
 * A deployed Landing Ledger stack's resources, as {@link DeployedStack#resolve} finds them: the physical names of
 * the template's (infra/template.yaml) InboxBucket, LakeBucket, LedgerTable, LedgerHistoryTable, RepairFunction and
 * CompletenessSweepFunction, and ConsumersTable (null on a stack deployed before it). The functions are invoked at their {@value #LIVE_ALIAS} alias (AutoPublishAlias).
 */
public record StackResources(String region, String inboxBucket, String lakeBucket, String ledgerTable, String historyTable,
                             String repairFunction, String sweepFunction, String consumersTable) {
    /** A stack without a Consumers table (deployed before consumer receipts). */
    public StackResources(String region, String inboxBucket, String lakeBucket, String ledgerTable, String historyTable,
                          String repairFunction, String sweepFunction) {
        this(region, inboxBucket, lakeBucket, ledgerTable, historyTable, repairFunction, sweepFunction, null);
    }

    /** The alias the template publishes each function under (SnapStart snapshots published versions). */
    public static final String LIVE_ALIAS = "live";

    public StackResources {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(inboxBucket, "inboxBucket");
        Objects.requireNonNull(lakeBucket, "lakeBucket");
        Objects.requireNonNull(ledgerTable, "ledgerTable");
        Objects.requireNonNull(historyTable, "historyTable");
        Objects.requireNonNull(repairFunction, "repairFunction");
        Objects.requireNonNull(sweepFunction, "sweepFunction");
    }
}
