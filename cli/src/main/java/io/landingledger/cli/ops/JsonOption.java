package io.landingledger.cli.ops;

import picocli.CommandLine.Option;

/** {@code --json}: the command's answer as one JSON document instead of text (a picocli mixin). */
public final class JsonOption {
    @Option(names = "--json", description = "One JSON document on stdout.")
    boolean json;
}
