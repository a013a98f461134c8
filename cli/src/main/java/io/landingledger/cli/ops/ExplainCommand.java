package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code landing explain DATASET UNIT}: the incident bundle in one answer, read-only. Names, versions, hashes, counts,
 * codes and line numbers only: a refusal is re-derived by validating the refused version into discarding sinks
 * (its detail names fields, limits and lines, never a value), quarantine objects are read for their reason codes and
 * line numbers only, and published objects are HEADed (metadata), never read.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"One unit's incident bundle: the sweep's classification and why, the ledger item and its history, every inbox",
                "version of the unit, the refusal code and detail with line numbers, quarantine reason counts, the published object's",
                "metadata, on a stack with tables the unit's table snapshot (in step or behind) and the analyst's query of it, and the",
                "exact repair command that would fix it, with its dry run. Never row content."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:explained (the unit is OK, PENDING or OMITTED)",
                "1:explained (the unit needs attention, INVALID_UNIT included)",
                "2:usage error, no stack found, or an internal error"})
public final class ExplainCommand extends UnitCommand {
    static final int MAX_LINES = 20;

    @Mixin
    JsonOption output;

    @Override
    @SuppressWarnings("unchecked")
    int run() throws Exception {
        DatasetContract contract = contract(dataset);
        Instant now = Instant.now();
        if (!UnitCalendar.of(contract).canName(unit)) {
            Optional<LedgerItem> held = dependencies.ledger().get(dataset, unit);
            if (held.isPresent()) {
                return explainInvalid(contract, held.get());
            }
        }
        DatasetReport report = dependencies.sweep().classify(contract, CompletenessSweep.range(contract, unit, unit, now), now);
        UnitReport classified = report.units().stream().filter(u -> u.unit().equals(unit)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("\"" + unit + "\" is not a unit of " + dataset));
        LedgerItem item = classified.item();
        Map<String, Object> unitMap = classified.toMap();

        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("dataset", dataset);
        doc.put("unit", unit);
        doc.put("target", resources.source());
        Map<String, Object> sweep = new LinkedHashMap<>();
        sweep.put("status", classified.status().name());
        sweep.put("flags", unitMap.get("flags"));
        sweep.put("reason", classified.reason());
        sweep.put("detail", classified.detail());
        sweep.put("deadline", unitMap.get("deadline"));
        sweep.put("age_seconds", classified.ageSeconds());
        sweep.put("published_after_deadline_seconds", classified.publishedAfterDeadlineSeconds());
        sweep.put("unpublished_age_seconds", classified.unpublishedAgeSeconds());
        // the volume figures: the rows expected of the unit (band, median, basis) and the rows it holds
        sweep.put("volume", classified.volumeMap());
        doc.put("sweep", sweep);
        doc.put("ledger", unitMap.get("ledger"));
        doc.put("history", HistoryCommand.items(dependencies.ledger().history(dataset, unit)));
        doc.put("inbox_versions", inboxVersions(item));
        doc.put("refusal", refusal(contract, item));
        doc.put("quarantine", quarantine(item));
        doc.put("published", published(contract));
        // the unit's table, on a stack that publishes into tables (or wherever the writer recorded something)
        boolean tables = targetHasTables() || item != null && item.table() != null;
        doc.put("table", tables ? TableView.explain(contract, item, TableCatalogs.names(resources)) : null);
        Map<String, Object> fix = fix(classified);
        doc.put("repair", fix);
        if (output.json) {
            printJson(doc);
        } else {
            print(doc);
        }
        return classified.status().failsCompleteness() ? 1 : 0;
    }

    /**
     * A unit the cadence cannot name that the ledger holds (recorded before routing refused such files as
     * UNIT_INVALID): never classified; its row as status lists it, its history, and the omission that removes it.
     */
    private int explainInvalid(DatasetContract contract, LedgerItem item) throws Exception {
        Map<String, Object> row = StatusCommand.invalidRow(contract, item);
        boolean omitted = item.status() == LedgerStatus.OMITTED;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("dataset", dataset);
        doc.put("unit", unit);
        doc.put("target", resources.source());
        doc.put("sweep", Map.of("status", row.get("status"), "reason", row.get("reason"), "detail", row.get("detail")));
        doc.put("history", HistoryCommand.items(dependencies.ledger().history(dataset, unit)));
        if (!omitted) {
            doc.put("repair", Map.of("command", StatusCommand.omitCommand(dataset, unit)));
        }
        if (output.json) {
            printJson(doc);
        } else {
            out.println(dataset + " " + unit + ": " + row.get("status") + " (" + row.get("reason") + ")");
            out.println("  " + row.get("detail"));
        }
        return omitted ? 0 : 1;
    }

