package io.landingledger.core.contract;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link ContractEntry} as one JSON object, the body of {@code _contracts/<dataset>/v<N>.json}:
 * {@code {"dataset", "version", "state", "at", "reason", "contract"}}, the contract kept as the text the operator
 * submitted (a string, so its bytes, number spellings and key order survive exactly). An operator can read it with
 * any S3 client; {@code landing dataset show} prints it.
 */
public final class ContractEntryJson {
    private ContractEntryJson() {
    }

    public static byte[] write(ContractEntry entry) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("dataset", entry.dataset());
        json.put("version", entry.version());
        json.put("state", entry.state().wireName());
        json.put("at", entry.at().toString());
        json.put("reason", entry.reason());
        json.put("contract", entry.contractJson());
        try {
            return JSON.std.asBytes(json);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the contract entry of " + entry.dataset(), e);
        }
    }

    /**
     * Reads an entry back; {@code source} names the object in messages.
     *
     * @throws InvalidContractException the object is not an entry (edited by hand, or not ours)
     */
    public static ContractEntry read(String source, byte[] body) {
        Map<String, Object> json;
        try {
            json = JSON.std.mapFrom(body);
        } catch (IOException e) {
            throw new InvalidContractException(source, "$", "not a contract store entry: " + e.getMessage());
        }
        if (json == null) {
            throw new InvalidContractException(source, "$", "not a contract store entry: empty");
        }
        String dataset = text(json, source, "dataset");
        Object version = json.get("version");
        if (!(version instanceof Integer number)) {
            throw new InvalidContractException(source, "$.version", "must be a whole number, not " + version);
        }
        ContractState state;
        try {
            state = ContractState.valueOf(text(json, source, "state").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidContractException(source, "$.state", "must be active or retired, not " + json.get("state"));
        }
        Instant at;
        try {
            at = Instant.parse(text(json, source, "at"));
        } catch (DateTimeParseException e) {
            throw new InvalidContractException(source, "$.at", "not an instant: " + json.get("at"));
        }
        return new ContractEntry(dataset, number, state, text(json, source, "contract"), text(json, source, "reason"), at);
    }

    private static String text(Map<String, Object> json, String source, String name) {
        Object value = json.get(name);
        if (!(value instanceof String s)) {
            throw new InvalidContractException(source, "$." + name, "must be a string, not " + value);
        }
        return s;
    }
}
