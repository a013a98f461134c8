package io.landingledger.core.validate;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the validator found in one input. Counts, hashes, reason codes and line numbers only: no content.
 *
 * @param dataset          the contract's dataset
 * @param contractVersion  the contract's version
 * @param sha256           SHA-256 (hex) of the stored bytes, before any decompression: the input identity
 * @param storedBytes      bytes read from the source
 * @param decodedBytes     bytes after decompression (equal to storedBytes for plain input)
 * @param gzip             the input was gzip, detected by its magic bytes
 * @param lines            physical lines (CSV: including the header and every line of a quoted record), counting blank
 *                         ones: what a line number in a reason or refusal counts
 * @param records          data records read: rows of the file, so neither the header nor a blank line, and a CSV
 *                         record whose quoted cell holds line breaks once (its reasons name its first line)
 * @param blankLines       blank lines, ignored
 * @param accepted         rows the published unit holds: rows written to the accepted stream, less
 *                         {@code rowsToDrop}
 * @param duplicates       rows identical to an earlier row with the same key, collapsed into it (including
 *                         {@code rowsToDrop})
 * @param rejected         lines rejected (quarantined)
 * @param reasons          rejected lines by reason
 * @param acceptedBytes    bytes written to the accepted stream by this pass
 * @param distinctKeys     distinct keys seen
 * @param keyIndexBytes    heap held by the duplicate-key index at the end (its largest run when it spilled)
 * @param keyIndexRuns     sorted runs the index spilled to local disk (0: it stayed within keyIndexMemoryBytes)
 * @param keyIndexDiskBytes bytes those runs took on disk (deleted before the result is returned)
 * @param rowsToDrop       lines written to the accepted stream that repeat an identical earlier row in a spilled run,
 *                         found only at the end; when not empty the accepted stream is not final: validate the same
 *                         input again with these lines as {@code dropRows} (see {@link #acceptedFinal()})
 * @param refusal          why the file is refused, or null when it may be published
 */
public record ValidationResult(String dataset, int contractVersion, String sha256, long storedBytes, long decodedBytes,
                               boolean gzip, long lines, long records, long blankLines, long accepted, long duplicates, long rejected,
                               Map<ReasonCode, Long> reasons, long acceptedBytes, long distinctKeys, long keyIndexBytes,
                               int keyIndexRuns, long keyIndexDiskBytes, LineSet rowsToDrop, Refusal refusal) {

    public ValidationResult {
        EnumMap<ReasonCode, Long> copy = new EnumMap<>(ReasonCode.class);
        copy.putAll(reasons);
        reasons = java.util.Collections.unmodifiableMap(copy);
        java.util.Objects.requireNonNull(rowsToDrop, "rowsToDrop");
    }

    /** True when the accepted stream holds exactly the rows to publish: no row of it must be dropped. */
    public boolean acceptedFinal() {
        return rowsToDrop.isEmpty();
    }

    /** True when the file may be published: no refusal. */
    public boolean publishable() {
        return refusal == null;
    }

    /** {@code accept} or {@code refuse}. */
    public String decision() {
        return publishable() ? "accept" : "refuse";
    }

    /** Index bytes per distinct key, or 0 when no key was seen. */
    public double keyIndexBytesPerKey() {
        return distinctKeys == 0 ? 0 : (double) keyIndexBytes / distinctKeys;
    }

    /** Spilled bytes on disk per distinct key, or 0 when nothing spilled. */
    public double keyIndexDiskBytesPerKey() {
        return distinctKeys == 0 ? 0 : (double) keyIndexDiskBytes / distinctKeys;
    }

    /** The result as plain maps and lists, in a stable order, for JSON output. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("dataset", dataset);
        map.put("contractVersion", contractVersion);
        map.put("decision", decision());
        if (refusal != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("code", refusal.code().name());
            r.put("detail", refusal.detail());
            if (!refusal.lines().isEmpty()) {
                r.put("lines", List.copyOf(refusal.lines()));
            }
            map.put("refusal", r);
        }
        map.put("sha256", sha256);
        map.put("storedBytes", storedBytes);
        map.put("decodedBytes", decodedBytes);
        map.put("gzip", gzip);
        map.put("records", records);
        map.put("lines", lines);
        map.put("blankLines", blankLines);
        map.put("accepted", accepted);
        map.put("duplicates", duplicates);
        map.put("rejected", rejected);
        Map<String, Object> byReason = new LinkedHashMap<>();
        reasons.forEach((code, count) -> byReason.put(code.name(), count));
        map.put("reasons", byReason);
        map.put("acceptedBytes", acceptedBytes);
        map.put("distinctKeys", distinctKeys);
        map.put("keyIndexBytes", keyIndexBytes);
        map.put("keyIndexRuns", keyIndexRuns);
        map.put("keyIndexDiskBytes", keyIndexDiskBytes);
        return map;
    }
}
