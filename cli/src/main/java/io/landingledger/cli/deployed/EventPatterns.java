package io.landingledger.cli.deployed;

import java.util.List;
import java.util.Map;

/**
 * EventBridge's event patterns, the part the template uses: a field's list of values matches when the event's value
 * equals one of them; nested objects match field by field; every field of the pattern must match. Content filters
 * (prefix, anything-but, numeric, exists) are refused rather than guessed.
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
                    if (candidate instanceof Map<?, ?>) {
                        throw new DeployException("event pattern content filters (" + candidate + ") are not modelled locally");
                    }
                    any |= String.valueOf(candidate).equals(String.valueOf(value));
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
}
