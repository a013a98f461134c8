package io.landingledger.core.repair;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;

import io.landingledger.core.json.JsonCodec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An operator's repair or omission request (docs/design.md section 6), the repair function's payload on both sides of
 * the wire (the CLI builds one and sends it through {@link JsonCodec}; RepairHandler reads it back the same way):
 * <pre>{"dataset": "progress_events", "units": ["2026-03-02"] | "from": "...", "to": "...",
 *  "mode": "targeted" | "forward", "dryRun": true, "force": false, "reason": "INC-4711 producer resent",
 *  "inputVersion": "recorded" | "latest", "action": "repair" | "omit" | "accept-empty" | "revoke-accept-empty"
 *  | "accept-volume" | "revoke-accept-volume"}</pre>
 * Every problem is an {@link IllegalArgumentException} that names the field and what is allowed (an unknown field is
 * the codec's), so {@code aws lambda invoke} shows the operator what to fix.
 */
@JsonPropertyOrder({"dataset", "units", "from", "to", "mode", "dryRun", "force", "reason", "inputVersion", "action"})
public record RepairRequest(String dataset, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> units, String from, String to,
                            Mode mode, boolean dryRun, boolean force, String reason, InputVersion inputVersion, Action action) {

    public enum Mode {
        TARGETED, FORWARD;

        @JsonValue
        public String wireName() {
            return wire(this);
        }

        @JsonCreator
        public static Mode of(String value) {
            return choice("mode", value, values());
        }
    }

    public enum InputVersion {
        RECORDED, LATEST;

        @JsonValue
        public String wireName() {
            return wire(this);
        }

        @JsonCreator
        public static InputVersion of(String value) {
            return choice("inputVersion", value, values());
        }
    }

    /**
     * What the request does to each unit: run the ingest path (REPAIR), record an omission (OMIT), accept the unit's
     * empty publish as a legitimately empty day (ACCEPT_EMPTY) or take that acceptance back (REVOKE_ACCEPT_EMPTY),
     * accept the standing publish's suspect row count as what the unit really held (ACCEPT_VOLUME) or take that back
     * (REVOKE_ACCEPT_VOLUME). On the wire in lower case with hyphens: {@code accept-empty}, {@code accept-volume}.
     */
    public enum Action {
        REPAIR, OMIT, ACCEPT_EMPTY, REVOKE_ACCEPT_EMPTY, ACCEPT_VOLUME, REVOKE_ACCEPT_VOLUME;

        /** The payload's spelling. */
        @JsonValue
        public String wireName() {
            return wire(this);
        }

        @JsonCreator
        public static Action of(String value) {
            return choice("action", value, values());
        }

        /** True for the actions that only record an operator's decision in the ledger and read no input. */
        public boolean recordsDecision() {
            return this != REPAIR;
        }
    }

    /** Checks the request; an absent mode, input version or action is the default (targeted, recorded, repair). */
    public RepairRequest {
        if (dataset == null) {
            throw new IllegalArgumentException("\"dataset\" is required");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("\"reason\" is required: say why (an incident or ticket), it is recorded in the ledger history");
        }
        reason = reason.strip();
        units = units == null ? List.of() : units;
        for (String unit : units) {
            if (unit == null || unit.isBlank()) {
                throw new IllegalArgumentException("\"units\" must be a list of unit names, and one entry is " + unit);
            }
        }
        units = List.copyOf(units);
        if (units.isEmpty() && from == null) {
            throw new IllegalArgumentException("name the units: \"units\": [...] or a range \"from\" (and optionally \"to\")");
        }
        if (!units.isEmpty() && (from != null || to != null)) {
            throw new IllegalArgumentException("give either \"units\" or \"from\"/\"to\", not both");
        }
        mode = mode == null ? Mode.TARGETED : mode;
        inputVersion = inputVersion == null ? InputVersion.RECORDED : inputVersion;
        action = action == null ? Action.REPAIR : action;
    }

    /** The request as JSON, the repair function's payload. */
    public String toJson() {
        return JsonCodec.writeString(this);
    }

    /** A payload (the function's input document); a null or empty one is refused with what to send. */
    public static RepairRequest fromJson(String json) {
        return orRefuse(JsonCodec.read(json, RepairRequest.class));
    }

    /** A payload a caller holds as a map (tests, a JSON document read elsewhere): read through the same codec. */
    public static RepairRequest fromPayload(Map<String, ?> payload) {
        return orRefuse(payload == null ? null : JsonCodec.convert(payload, RepairRequest.class));
    }

    /** Refuses a missing payload with what to send. */
    public static RepairRequest orRefuse(RepairRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("the payload is empty; send {\"dataset\": ..., \"units\": [...], \"reason\": ...}");
        }
        return request;
    }

    private static String wire(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static <E extends Enum<E>> E choice(String name, String value, E[] constants) {
        for (E constant : constants) {
            if (wire(constant).equals(value)) {
                return constant;
            }
        }
        List<String> allowed = new ArrayList<>();
        Arrays.stream(constants).forEach(c -> allowed.add(wire(c)));
        throw new IllegalArgumentException("\"" + name + "\" must be one of " + String.join(", ", allowed) + ", not \"" + value + "\"");
    }
}
