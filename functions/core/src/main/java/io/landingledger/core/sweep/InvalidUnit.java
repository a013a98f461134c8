package io.landingledger.core.sweep;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A ledger item whose unit the dataset's cadence cannot name ({@link UnitCalendar#canName}: an impossible date such as
 * {@code 2026-02-30}), recorded before routing refused such files as UNIT_INVALID. No range holds it, so it is never
 * classified; status, the sweep's report and explain list it apart, each with the omission that takes it out of the
 * picture. One place for what is said about it.
 *
 * @param status        {@link #INVALID_UNIT} (fails completeness) or {@code OMITTED} once an operator omitted it
 * @param reason        {@code UNIT_INVALID}, or the operator's reason once omitted
 * @param detail        why it is not a unit, and what to do about it
 * @param omitCommand   the command that omits it, or null once omitted
 * @param publishedKey  where its publish lives under {@code published/} (the omission removes it)
 * @param publishCount  how often it was published
 */
public record InvalidUnit(String unit, String status, String reason, String detail, String omitCommand,
                          String publishedKey, long publishCount) {
    /** Not a {@link UnitStatus}: the unit is not one of the dataset's, so no classification applies. */
    public static final String INVALID_UNIT = "INVALID_UNIT";

    public static InvalidUnit of(DatasetContract contract, LedgerItem item) {
        boolean omitted = item.status() == LedgerStatus.OMITTED;
        String dataset = contract.dataset();
        String command = omitted ? null : omitCommand(dataset, item.unit());
        String detail = UnitCalendar.of(contract).whyNot(item.unit()) + " of " + dataset
                + (omitted ? "; omitted by an operator: " + item.reason()
                : "; recorded before routing refused such files. Take it out of the picture: " + command);
        return new InvalidUnit(item.unit(), omitted ? UnitStatus.OMITTED.name() : INVALID_UNIT,
                omitted ? item.reason() : "UNIT_INVALID", detail, command,
                LakeLayout.publishedKey(dataset, item.unit()), item.publishCount());
    }

    /**
     * The command that omits a unit its cadence cannot name (RepairService accepts it for an omission, and
     * {@code landing repair} removes its object from {@code published/} first).
     */
    public static String omitCommand(String dataset, String unit) {
        return "landing repair " + dataset + " " + unit + " --omit --reason \"misnamed file: not a unit\" --yes";
    }

    /** True until an operator omits it: it fails completeness, as status, sweep and explain say. */
    public boolean open() {
        return INVALID_UNIT.equals(status);
    }

    /** As the report's JSON and the sweep's answer list it. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("unit", unit);
        map.put("status", status);
        map.put("reason", reason);
        map.put("detail", detail);
        map.put("omit_command", omitCommand);
        map.put("published_key", publishedKey);
        map.put("publish_count", publishCount);
        return map;
    }
}
