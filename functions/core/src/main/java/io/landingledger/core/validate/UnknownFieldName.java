package io.landingledger.core.validate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What the product writes for a field name the contract does not declare: never the name (a producer that uses
 * identifiers as keys would leak them into the quarantine), only {@code sha256:} and the first 16 hex digits of the
 * SHA-256 of the name's UTF-8 bytes (the key as JSON decodes it, so {@code "\u0065xtra"} and {@code "extra"} hash
 * alike). Stable across runs and machines, so a producer can compute it for the key it suspects.
 */
public final class UnknownFieldName {

    /** What every hash starts with. */
    public static final String PREFIX = "sha256:";

    private static final HexFormat HEX = HexFormat.of();

    private UnknownFieldName() {
    }

    /** The hash written for {@code name}, a key the contract does not declare. */
    public static String hash(String name) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        byte[] digest = sha256.digest(name.getBytes(StandardCharsets.UTF_8));
        return PREFIX + HEX.formatHex(digest, 0, 8);
    }
}
