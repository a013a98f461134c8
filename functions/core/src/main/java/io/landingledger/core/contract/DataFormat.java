package io.landingledger.core.contract;

/** The text format of a dataset's input files; gzip is detected from the bytes, never from the name. */
public enum DataFormat {
    /** One JSON object per line. */
    JSONL,
    /** RFC 4180 CSV with a header row naming the contract's fields. */
    CSV
}
