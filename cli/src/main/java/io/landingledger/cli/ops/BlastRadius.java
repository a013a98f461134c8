package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.ValidationResult;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A repair plan's blast radius, per unit: what the run reads, what it may write, and for a unit whose input changed
 * (or a forced one) how many rows a republish would add, remove and change against the current publish
 * ({@link RowDiff}: key hashes, bounded memory). The candidate's rows are the validator's canonical rows, validated
 * into the diff's sink and a discarding rejects sink: nothing is written anywhere but the diff's temporary files.
 */
final class BlastRadius {
    private final ObjectStore store;
    private final String lakeBucket;
    private final ValidationLimits limits;

    BlastRadius(ObjectStore store, String lakeBucket, ValidationLimits limits) {
        this.store = store;
        this.lakeBucket = lakeBucket;
        this.limits = limits;
    }

    Map<String, Object> of(DatasetContract contract, RepairResult.UnitResult planned, LedgerItem before, boolean force) throws IOException {
        Map<String, Object> radius = new LinkedHashMap<>();
        radius.put("unit", planned.unit());
        radius.put("expect", planned.expect() != null ? planned.expect() : planned.action());
        Map<String, Object> input = planned.input();
        radius.put("reads", input == null ? List.of() : List.of("s3://" + input.get("bucket") + "/" + input.get("key") + "?versionId=" + input.get("version")));
        String expect = String.valueOf(planned.expect());
        String publishedKey = LakeLayout.publishedKey(contract.dataset(), planned.unit());
        List<String> writes = new ArrayList<>();
        if (expect.startsWith("publish") || expect.startsWith("refuse") || force) {
            writes.add("s3://" + lakeBucket + "/" + publishedKey + " (only if it publishes)");
            writes.add("s3://" + lakeBucket + "/" + LakeLayout.QUARANTINE_PREFIX + contract.dataset() + "/... (only if lines are rejected)");
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit());
            writes.add("one history item");
        } else if (expect.startsWith(RepairService.TABLE_SUBMIT)) {
            writes.add("one message to the table queue (the table writer commits the standing publish to the dataset's table "
                    + "and records its snapshot on the ledger item)");
            writes.add("one history item (TABLE_SUBMITTED, with the reason)");
        } else if (expect.startsWith("skip")) {
            writes.add("one history item (REPAIR_SKIPPED, with the reason)");
        } else if (expect.startsWith("omit")) {
            if (planned.output() != null) {
                // a unit its cadence cannot name, published by an older build: landing repair removes its object first
                writes.add("s3://" + lakeBucket + "/" + planned.output() + " (deleted, with your credentials)");
            }
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit() + " (OMITTED)");
            writes.add("one history item (OMITTED, with the reason)");
        } else if (expect.equals("accept-empty")) {
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit() + " (empty_accepted)");
            writes.add("one history item (EMPTY_ACCEPTED, with the reason)");
        } else if (expect.equals("revoke-accept-empty")) {
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit() + " (empty_accepted removed)");
            writes.add("one history item (EMPTY_ACCEPTANCE_REVOKED, with the reason)");
        } else if (expect.equals("accept-volume")) {
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit() + " (volume_accepted)");
            writes.add("one history item (VOLUME_ACCEPTED, with the reason)");
        } else if (expect.equals("revoke-accept-volume")) {
            writes.add("ledger item " + contract.dataset() + "/" + planned.unit() + " (volume_accepted removed)");
            writes.add("one history item (VOLUME_ACCEPTANCE_REVOKED, with the reason)");
        }
        if (expect.startsWith("publish") && expect.contains(RepairService.TABLE_SUBMIT)) {
            writes.add("one message to the table queue (the table writer commits whatever publish stands)");
        }
        radius.put("may_write", writes);
        boolean inputChanged = input != null && (before == null || before.input() == null
                || !Objects.equals(before.input().versionId(), input.get("version")));
        boolean hasPublish = before != null && before.published() != null;
        if (input != null && hasPublish && (inputChanged || force || expect.contains("missing or changed"))) {
            radius.put("rows", diff(contract, before, input));
        } else if (input != null && !hasPublish && expect.startsWith("publish")) {
            radius.put("rows", "no current publish: every accepted row is new");
        }
        return radius;
    }

    private Object diff(DatasetContract contract, LedgerItem before, Map<String, Object> input) throws IOException {
        String publishedKey = before.published().key();
        Optional<StoredObject> head = store.head(lakeBucket, publishedKey);
        long accepted = before.published().accepted();
        long candidateSize = ((Number) input.get("size")).longValue();
        long estimate = accepted;
        if (head.isPresent() && head.get().size() > 0 && accepted > 0) {
            estimate = Math.max(accepted, candidateSize * accepted / head.get().size());
        }
        try (RowDiff diff = new RowDiff(contract.key(), estimate)) {
            boolean currentPresent = head.isPresent();
            if (currentPresent) {
                try (ObjectStore.OpenedObject current = store.open(lakeBucket, publishedKey, null)) {
                    diff.readCurrent(current.body());
                } catch (ObjectNotFoundException e) {
                    currentPresent = false; // deleted since the HEAD: counted against an empty unit
                }
            }
            ValidationResult result;
            try (ObjectStore.OpenedObject candidate = store.open((String) input.get("bucket"), (String) input.get("key"), (String) input.get("version"));
                 OutputStream sink = diff.candidate()) {
                result = new StreamingValidator(contract, limits).validate(candidate.body(), candidateSize, sink,
                        OutputStream.nullOutputStream(), LineSet.empty());
            } catch (ObjectNotFoundException e) {
                return "the input version is gone from the inbox (input_gone)";
            }
            if (result.refusal() != null) {
                return "a republish would be refused: " + result.refusal().code().name() + " (" + result.refusal().detail() + ")";
            }
            Map<String, Object> counts = new LinkedHashMap<>(RowDiff.toMap(diff.compare()));
            if (!currentPresent) {
                counts.put("note", "the current publish is missing from published/: counted against an empty unit");
            }
            return counts;
        }
    }
}
