package io.landingledger.lambda.testing;

import io.landingledger.lambda.FunctionConfig;

/**
 * The buckets and tables {@link AwsEmulators#freshResources()} made for one test, and the {@link FunctionConfig}
 * that points a function at them (its connection is the emulators').
 */
public record TestResources(FunctionConfig config) {

    public String inboxBucket() {
        return config.inboxBucket();
    }

    public String lakeBucket() {
        return config.lakeBucket();
    }

    public String ledgerTable() {
        return config.ledgerTable();
    }

    public String ledgerHistoryTable() {
        return config.ledgerHistoryTable();
    }

    /** The Consumers table ({@code ConsumersTable}), named after the ledger table. */
    public String consumersTable() {
        return config.ledgerTable() + "-consumers";
    }
}
