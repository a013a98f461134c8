package io.landingledger.core.sweep;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;

import java.util.ArrayList;
import java.util.List;

/**
 * A completeness sweep's request, parsed from the scheduled invocation's payload
 * {@code {"datasets": [...], "from": unit, "to": unit}}, every key optional: no datasets means every bundled
 * contract, a missing bound means the contract's default range ({@link CompletenessSweep#range}).
 *
 * @param datasets the contracts to sweep, in the payload's order (every contract when the payload names none)
 * @param from     the first unit, or null for the default range's
 * @param to       the last unit, or null for the default range's
 */
public record SweepRequest(List<DatasetContract> datasets, String from, String to) {
    public SweepRequest {
        datasets = List.copyOf(datasets);
    }

    /**
     * The sweep function's payload {@code {"datasets": [...], "from": unit, "to": unit}}, every key optional, on both
     * sides of the wire (the CLI's {@code landing sweep --stack} sends one, CompletenessSweepHandler reads it) through
     * JsonCodec, which refuses any other key: a typo would sweep everything.
     */
    public record Payload(List<String> datasets, String from, String to) {
        /** The empty payload: every dataset, each one's default range. */
        public static final Payload ALL = new Payload(null, null, null);
    }

    /**
     * Reads a payload (null: the empty one); every problem is an {@link IllegalArgumentException} that names the
     * field and what is allowed. The bounds' shape against each dataset's cadence is checked by
     * {@link CompletenessSweep#sweep(SweepRequest, CompletenessSweep.ReportListener)}, before anything is swept.
     */
    public static SweepRequest of(Payload payload, ContractRegistry contracts) {
        Payload input = payload == null ? Payload.ALL : payload;
        return new SweepRequest(datasets(input.datasets(), contracts), text(input.from(), "from"), text(input.to(), "to"));
    }

    private static List<DatasetContract> datasets(List<String> names, ContractRegistry contracts) {
        if (names == null) {
            return List.copyOf(contracts.all().values());
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("datasets must be a non-empty list of dataset names (omit it for all: "
                    + String.join(", ", contracts.all().keySet()) + ")");
        }
        List<DatasetContract> chosen = new ArrayList<>();
        for (String dataset : names) {
            if (dataset == null || contracts.get(dataset).isEmpty()) {
                throw new IllegalArgumentException("unknown dataset " + dataset + " in datasets; known: "
                        + String.join(", ", contracts.all().keySet()));
            }
            chosen.add(contracts.get(dataset).get());
        }
        return chosen;
    }

    private static String text(String text, String key) {
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(key + " must be a unit name such as \"2026-03-01\" (daily) or "
                    + "\"2026-03-01T05\" (hourly); omit it for the default range");
        }
        return text.strip();
    }
}
