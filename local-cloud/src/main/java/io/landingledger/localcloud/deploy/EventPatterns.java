package io.landingledger.localcloud.deploy;

import java.util.List;
import java.util.Map;

/**
 * EventBridge's event patterns, the part the template uses: a field's list of values matches when the event's value
 * equals one of them or meets one of its content filters ({@code prefix}, {@code exists}); nested objects match field
 * by field; every field of the pattern must match. Other content filters are refused rather than guessed.
 */
final class EventPatterns {
    private EventPatterns() {
    }

    static boolean matches(Map<String, Object> pattern, Map<String, Object> event) {
        for (Map.Entry<String, Object> field : pattern.entrySet()) {
            Object value = event.get(field.getKey());
            Object wanted = field.getValue();
            if (wanted instanceof Map<?, ?> nested) {
                if (!(value instanceof Map<?, ?> inner)) {
                    return false;
                }
                @SuppressWarnings("unchecked")
                boolean ok = matches((Map<String, Object>) nested, (Map<String, Object>) inner);
                if (!ok) {
                    return false;
                }
            } else if (wanted instanceof List<?> values) {
                boolean any = false;
                for (Object candidate : values) {
                    if (candidate instanceof Map<?, ?> filter) {
                        any |= filter(filter, value);
                    } else {
                        any |= value != null && String.valueOf(candidate).equals(String.valueOf(value));
                    }
                }
                if (!any) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean filter(Map<?, ?> filter, Object value) {
        if (filter.size() == 1 && filter.containsKey("prefix")) {
            return value != null && String.valueOf(value).startsWith(String.valueOf(filter.get("prefix")));
        }
        if (filter.size() == 1 && filter.containsKey("exists")) {
            return Boolean.parseBoolean(String.valueOf(filter.get("exists"))) == (value != null);
        }
        throw new DeployException("event pattern content filter " + filter + " is not modelled locally");
    }
}
