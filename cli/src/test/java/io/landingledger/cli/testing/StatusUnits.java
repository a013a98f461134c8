package io.landingledger.cli.testing;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The units of a {@code landing status --json} answer, by unit. */
public final class StatusUnits {
    private StatusUnits() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Map<String, Object>> byUnit(Map<String, Object> status) {
        Map<String, Map<String, Object>> units = new TreeMap<>();
        for (Object u : (List<Object>) status.get("units")) {
            Map<String, Object> unit = (Map<String, Object>) u;
            units.put((String) unit.get("unit"), unit);
        }
        return units;
    }
}
