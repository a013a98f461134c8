package io.landingledger.core.validate;

/**
 * One rejected line, as written to quarantine. Carries no content of the line.
 *
 * @param line   1-based physical line number in the decompressed input
 * @param reason why it was rejected
 * @param field  the contract field concerned, or null when the reason is about the whole line
 * @param detail a note naming the limit involved (e.g. maxLineBytes), or null; never content
 */
public record Rejection(long line, ReasonCode reason, String field, String detail) {
}
