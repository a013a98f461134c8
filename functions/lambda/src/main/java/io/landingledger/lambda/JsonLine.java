package io.landingledger.lambda;

import org.apache.logging.log4j.message.MapMessage;

import java.util.Map;

/**
 * A log event whose fields the layout writes as top-level JSON fields (the {@code map} resolver, flattened) and
 * whose message is a short fixed text, not the {@code key="value"} rendering of the map a MapMessage gives.
 */
public final class JsonLine extends MapMessage<JsonLine, Object> {
    private static final long serialVersionUID = 1L;
    private final String text;

    public JsonLine(String text, Map<String, ?> fields) {
        super(fields.size());
        this.text = text;
        fields.forEach((name, value) -> with(name, value));
    }

    @Override
    public String getFormattedMessage() {
        return text;
    }

    @Override
    public void formatTo(StringBuilder buffer) {
        buffer.append(text);
    }
}
