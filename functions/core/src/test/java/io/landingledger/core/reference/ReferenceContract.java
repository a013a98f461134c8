package io.landingledger.core.reference;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules of a flat JSONL dataset contract, as the reference reads them: each field's type and constraints, the
 * key, the prohibited names, the reject cap. Built by hand from the shipped contract's text (datasets/*.json), never
 * through the production loader.
 *
 * @param fields      by name (sorted: the canonical row's field order)
 * @param maxRejected lines a file may reject and still publish
 */
public record ReferenceContract(String dataset, int version, Map<String, Field> fields, String key,
                                List<String> prohibited,
                                int maxRejected) {

    /** The kinds of value the reference models. */
    public enum Type { STRING, INTEGER, TIMESTAMP }

    /**
     * One field's rules.
     *
     * @param values    the allowed values of a string field, or empty for any
     * @param minLength the shortest string allowed (strings)
     * @param min       the smallest integer allowed, or null (integers)
     */
    public record Field(Type type, boolean required, boolean nullable, List<String> values, int minLength, Long min) {
    }

    public ReferenceContract {
        fields = new TreeMap<>(fields);
    }

    /** datasets/progress_events.json, {@code maxRejected} lines allowed, named {@code dataset} (a copy's name). */
    public static ReferenceContract progressEvents(String dataset, int version, int maxRejected) {
        Map<String, Field> f = new TreeMap<>();
        f.put("event_id", new Field(Type.STRING, true, false, List.of(), 1, null));
        f.put("learner_id", new Field(Type.STRING, true, false, List.of(), 1, null));
        f.put("lesson_id", new Field(Type.STRING, true, false, List.of(), 1, null));
        f.put("event_type", new Field(Type.STRING, true, false, List.of("checkpoint", "completed"), 0, null));
        f.put("attempt_number", new Field(Type.INTEGER, true, false, List.of(), 0, 1L));
        f.put("event_time", new Field(Type.TIMESTAMP, true, false, List.of(), 0, null));
        f.put("checkpoint", new Field(Type.INTEGER, false, true, List.of(), 0, null));
        return new ReferenceContract(dataset, version, f, "event_id", List.of("email", "name", "payment_token"),
                maxRejected);
    }
}
