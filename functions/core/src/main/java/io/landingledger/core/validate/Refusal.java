package io.landingledger.core.validate;

import java.util.List;

/**
 * Why a file is refused. {@code detail} names fields, counts, limits and line numbers, never a value from the file.
 *
 * @param code   the refusal code
 * @param detail a sentence for the operator
 * @param lines  the line numbers concerned (e.g. both lines of a key conflict), possibly empty
 */
public record Refusal(RefusalCode code, String detail, List<Long> lines) {
    public Refusal {
        lines = List.copyOf(lines);
    }
}
