package io.landingledger.core.sweep;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
    /** The keys a payload may have; anything else is a mistake worth failing on (a typo would sweep everything). */
    public static final Set<String> PAYLOAD_KEYS = Set.of("datasets", "from", "to");

    public SweepRequest {
        datasets = List.copyOf(datasets);
    }

    /**
     * Reads a payload (null: the empty one); every problem is an {@link IllegalArgumentException} that names the
     * field and what is allowed. The bounds' shape against each dataset's cadence is checked by
     * {@link CompletenessSweep#sweep(SweepRequest, CompletenessSweep.ReportListener)}, before anything is swept.
     */
    public static SweepRequest fromPayload(Map<String, Object> payload, ContractRegistry contracts) {
        Map<String, Object> input = payload == null ? Map.of() : payload;
        Set<String> unknown = new TreeSet<>(input.keySet());
        unknown.removeAll(PAYLOAD_KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown key(s) " + unknown + " in the sweep payload; it takes datasets (a list; "
                    + "omit it for all), from and to (units; omit them for the default range)");
        }
        String from = text(input, "from");
        String to = text(input, "to");
        return new SweepRequest(datasets(input.get("datasets"), contracts), from, to);
    }

    private static List<DatasetContract> datasets(Object value, ContractRegistry contracts) {
        if (value == null) {
            return List.copyOf(contracts.all().values());
        }
        if (!(value instanceof List<?> names) || names.isEmpty()) {
            throw new IllegalArgumentException("datasets must be a non-empty list of dataset names (omit it for all: "
                    + String.join(", ", contracts.all().keySet()) + ")");
        }
        List<DatasetContract> chosen = new ArrayList<>();
        for (Object name : names) {
            if (!(name instanceof String dataset) || contracts.get(dataset).isEmpty()) {
                throw new IllegalArgumentException("unknown dataset " + name + " in datasets; known: "
                        + String.join(", ", contracts.all().keySet()));
            }
            chosen.add(contracts.get(dataset).get());
        }
        return chosen;
    }

    private static String text(Map<String, Object> input, String key) {
        Object value = input.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text) || text.isBlank()) {
            throw new IllegalArgumentException(key + " must be a unit name such as \"2026-03-01\" (daily) or "
                    + "\"2026-03-01T05\" (hourly); omit it for the default range");
        }
        return text.strip();
    }
}
