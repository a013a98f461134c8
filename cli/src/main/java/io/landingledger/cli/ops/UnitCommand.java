package io.landingledger.cli.ops;

import picocli.CommandLine.Parameters;

/** An operator command about one unit: {@code DATASET UNIT} (explain, history, ack). */
abstract class UnitCommand extends OpsCommand {
    @Parameters(index = "0", paramLabel = "DATASET")
    String dataset;

    @Parameters(index = "1", paramLabel = "UNIT")
    String unit;
}