    private List<Map<String, Object>> inboxVersions(LedgerItem item) {
        UnitRouter router = dependencies.router();
        List<Map<String, Object>> versions = new ArrayList<>();
        for (ObjectStore.ListedVersion version : dependencies.objectStore().versions(resources.inboxBucket(), dataset + "/")) {
            if (!(router.route(version.key()) instanceof UnitRouter.Routed routed) || !routed.unit().equals(unit)
                    || !routed.contract().dataset().equals(dataset)) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("key", version.key());
            v.put("version", version.versionId());
            v.put("etag", version.etag());
            v.put("size", version.size());
            v.put("last_modified", version.lastModified() == null ? null : version.lastModified().toString());
            v.put("latest", version.latest());
            String role = null;
            if (item != null && item.input() != null && version.versionId().equals(item.input().versionId())) {
                role = item.published() != null ? "the publish's input" : "recorded (" + item.status().name() + ")";
            }
            if (item != null && item.lastAttempt() != null && item.lastAttempt().read(version.key(), version.versionId())) {
                role = (role == null ? "" : role + "; ") + "last attempt: " + item.lastAttempt().outcome();
            }
            v.put("ledger", role);
            versions.add(v);
        }
        return versions;
    }

    /** The refusal, re-derived from the refused version (nothing written): code, detail and line numbers. */
    private Map<String, Object> refusal(DatasetContract contract, LedgerItem item) throws Exception {
        if (item == null) {
            return null;
        }
        String key;
        String version;
        if (item.lastAttempt() != null && item.lastAttempt().refused()) {
            key = item.lastAttempt().inputKey() != null ? item.lastAttempt().inputKey() : item.input() == null ? null : item.input().key();
            version = item.lastAttempt().inputVersionId();
        } else if (item.status() == LedgerStatus.REFUSED && item.input() != null) {
            key = item.input().key();
            version = item.input().versionId();
        } else {
            return null;
        }
        Map<String, Object> refusal = new LinkedHashMap<>();
        refusal.put("code", item.lastAttempt() != null && item.lastAttempt().reason() != null ? item.lastAttempt().reason() : item.reason());
        refusal.put("input", key + "@" + version);
        try (ObjectStore.OpenedObject opened = dependencies.objectStore().open(resources.inboxBucket(), key, version)) {
            ValidationResult result = new StreamingValidator(contract, dependencies.config().validationLimits()).validate(opened.body(),
                    opened.object().size(), OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), LineSet.empty());
            if (result.refusal() != null) {
                refusal.put("code", result.refusal().code().name());
                refusal.put("detail", result.refusal().detail());
                refusal.put("lines", result.refusal().lines());
            } else {
                refusal.put("detail", "the contract in force (version " + contract.version() + ") accepts this input now: a repair would publish it");
            }
            refusal.put("rejected_lines", result.rejected());
            refusal.put("reasons", result.reasons());
        } catch (ObjectNotFoundException e) {
            refusal.put("detail", "the refused version is no longer in the inbox");
        }
        return refusal;
    }

    /** The quarantine object's reason codes, counts and line numbers (never any other field of it). */
    private Map<String, Object> quarantine(LedgerItem item) throws Exception {
        if (item == null || item.published() == null || item.published().quarantineKey() == null) {
            return null;
        }
        String key = item.published().quarantineKey();
        Map<String, Object> quarantine = new LinkedHashMap<>();
        quarantine.put("key", key);
        Map<String, Long> counts = new TreeMap<>();
        Map<String, List<Long>> lines = new TreeMap<>();
        try (ObjectStore.OpenedObject opened = dependencies.objectStore().open(resources.lakeBucket(), key, null);
             BufferedReader reader = new BufferedReader(new InputStreamReader(opened.body(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                Map<String, Object> record = JSON.std.mapFrom(line);
                String reason = String.valueOf(record.get("reason"));
                counts.merge(reason, 1L, Long::sum);
                List<Long> at = lines.computeIfAbsent(reason, r -> new ArrayList<>());
                if (at.size() < MAX_LINES && record.get("line") instanceof Number n) {
                    at.add(n.longValue());
                }
            }
        } catch (ObjectNotFoundException e) {
            quarantine.put("missing", true);
        }
        quarantine.put("reasons", counts);
        quarantine.put("lines", lines);
        return quarantine;
    }

    /** HEAD of the published object: ETag, size, and the protocol's metadata (run, input, counts). */
    private Map<String, Object> published(DatasetContract contract) {
        String key = LakeLayout.publishedKey(dataset, unit);
        Optional<StoredObject> head = dependencies.objectStore().head(resources.lakeBucket(), key);
        Map<String, Object> published = new LinkedHashMap<>();
        published.put("key", key);
        if (head.isEmpty()) {
            published.put("present", false);
            return published;
        }
        published.put("present", true);
        published.put("etag", head.get().etag());
        published.put("size", head.get().size());
        published.put("last_modified", head.get().lastModified() == null ? null : head.get().lastModified().toString());
        published.put("metadata", new TreeMap<>(head.get().metadata()));
        return published;
    }

    /**
     * The one action that closes the unit's status, as an exact command, and its dry run (which writes nothing); for a
     * status that does not fail completeness, what (if anything) is left to do.
     */
    private Map<String, Object> fix(UnitReport classified) {
        Map<String, Object> fix = new LinkedHashMap<>();
        UnitStatus status = classified.status();
        String why = status.name() + " " + (classified.reason() == null ? "" : classified.reason());
        String inputVersion = "recorded";
        String action = "repair";
        String advice;
        switch (status) {
            case OK, PENDING, OMITTED -> {
                if (status == UnitStatus.OK && classified.item() != null && classified.item().volumeAccepted() != null) {
                    fix.put("advice", "complete: its row count was accepted by an operator. To take the acceptance back: "
                            + RepairCommand.repairCommand(dataset, List.of(unit), null, null, "REVOKE accepted volume", true, false,
                            false, "recorded", "revoke-accept-volume"));
                    return fix;
                }
                fix.put("advice", status == UnitStatus.OK ? "nothing to repair" : status == UnitStatus.PENDING
                        ? "no input yet and the deadline has not passed: wait" : "omitted by an operator: nothing to repair");
                return fix;
            }
            case RESTATED -> {
                List<String> behind = classified.consumersBehind();
                fix.put("advice", "complete: the rows changed and the new ones stand (each publish is in the history). "
                        + (behind.isEmpty() ? "No consumer is behind." : "Consumers that read the older rows rerun, then acknowledge: "
                        + String.join("; ", behind.stream().map(c -> "landing ack " + dataset + " " + unit + " --consumer " + c).toList())));
                return fix;
            }
            case EMPTY_ACCEPTED -> {
                fix.put("advice", "complete: accepted as an empty unit. To take an operator's acceptance back: "
                        + RepairCommand.repairCommand(dataset, List.of(unit), null, null, "REVOKE " + why.strip(), true, false, false,
                        "recorded", "revoke-accept-empty"));
                return fix;
            }
            case SUSPECT_VOLUME -> {
                action = "accept-volume";
                advice = "published with a row count outside the expected band (a truncated or duplicated export?): ask the "
                        + "producer to republish the full file (the new rows are judged afresh on arrival); if the count is what "
                        + "the unit really held, accept it (recorded with the reason, reversible with --revoke)";
            }
            case EMPTY -> {
                action = "accept-empty";
                advice = "published with 0 rows: if the day is legitimately empty, accept it (recorded with the reason, reversible with "
                        + "--revoke); if rows are missing, the producer's real file publishes on arrival";
            }
            case MISSING -> {
                action = "omit";
                advice = "no input arrived after the deadline: ask the producer for the file (it publishes on arrival); "
                        + "if the unit will never come, record the omission";
            }
            case UNPROCESSED -> {
                inputVersion = "latest";
                advice = "the inbox holds a newer input than the ledger recorded (a lost event): process it "
                        + "(`landing sweep " + dataset + "` re-drives it too)";
            }
            case LEDGER_DRIFT -> advice = "the ledger and published/ disagree: repairing the recorded input restores the publish the ledger names";
            case TABLE_BEHIND -> advice = "the publish stands but the dataset's table does not hold it: the repair submits the unit to "
                    + "the table writer, and the unit closes when the writer records its snapshot (`landing sweep " + dataset
                    + "` re-drives it too, with autoRedrive)";
            case REFUSED -> {
                boolean newer = classified.inbox() != null && classified.item() != null && classified.item().lastAttempt() != null
                        && !classified.item().lastAttempt().read(classified.inbox().key(), classified.inbox().versionId());
                inputVersion = "latest";
                advice = newer ? "a newer input is in the inbox: process it"
                        : "the newest input was refused: the producer must send a corrected file; once it is in the inbox this "
                        + "command processes it (until then its dry run says refuse-again)";
            }
            default -> advice = "";
        }
        String command = RepairCommand.repairCommand(dataset, List.of(unit), null, null, why.strip(), true, false, false, inputVersion, action);
        fix.put("advice", advice);
        fix.put("command", command);
        RepairRequest payload = new RepairRequest(dataset, List.of(unit), null, null, RepairRequest.Mode.TARGETED, true, false,
                why.strip(), RepairRequest.InputVersion.of(inputVersion), RepairRequest.Action.of(action));
        fix.put("dry_run", repairJob(payload).documents());
        return fix;
    }

    @SuppressWarnings("unchecked")
    private void print(Map<String, Object> doc) {
        Map<String, Object> sweep = (Map<String, Object>) doc.get("sweep");
        out.println(dataset + "/" + unit + ": " + sweep.get("status") + " " + text(sweep.get("reason")) + " (flags " + sweep.get("flags") + ")");
        if (sweep.get("detail") != null) {
            out.println("  why: " + sweep.get("detail"));
        }
        out.println("  deadline " + text(sweep.get("deadline")) + ", age " + duration((Long) sweep.get("age_seconds")) + ", late "
                + duration((Long) sweep.get("published_after_deadline_seconds")) + ", owed for " + duration((Long) sweep.get("unpublished_age_seconds")));
        Map<String, Object> volume = (Map<String, Object>) sweep.get("volume");
        if (volume != null) {
            out.println("  volume: " + volume.get("actual") + " rows, expected " + volume.get("low") + ".."
                    + (volume.get("high") == null ? "" : volume.get("high")) + " (" + volume.get("basis") + ": "
                    + volume.get("description") + ")" + (Boolean.TRUE.equals(volume.get("suspect")) ? " SUSPECT" : "")
                    + (volume.get("accepted") == null ? "" : "; accepted by an operator: " + volume.get("accepted")));
        }
        out.println();
        Map<String, Object> ledger = (Map<String, Object>) doc.get("ledger");
        out.println("Ledger item:");
        if (ledger == null) {
            out.println("  none");
        } else {
            ledger.forEach((k, v) -> out.println("  " + k + ": " + text(v)));
        }
        out.println();
        out.println("History (oldest first):");
        List<Map<String, Object>> history = (List<Map<String, Object>>) doc.get("history");
        if (history.isEmpty()) {
            out.println("  none");
        }
        for (Map<String, Object> h : history) {
            out.println("  " + h.get("at") + "  " + h.get("action") + "  " + h.get("run_kind") + "  " + text(h.get("input")) + "  "
                    + text(h.get("reason")));
        }
        out.println();
        out.println("Inbox versions (newest first per key):");
        List<Map<String, Object>> versions = (List<Map<String, Object>>) doc.get("inbox_versions");
        if (versions.isEmpty()) {
            out.println("  none");
        }
        for (Map<String, Object> v : versions) {
            out.println("  " + v.get("key") + "@" + v.get("version") + "  " + v.get("size") + " bytes  " + v.get("last_modified")
                    + (Boolean.TRUE.equals(v.get("latest")) ? "  latest" : "") + (v.get("ledger") != null ? "  [" + v.get("ledger") + "]" : ""));
        }
        Map<String, Object> refusal = (Map<String, Object>) doc.get("refusal");
        if (refusal != null) {
            out.println();
            out.println("Refusal: " + refusal.get("code") + " on " + refusal.get("input"));
            out.println("  " + text(refusal.get("detail")));
            if (refusal.get("lines") != null) {
                out.println("  lines " + refusal.get("lines"));
            }
        }
        Map<String, Object> quarantine = (Map<String, Object>) doc.get("quarantine");
        if (quarantine != null) {
            out.println();
            out.println("Quarantine " + quarantine.get("key") + ":");
            ((Map<String, Object>) quarantine.get("reasons")).forEach((reason, count) -> out.println("  " + reason + " x" + count + " at lines "
                    + ((Map<String, Object>) quarantine.get("lines")).get(reason)));
        }
        Map<String, Object> published = (Map<String, Object>) doc.get("published");
        out.println();
        if (Boolean.TRUE.equals(published.get("present"))) {
            out.println("Published " + published.get("key") + ": etag " + published.get("etag") + ", " + published.get("size") + " bytes, "
                    + published.get("last_modified"));
            ((Map<String, Object>) published.get("metadata")).forEach((k, v) -> out.println("  " + k + ": " + v));
        } else {
            out.println("Published " + published.get("key") + ": not present");
        }
        if (doc.get("table") != null) {
            out.println();
            TableView.lines((Map<String, Object>) doc.get("table")).forEach(out::println);
        }
        Map<String, Object> fix = (Map<String, Object>) doc.get("repair");
        out.println();
        out.println("Repair: " + fix.get("advice"));
        if (fix.get("command") != null) {
            out.println("  " + fix.get("command"));
            for (Object plan : (List<Object>) fix.get("dry_run")) {
                for (String line : String.valueOf(((Map<String, Object>) plan).get("table")).split("\n")) {
                    out.println("    " + line);
                }
            }
        }
    }
}
