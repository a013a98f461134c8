package io.landingledger.core.ingest;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code InputDecision} event's source, detail-type and {@code detail}, as events/input-decision.schema.json
 * states them: one detail-type for every decision, the decision a field, so a producer's one rule on its datasets
 * hears every kind (a decision added later included) and narrows by {@code detail.decision} when it wants to.
 * Counts are JSON numbers (the validator writes them, unlike the pipes' ledger-stream strings), so a rule can match
 * {@code "rejected": [{"numeric": [">", 0]}]}.
 */
public final class InputDecisionEvent {
    public static final String DETAIL_TYPE = "InputDecision";
    public static final String SOURCE = "landing-ledger";

    private InputDecisionEvent() {
    }

    /** The event's detail: names, codes and counts, never a value of a row. Unknown parts are null. */
    public static Map<String, Object> detail(InputDecision decision, Instant decidedAt) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("decision", decision.decision().wireName());
        detail.put("dataset", decision.dataset());
        detail.put("unit", decision.unit());
        detail.put("input_bucket", decision.bucket());
        detail.put("input_key", decision.key());
        detail.put("input_version_id", decision.versionId());
        detail.put("reasons", decision.reasons());
        detail.put("accepted", decision.accepted());
        detail.put("rejected", decision.rejected());
        detail.put("duplicates", decision.duplicates());
        detail.put("run_id", decision.runId());
        detail.put("run_kind", decision.runKind());
        detail.put("contract_version", decision.contractVersion());
        detail.put("decided_at", decidedAt.toString());
        if (decision.expectedRows() != null) {
            Map<String, Object> band = new LinkedHashMap<>();
            band.put("low", decision.expectedRows().low());
            band.put("high", decision.expectedRows().high());
            detail.put("expected_rows", band);
        }
        return detail;
    }
}
