package io.landingledger.cli.ops;

import picocli.CommandLine.Option;

/**
 * {@code --from}/{@code --to}: the units a command looks at (a picocli mixin of status and sweep); each unset bound is
 * the first or last unit the stack knows ({@link OpsCommand#knownRange}).
 */
public final class UnitRangeOptions {
    @Option(names = "--from", paramLabel = "UNIT", description = "First unit.")
    String from;

    @Option(names = "--to", paramLabel = "UNIT", description = "Last unit.")
    String to;
}
