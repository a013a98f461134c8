package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.ops.Plain;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Pretty JSON of maps, lists and records (the ledger dump), with instants as ISO strings. */
final class Json {
    private static final JSON PRETTY = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT);

    private Json() {
    }

    static String pretty(Object value) {
        try {
            return PRETTY.asString(plain(value)) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records become maps of their components; enums and instants become strings. */
    static Object plain(Object value) {
        return Plain.of(value);
    }
}
