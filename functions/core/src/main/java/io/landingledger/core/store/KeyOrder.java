package io.landingledger.core.store;

import java.util.Comparator;

/**
 * The order S3 lists keys in and DynamoDB sorts string keys in: by the UTF-8 bytes, which is Unicode code point
 * order. {@link String#compareTo} compares UTF-16 units and differs for characters above U+FFFF against U+E000 to
 * U+FFFF. The DynamoDB adapter needs it to tell a reversed range (which DynamoDB refuses) and the in-memory ports to
 * list as AWS does.
 */
public final class KeyOrder {
    public static final Comparator<String> UTF8 = KeyOrder::compare;

    private KeyOrder() {
    }

    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
