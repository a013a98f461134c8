package io.landingledger.core.sweep;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the last assembled sweep left for the next one ({@code _reports/sweeps/state.json}): every dataset's figures,
 * and from when the next incremental sweep reads the change records. About 600 bytes a dataset (6 MB at 10,000).
 *
 * @param lastSweepId   the sweep assembled last
 * @param lastAsOf      its as-of
 * @param changesCursor the instant from which the next incremental sweep reads {@link SweepChanges}
 * @param lastFullAsOf  the as-of of the last full sweep assembled, or null
 * @param datasets      by name
 */
public record SweepState(String lastSweepId, Instant lastAsOf, Instant changesCursor, Instant lastFullAsOf,
                         Map<String, DatasetFigures> datasets) {
    public static final SweepState EMPTY = new SweepState(null, null, null, null, Map.of());

    public SweepState {
        datasets = Map.copyOf(datasets);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("last_sweep_id", lastSweepId);
        map.put("last_as_of", text(lastAsOf));
        map.put("changes_cursor", text(changesCursor));
        map.put("last_full_as_of", text(lastFullAsOf));
        Map<String, Object> figures = new LinkedHashMap<>();
        new TreeMap<>(datasets).forEach((name, f) -> figures.put(name, f.toMap()));
        map.put("datasets", figures);
        return map;
    }

    @SuppressWarnings("unchecked")
    public static SweepState fromMap(Map<String, Object> map) {
        Map<String, DatasetFigures> datasets = new LinkedHashMap<>();
        ((Map<String, Object>) map.getOrDefault("datasets", Map.of()))
                .forEach((name, f) -> datasets.put(name, DatasetFigures.fromMap((Map<String, Object>) f)));
        return new SweepState((String) map.get("last_sweep_id"), instant(map.get("last_as_of")), instant(map.get("changes_cursor")),
                instant(map.get("last_full_as_of")), datasets);
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static Instant instant(Object text) {
        return text == null ? null : Instant.parse((String) text);
    }
}
