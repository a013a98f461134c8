package io.landingledger.core.repair;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An operator's repair or omission request (docs/design.md section 6), parsed from the invocation payload:
 * <pre>{"dataset": "progress_events", "units": ["2026-03-02"] | "from": "...", "to": "...",
 *  "mode": "targeted" | "forward", "dryRun": true, "force": false, "reason": "INC-4711 producer resent",
 *  "inputVersion": "recorded" | "latest", "action": "repair" | "omit" | "accept-empty" | "revoke-accept-empty"}</pre>
 */
public record RepairRequest(String dataset, List<String> units, String from, String to, Mode mode, boolean dryRun,
                            boolean force, String reason, InputVersion inputVersion, Action action) {

    public enum Mode { TARGETED, FORWARD }

    public enum InputVersion { RECORDED, LATEST }

    /**
     * What the request does to each unit: run the ingest path (REPAIR), record an omission (OMIT), accept the unit's
     * empty publish as a legitimately empty day (ACCEPT_EMPTY) or take that acceptance back (REVOKE_ACCEPT_EMPTY).
     * On the wire in lower case with hyphens: {@code accept-empty}.
     */
    public enum Action {
        REPAIR, OMIT, ACCEPT_EMPTY, REVOKE_ACCEPT_EMPTY;

        /** The payload's spelling. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** True for the actions that only record an operator's decision in the ledger and read no input. */
        public boolean recordsDecision() {
            return this != REPAIR;
        }
    }

    private static final Set<String> FIELDS = Set.of("dataset", "units", "from", "to", "mode", "dryRun", "force", "reason",
            "inputVersion", "action");

    public RepairRequest {
        units = units == null ? List.of() : List.copyOf(units);
    }

    /**
     * Reads a payload; every problem is an {@link IllegalArgumentException} that names the field and what is allowed,
     * so {@code aws lambda invoke} shows the operator what to fix.
     */
    public static RepairRequest fromPayload(Map<String, Object> payload) {
        if (payload == null) {
            throw new IllegalArgumentException("the payload is empty; send {\"dataset\": ..., \"units\": [...], \"reason\": ...}");
        }
        for (String key : payload.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown field \"" + key + "\" (allowed: " + String.join(", ", new TreeSet<>(FIELDS)) + ")");
            }
        }
        String dataset = text(payload, "dataset");
        if (dataset == null) {
            throw new IllegalArgumentException("\"dataset\" is required");
        }
        String reason = text(payload, "reason");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("\"reason\" is required: say why (an incident or ticket), it is recorded in the ledger history");
        }
        List<String> units = new ArrayList<>();
        Object listed = payload.get("units");
        if (listed != null) {
            if (!(listed instanceof List<?> list)) {
                throw new IllegalArgumentException("\"units\" must be a list of unit names");
            }
            for (Object unit : list) {
                if (!(unit instanceof String s) || s.isBlank()) {
                    throw new IllegalArgumentException("\"units\" must be a list of unit names, and one entry is " + unit);
                }
                units.add(s);
            }
        }
        String from = text(payload, "from");
        String to = text(payload, "to");
        if (units.isEmpty() && from == null) {
            throw new IllegalArgumentException("name the units: \"units\": [...] or a range \"from\" (and optionally \"to\")");
        }
        if (!units.isEmpty() && (from != null || to != null)) {
            throw new IllegalArgumentException("give either \"units\" or \"from\"/\"to\", not both");
        }
        return new RepairRequest(dataset, units, from, to,
                choice(payload, "mode", Mode.class, Mode.TARGETED), bool(payload, "dryRun"), bool(payload, "force"), reason.strip(),
                choice(payload, "inputVersion", InputVersion.class, InputVersion.RECORDED), choice(payload, "action", Action.class, Action.REPAIR));
    }

    private static String wire(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String text(Map<String, Object> payload, String name) {
        Object value = payload.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("\"" + name + "\" must be a string");
        }
        return s;
    }

    private static boolean bool(Map<String, Object> payload, String name) {
        Object value = payload.get(name);
        if (value == null) {
            return false;
        }
        if (!(value instanceof Boolean b)) {
            throw new IllegalArgumentException("\"" + name + "\" must be true or false");
        }
        return b;
    }

    private static <E extends Enum<E>> E choice(Map<String, Object> payload, String name, Class<E> type, E fallback) {
        String value = text(payload, name);
        if (value == null) {
            return fallback;
        }
        for (E constant : type.getEnumConstants()) {
            if (wire(constant).equals(value)) {
                return constant;
            }
        }
        List<String> allowed = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            allowed.add(wire(constant));
        }
        throw new IllegalArgumentException("\"" + name + "\" must be one of " + String.join(", ", allowed) + ", not \"" + value + "\"");
    }
}
