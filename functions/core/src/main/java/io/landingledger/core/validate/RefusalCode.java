package io.landingledger.core.validate;

/** Why a whole file is refused: nothing of it is published and the previous publish stays the latest success. */
public enum RefusalCode {
    /** A prohibited field appears in some line, at any depth, in any ASCII letter case. */
    PROHIBITED_FIELD,
    /** The same key appears with two different canonical payloads. */
    KEY_CONFLICT,
    /** More lines were rejected than the contract's {@code maxRejectedLines}. */
    REJECT_CAP,
    /** A field the contract does not name, with the contract's unknownFields policy refuse-file. */
    UNKNOWN_FIELD,
    /** The CSV header does not name exactly the contract's fields. */
    CSV_HEADER_MISMATCH,
    /** The file has no accepted row and the contract does not allow empty units. */
    EMPTY,
    /** The gzip stream is corrupt or truncated. */
    UNREADABLE,
    /** Bytes follow the last complete gzip member and do not start another one (members may be concatenated). */
    GZIP_TRAILING_BYTES,
    /** The gzip stream expands beyond {@code maxCompressionRatio}: a likely decompression bomb. */
    DECOMPRESSION_RATIO,
    /** More distinct keys than the duplicate index can hold. */
    TOO_MANY_KEYS
}
