package io.landingledger.core.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ledger.LedgerItem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a repair did (or, for a dry run, plans to do), unit by unit, plus the units it did not reach before its
 * deadline and the payload that continues it. The repair function's answer on both sides of the wire (JsonCodec):
 * {@code {"request": {...}, "forward": ..., "units": [...], "notReached": [...], "succeeded": ..., "continuation":
 * {...}, "table": "..."}}; {@code succeeded}, {@code continuation} and {@code table} are written for the operator
 * reading the answer and derived again when it is read.
 */
@JsonPropertyOrder({"request", "forward", "succeeded", "units", "notReached", "continuation", "table"})
@JsonIgnoreProperties(value = {"succeeded", "continuation", "table"}, allowGetters = true)
public record RepairResult(RepairRequest request, boolean forward, List<UnitResult> units,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> notReached) {

    /** The action of a unit whose publish stands and was submitted to the table queue for the table writer. */
    public static final String TABLE_SUBMITTED = "table_submitted";

    private static final Set<String> SUCCESS = Set.of("published", "skipped", "finished", "unchanged", "omitted", "accepted_empty",
            "accepted_volume", "revoked", "planned", TABLE_SUBMITTED);

    public RepairResult {
        units = units == null ? List.of() : List.copyOf(units);
        notReached = notReached == null ? List.of() : List.copyOf(notReached);
    }

    /**
     * One unit's line of the table.
     *
     * @param action published, skipped, finished, unchanged, refused, stale (a newer input is published: the chosen one
     *               did not replace it), input_gone (the chosen version no longer exists), no_input, omitted, rejected,
     *               failed, not_attempted, table_submitted (the publish stands; its table partition does not hold it,
     *               and the unit went to the table queue) or planned (dry run); only published, skipped, finished,
     *               unchanged, omitted, table_submitted and planned count as restored
     * @param expect for a dry run: publish, skip, refuse-again, no input, omit, table-submit (the table queue)
     */
    @JsonPropertyOrder({"unit", "action", "expect", "detail", "before", "after", "input", "output", "counts"})
    public record UnitResult(String unit, Map<String, Object> before, Map<String, Object> after, String action, String detail,
                             String expect, Map<String, Object> input, String output, Map<String, Object> counts) {

        static UnitResult of(String unit, LedgerItem before, LedgerItem after, String action, String detail, InputRef input,
                             IngestOutcome outcome) {
            Map<String, Object> counts = null;
            if (outcome != null) {
                counts = new LinkedHashMap<>();
                counts.put("accepted", outcome.accepted());
                counts.put("rejected", outcome.rejected());
                counts.put("duplicates", outcome.duplicates());
            }
            Map<String, Object> inputView = input == null ? null : inputView(input, outcome == null ? null : outcome.sha256());
            return new UnitResult(unit, RepairService.ledgerView(before), RepairService.ledgerView(after), action, detail, null,
                    inputView, outcome == null ? null : outcome.publishedKey(), counts);
        }

        static UnitResult planned(String unit, LedgerItem before, String expect, InputRef input, String output, String sha256) {
            return new UnitResult(unit, RepairService.ledgerView(before), RepairService.ledgerView(before), "planned", null, expect,
                    input == null ? null : inputView(input, sha256), output, null);
        }

        static UnitResult notAttempted(String unit, String why) {
            return new UnitResult(unit, null, null, "not_attempted", why, null, null, null, null);
        }

        private static Map<String, Object> inputView(InputRef input, String sha256) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("bucket", input.bucket());
            view.put("key", input.key());
            view.put("version", input.versionId());
            view.put("size", input.size());
            if (sha256 != null) {
                view.put("sha256", sha256);
            }
            return view;
        }

        /** The unit was restored (or, for a dry run, planned). */
        public boolean succeeded() {
            return SUCCESS.contains(action);
        }
    }

    /** True when every unit reached succeeded (or, for a dry run, was planned) and none was left unreached. */
    @JsonProperty("succeeded")
    public boolean succeeded() {
        return notReached.isEmpty() && units.stream().allMatch(UnitResult::succeeded);
    }

    /**
     * The payload that continues this repair where it stopped (the units not reached, as a targeted list, so a
     * forward range is not expanded again), or null when nothing is left. A dry run's next page is a dry run too.
     */
    @JsonProperty("continuation")
    public RepairRequest continuation() {
        if (notReached.isEmpty()) {
            return null;
        }
        return new RepairRequest(request.dataset(), notReached, null, null, RepairRequest.Mode.TARGETED, request.dryRun(),
                request.force(), request.reason(), request.inputVersion(), request.action());
    }

    /** The per-unit table an operator reads in a terminal: unit, before, after, action, reason. */
    @JsonProperty("table")
    public String table() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"UNIT", "BEFORE", "AFTER", "ACTION", "REASON"});
        for (UnitResult u : units) {
            rows.add(new String[] {u.unit(), status(u.before()), status(u.after()),
                    u.expect() != null ? "plan: " + u.expect() : u.action(), u.detail() == null ? "" : u.detail()});
        }
        for (String unit : notReached) {
            rows.add(new String[] {unit, "", "", "not_reached", "stopped before the function's deadline; send the continuation"});
        }
        int[] widths = new int[5];
        for (String[] row : rows) {
            for (int i = 0; i < 4; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < 4; i++) {
                text.append(row[i]).append(" ".repeat(widths[i] - row[i].length() + 2));
            }
            text.append(row[4]).append('\n');
        }
        return text.toString();
    }

    private static String status(Map<String, Object> view) {
        if (view == null) {
            return "";
        }
        Object status = view.get("status");
        Object count = view.get("publish_count");
        return count == null || "NONE".equals(status) ? String.valueOf(status) : status + "(" + count + ")";
    }
}
