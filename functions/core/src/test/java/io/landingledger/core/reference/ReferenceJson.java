package io.landingledger.core.reference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plain recursive-descent reader of one JSON text (RFC 8259), for the reference only: objects become ordered maps,
 * arrays lists, strings {@code String}, numbers {@link Num} (their text, so 3 and 3.0 stay apart), true/false
 * {@code Boolean}, null {@link #NULL}. A repeated name inside one object is reported, never resolved.
 */
final class ReferenceJson {
    /** JSON's null (a map cannot hold Java's). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** A number as written. */
    record Num(String text) {
        boolean integral() {
            return text.matches("-?(0|[1-9][0-9]*)");
        }
    }

    /** Not one JSON text. */
    static final class Malformed extends Exception {
        Malformed(String why) {
            super(why, null, false, false);
        }
    }

    /** One object repeats a name. */
    static final class RepeatedName extends Exception {
        final String name;

        RepeatedName(String name) {
            super(null, null, false, false);
            this.name = name;
        }
    }

    private final String text;
    private int at;

    private ReferenceJson(String text) {
        this.text = text;
    }

    /** The one JSON value {@code text} holds (whitespace around it allowed). */
    static Object parse(String text) throws Malformed, RepeatedName {
        ReferenceJson reader = new ReferenceJson(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) {
            throw new Malformed("text after the value");
        }
        return value;
    }

    /** Every member name at any depth (for prohibited names). */
    static List<String> allNames(Object value) {
        List<String> names = new ArrayList<>();
        collect(value, names);
        return names;
    }

    private static void collect(Object value, List<String> names) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                names.add((String) k);
                collect(v, names);
            });
        } else if (value instanceof List<?> list) {
            list.forEach(v -> collect(v, names));
        }
    }

    private Object value() throws Malformed, RepeatedName {
        if (at >= text.length()) {
            throw new Malformed("end of text");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return word("true", Boolean.TRUE);
            case 'f':
                return word("false", Boolean.FALSE);
            case 'n':
                return word("null", NULL);
            default:
                return number();
        }
    }

    private Map<String, Object> object() throws Malformed, RepeatedName {
        Map<String, Object> members = new LinkedHashMap<>();
        at++;
        space();
        if (peek() == '}') {
            at++;
            return members;
        }
        String repeated = null;
        while (true) {
            space();
            if (peek() != '"') {
                throw new Malformed("a name expected");
            }
            String name = string();
            space();
            expect(':');
            space();
            Object value = value();
            if (repeated == null && members.containsKey(name)) {
                repeated = name;
            }
            members.put(name, value);
            space();
            char c = next();
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw new Malformed("',' or '}' expected");
            }
        }
        if (repeated != null) {
            throw new RepeatedName(repeated);
        }
        return members;
    }

    private List<Object> array() throws Malformed, RepeatedName {
        List<Object> items = new ArrayList<>();
        at++;
        space();
        if (peek() == ']') {
            at++;
            return items;
        }
        while (true) {
            space();
            items.add(value());
            space();
            char c = next();
            if (c == ']') {
                return items;
            }
            if (c != ',') {
                throw new Malformed("',' or ']' expected");
            }
        }
    }

    private String string() throws Malformed {
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw new Malformed("a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw new Malformed("a short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw new Malformed("a bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw new Malformed("a bad escape");
            }
        }
    }

    private Num number() throws Malformed {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String n = text.substring(start, at);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw new Malformed("not a number");
        }
        return new Num(n);
    }

    private Object word(String word, Object value) throws Malformed {
        if (!text.startsWith(word, at)) {
            throw new Malformed("not a literal");
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private char peek() throws Malformed {
        if (at >= text.length()) {
            throw new Malformed("end of text");
        }
        return text.charAt(at);
    }

    private char next() throws Malformed {
        char c = peek();
        at++;
        return c;
    }

    private void expect(char c) throws Malformed {
        if (next() != c) {
            throw new Malformed("'" + c + "' expected");
        }
    }
}
