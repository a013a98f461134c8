package io.landingledger.core.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A contract version's registration record: the SHA-256 of the entry's stored bytes ({@link ContractEntryJson}),
 * written once when the version is created, beside it but apart from it ({@code S3ContractStore}: its own object,
 * {@code _contracts/<dataset>/v<N>.sha256}), so a rewrite of the version's object does not also rewrite it. Every
 * read of a version opens it here: bytes that hash otherwise, or a version with no record, are refused with
 * {@link ContractTamperedException} before they are parsed (docs/design.md section 3, "Immutable versions").
 */
public final class ContractSeal {
    private ContractSeal() {
    }

    /** The record written for {@code body}: its SHA-256, 64 lower-case hex digits. */
    public static String of(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether {@code body} hashes to {@code sha256} (hex digits, either case). */
    public static boolean matches(byte[] body, String sha256) {
        return MessageDigest.isEqual(sha256.strip().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII),
                of(body).getBytes(StandardCharsets.US_ASCII));
    }

    /** The record as stored (the record object's bytes, a trailing newline tolerated). */
    public static byte[] bytes(String seal) {
        return seal.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The entry {@code body} holds, when it is exactly what was registered as {@code version} of {@code dataset}.
     *
     * @param source   names the stored object in a loader error (an entry that is sealed but does not load)
     * @param recorded the registration record's bytes, empty when there is none
     * @throws ContractTamperedException the bytes hash otherwise, or there is no record
     * @throws InvalidContractException  a sealed body that is not an entry of {@code dataset} version {@code version}
     */
    public static ContractEntry open(String dataset, int version, String source, byte[] body,
                                     Optional<byte[]> recorded) {
        if (recorded.isEmpty()) {
            throw new ContractTamperedException(ContractTamperedException.UNSEALED, dataset, version);
        }
        byte[] expected = new String(recorded.get(), StandardCharsets.US_ASCII).strip()
                .getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, of(body).getBytes(StandardCharsets.US_ASCII))) {
            throw new ContractTamperedException(ContractTamperedException.TAMPERED, dataset, version);
        }
        ContractEntry entry = ContractEntryJson.read(source, body);
        if (!entry.dataset().equals(dataset) || entry.version() != version) {
            throw new InvalidContractException(source, "$", "holds " + entry.dataset() + " v" + entry.version()
                    + ", stored as " + dataset + " v" + version);
        }
        return entry;
    }
}
