package io.landingledger.lambda.adapters;

import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.EmptyAcceptance;
import io.landingledger.core.ledger.VolumeAcceptance;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.HistoryKeyTakenException;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.lambda.LedgerTables;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Ledger} on DynamoDB. One {@code Ledger} item per (dataset, unit), flat attributes so conditions can name
 * them; one immutable {@code LedgerHistory} item per publish, refusal or omission. The ledger update and the history
 * put are one TransactWriteItems, the update conditioned on the revision the writer read ({@link #CONDITION_NEW_ITEM}
 * or {@link #CONDITION_SAME_REVISION}: whatever its status, an item changes only from the state its writer decided
 * on), the put on a new key ({@link #CONDITION_NEW_HISTORY}). A stale revision and a TransactionConflict (another
 * transaction holds the item: a cancellation reason of TransactWriteItems, or TransactionConflictException from
 * UpdateItem) are a {@link LedgerConflictException} carrying the item as it is now; the history put's condition
 * failing alone is a {@link HistoryKeyTakenException}.
 *
 * <p>Every PutItem on the history table, in a transaction or alone, carries {@link #CONDITION_NEW_HISTORY}: IAM
 * cannot require it (the functions' roles hold dynamodb:PutItem on the table, and no IAM condition key sees whether
 * the item exists), so this class is where "history is never rewritten" is kept (SECURITY.md).
 */
public final class DynamoDbLedger implements Ledger {
    /** The item does not exist (or was written before items carried a revision, which reads as revision 0). */
    static final String CONDITION_NEW_ITEM = "attribute_not_exists(revision)";
    /** The item is still at the revision the writer read. */
    static final String CONDITION_SAME_REVISION = "revision = :expected_revision";
    /** History items are created once: a put never replaces one (the history table's key attributes). */
    static final String CONDITION_NEW_HISTORY = "attribute_not_exists(" + LedgerTables.HISTORY_PARTITION_KEY
            + ") AND attribute_not_exists(" + LedgerTables.HISTORY_SORT_KEY + ")";

    private final DynamoDbClient dynamo;
    private final String ledgerTable;
    private final String historyTable;
    private final UnitRangeQuery units;

    public DynamoDbLedger(DynamoDbClient dynamo, String ledgerTable, String historyTable) {
        this.dynamo = dynamo;
        this.ledgerTable = ledgerTable;
        this.historyTable = historyTable;
        this.units = new UnitRangeQuery(dynamo, ledgerTable, "dataset", "unit");
    }

    @Override
    public Optional<LedgerItem> get(String dataset, String unit) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(ledgerTable).consistentRead(true)
                .key(Map.of("dataset", s(dataset), "unit", s(unit)))).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(toItem(item));
    }

    @Override
    public void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException {
        Update update = ledgerUpdate(item, expectedRevision);
        if (history == null) {
            try {
                dynamo.updateItem(UpdateItemRequest.builder().tableName(update.tableName()).key(update.key())
                        .updateExpression(update.updateExpression()).conditionExpression(update.conditionExpression())
                        .expressionAttributeNames(update.expressionAttributeNames())
                        .expressionAttributeValues(update.expressionAttributeValues())
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build());
                return;
            } catch (ConditionalCheckFailedException e) {
                throw conflict(item, e.item());
            } catch (TransactionConflictException e) {
                // a transaction on the item is in flight: as for a cancelled transaction, re-read and decide again
                throw conflict(item, dynamo.getItem(r -> r.tableName(ledgerTable).consistentRead(true).key(update.key())).item());
            }
        }
        Put put = Put.builder().tableName(historyTable).item(historyAttributes(history))
                .conditionExpression(CONDITION_NEW_HISTORY).build();
        try {
            dynamo.transactWriteItems(r -> r.transactItems(
                    TransactWriteItem.builder().update(update).build(),
                    TransactWriteItem.builder().put(put).build()));
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.cancellationReasons();
            if (reasons == null || reasons.isEmpty()) {
                throw e;
            }
            for (CancellationReason reason : reasons) {
                String code = reason.code();
                // ConditionalCheckFailed: another run changed the item; TransactionConflict: one is changing it now.
                // Both mean: re-read and decide again. Anything else (throttling, validation) is a fault.
                if (code != null && !"None".equals(code) && !"ConditionalCheckFailed".equals(code) && !"TransactionConflict".equals(code)) {
                    throw e;
                }
            }
            // the history key exists while the item is at the revision read: no transaction of this item wrote it
            if (reasons.size() == 2 && passed(reasons.get(0))
                    && "ConditionalCheckFailed".equals(reasons.get(1).code())) {
                throw new HistoryKeyTakenException(history, "the ledger item is still at revision " + expectedRevision);
            }
            Map<String, AttributeValue> old = reasons.get(0).item();
            if (old == null || old.isEmpty()) {
                old = dynamo.getItem(r -> r.tableName(ledgerTable).consistentRead(true).key(update.key())).item();
            }
            throw conflict(item, old);
        }
    }

    /** A transaction item whose condition held (DynamoDB answers "None", or no code, for it). */
    private static boolean passed(CancellationReason reason) {
        return reason.code() == null || "None".equals(reason.code());
    }

    /**
     * An existing key is success when it holds this very entry (the SDK's retry of a put whose answer was lost) and
     * {@link HistoryKeyTakenException} otherwise; the stored item is never replaced. The item that failed the condition
     * comes back with the refusal (ReturnValuesOnConditionCheckFailure ALL_OLD: in the same request, no separate read).
     */
    @Override
    public void appendHistory(HistoryEntry history) {
        try {
            dynamo.putItem(r -> r.tableName(historyTable).item(historyAttributes(history))
                    .conditionExpression(CONDITION_NEW_HISTORY)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
        } catch (ConditionalCheckFailedException e) {
            if (!holds(e.item(), history)) {
                throw new HistoryKeyTakenException(history, "with other content");
            }
        }
    }

    /** The stored history item is {@code entry}; one that does not even read as an entry is not. */
    private static boolean holds(Map<String, AttributeValue> stored, HistoryEntry entry) {
        if (stored == null || stored.isEmpty()) {
            return false;
        }
        try {
            return entry.equals(toHistory(stored)) && historyAttributes(entry).equals(stored);
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    private static LedgerConflictException conflict(LedgerItem attempted, Map<String, AttributeValue> old) {
        LedgerItem current = old == null || old.isEmpty() ? null : toItem(old);
        return new LedgerConflictException("the ledger item " + attempted.dataset() + "/" + attempted.unit()
                + " changed since it was read", current);
    }

    /**
     * An update expression that SETs each of {@code attributeNames} present in {@code attributes} and REMOVEs the
     * absent ones, its placeholders ({@code #<prefix>N}, {@code :<prefix>N}) added to {@code names} and {@code values}.
     */
    private static String setOrRemove(List<String> attributeNames, Map<String, AttributeValue> attributes, String prefix,
                                      Map<String, String> names, Map<String, AttributeValue> values) {
        List<String> sets = new ArrayList<>();
        List<String> removes = new ArrayList<>();
        int i = 0;
        for (String name : attributeNames) {
            String placeholder = "#" + prefix + i;
            names.put(placeholder, name);
            AttributeValue value = attributes.get(name);
            if (value != null) {
                values.put(":" + prefix + i, value);
                sets.add(placeholder + " = :" + prefix + i);
            } else {
                removes.add(placeholder);
            }
            i++;
        }
        return ((sets.isEmpty() ? "" : "SET " + String.join(", ", sets))
                + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes))).strip();
    }

    /** The conditional update of the ledger item: SET every present attribute, REMOVE the absent ones. */
    Update ledgerUpdate(LedgerItem item, long expectedRevision) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        String expression = setOrRemove(LEDGER_ATTRIBUTES, ledgerAttributes(item.withRevision(expectedRevision + 1)), "a",
                names, values);
        String condition = CONDITION_NEW_ITEM;
        if (expectedRevision > 0) {
            condition = CONDITION_SAME_REVISION;
            values.put(":expected_revision", n(expectedRevision));
        }
        return Update.builder().tableName(ledgerTable)
                .key(Map.of("dataset", s(item.dataset()), "unit", s(item.unit())))
                .updateExpression(expression).conditionExpression(condition)
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    }

    /**
     * One UpdateItem (or, with a history entry, one TransactWriteItems with the history put) that SETs the present
     * {@link #TABLE_ATTRIBUTES} and REMOVEs the absent ones, conditioned on {@link #CONDITION_STANDING_PUBLISH}; the
     * revision is not touched. A failed condition on the item is false; on the history key alone,
     * {@link HistoryKeyTakenException}; anything else, a TransactionConflict included, is a fault the caller lets
     * propagate (the table writer reads the ledger again and tries once more).
     */
    @Override
    public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                               TableState state, HistoryEntry history) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        String expression = setOrRemove(TABLE_ATTRIBUTES, tableAttributes(state), "t", names, values);
        names.put("#status", "status");
        names.put("#run_id", "run_id");
        names.put("#content_sha256", "content_sha256");
        values.put(":published", s(LedgerStatus.PUBLISHED.name()));
        values.put(":run_id", s(expectedRunId == null ? "" : expectedRunId));
        values.put(":content_sha256", s(expectedSha256 == null ? "" : expectedSha256));
        Update update = Update.builder().tableName(ledgerTable)
                .key(Map.of("dataset", s(dataset), "unit", s(unit)))
                .updateExpression(expression).conditionExpression(CONDITION_STANDING_PUBLISH)
                .expressionAttributeNames(names).expressionAttributeValues(values).build();
        if (history == null) {
            try {
                dynamo.updateItem(UpdateItemRequest.builder().tableName(update.tableName()).key(update.key())
                        .updateExpression(update.updateExpression()).conditionExpression(update.conditionExpression())
                        .expressionAttributeNames(update.expressionAttributeNames())
                        .expressionAttributeValues(update.expressionAttributeValues()).build());
                return true;
            } catch (ConditionalCheckFailedException e) {
                return false;
            }
        }
        Put put = Put.builder().tableName(historyTable).item(historyAttributes(history))
                .conditionExpression(CONDITION_NEW_HISTORY).build();
        try {
            dynamo.transactWriteItems(r -> r.transactItems(
                    TransactWriteItem.builder().update(update).build(),
                    TransactWriteItem.builder().put(put).build()));
            return true;
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.cancellationReasons();
            if (reasons == null || reasons.size() != 2) {
                throw e;
            }
            String item = reasons.get(0).code();
            String entry = reasons.get(1).code();
            if ("ConditionalCheckFailed".equals(item)) {
                return false;
            }
            if (passed(reasons.get(0)) && "ConditionalCheckFailed".equals(entry)) {
                throw new HistoryKeyTakenException(history, "the ledger item still stands on the publish");
            }
            throw e;
        }
    }

    @Override
    public List<HistoryEntry> history(String dataset, String unit) {
        List<HistoryEntry> entries = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder query = QueryRequest.builder().tableName(historyTable).consistentRead(true)
                    .keyConditionExpression(LedgerTables.HISTORY_PARTITION_KEY + " = :pk")
                    .expressionAttributeValues(Map.of(":pk", s(dataset + "#" + unit)));
            if (start != null) {
                query.exclusiveStartKey(start);
            }
            QueryResponse page = dynamo.query(query.build());
            page.items().forEach(item -> entries.add(toHistory(item)));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return entries;
    }

    @Override
    public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
        List<LedgerItem> items = new ArrayList<>();
        units.items(dataset, fromUnit, toUnit).forEach(item -> items.add(toItem(item)));
        return items;
    }

    // ---- mapping ----

    /** The item stands on the publish a table state describes (the attribute names are placeholders). */
    static final String CONDITION_STANDING_PUBLISH =
            "#status = :published AND #run_id = :run_id AND #content_sha256 = :content_sha256";

    /**
     * The table writer's attributes, written only by {@link #recordTable}: {@link #write}'s update names none of them,
     * so every ledger write keeps them as they are.
     */
    static final List<String> TABLE_ATTRIBUTES = List.of("table_snapshot_id", "table_run_id",
            "table_content_sha256", "table_committed_at", "table_last_error", "table_failed_at");

    static Map<String, AttributeValue> tableAttributes(TableState state) {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        if (state == null) {
            return a;
        }
        if (state.snapshotId() != null) {
            a.put("table_snapshot_id", n(state.snapshotId()));
        }
        putIfPresent(a, "table_run_id", state.runId());
        putIfPresent(a, "table_content_sha256", state.contentSha256());
        putIfPresent(a, "table_committed_at", str(state.committedAt()));
        putIfPresent(a, "table_last_error", state.lastError());
        putIfPresent(a, "table_failed_at", str(state.failedAt()));
        return a;
    }

    private static TableState tableState(Map<String, AttributeValue> a) {
        if (TABLE_ATTRIBUTES.stream().noneMatch(a::containsKey)) {
            return null;
        }
        AttributeValue snapshot = a.get("table_snapshot_id");
        return new TableState(snapshot == null || snapshot.n() == null ? null : Long.valueOf(snapshot.n()),
                text(a, "table_run_id"), text(a, "table_content_sha256"), instant(a, "table_committed_at"),
                text(a, "table_last_error"), instant(a, "table_failed_at"));
    }

    /** Every non-key attribute of a ledger item, in the order the update expression lists them. */
    static final List<String> LEDGER_ATTRIBUTES = List.of("status", "input_bucket", "input_key", "input_version_id",
            "input_etag", "input_sha256", "input_size", "input_sequencer", "input_last_modified", "published_key",
            "published_etag", "accepted", "rejected", "duplicates", "quarantine_key", "run_id", "run_kind",
            "contract_version", "publish_count", "first_published_at", "published_at", "last_attempt", "reason", "revision",
            "content_sha256", "restatements", "content_run_id", "content_published_at", "empty_accepted", "volume_accepted");

    static Map<String, AttributeValue> ledgerAttributes(LedgerItem item) {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("dataset", s(item.dataset()));
        a.put("unit", s(item.unit()));
        a.put("status", s(item.status().name()));
        putInput(a, item.input());
        PublishedRef p = item.published();
        if (p != null) {
            putIfPresent(a, "published_key", p.key());
            putIfPresent(a, "published_etag", p.etag());
            a.put("accepted", n(p.accepted()));
            a.put("rejected", n(p.rejected()));
            a.put("duplicates", n(p.duplicates()));
            putIfPresent(a, "quarantine_key", p.quarantineKey());
            putIfPresent(a, "content_sha256", p.contentSha256());
        }
        putIfPresent(a, "run_id", item.runId());
        if (item.runKind() != null) {
            a.put("run_kind", s(item.runKind().name()));
        }
        a.put("contract_version", n(item.contractVersion()));
        a.put("publish_count", n(item.publishCount()));
        putIfPresent(a, "first_published_at", str(item.firstPublishedAt()));
        putIfPresent(a, "published_at", str(item.publishedAt()));
        LastAttempt last = item.lastAttempt();
        if (last != null) {
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            putIfPresent(m, "at", str(last.at()));
            putIfPresent(m, "run_id", last.runId());
            if (last.runKind() != null) {
                m.put("run_kind", s(last.runKind().name()));
            }
            putIfPresent(m, "outcome", last.outcome() == null ? null : last.outcome().name());
            putIfPresent(m, "reason", last.reason());
            putIfPresent(m, "input_version_id", last.inputVersionId());
            putIfPresent(m, "input_sha256", last.inputSha256());
            putIfPresent(m, "input_key", last.inputKey());
            a.put("last_attempt", AttributeValue.fromM(m));
        }
        putIfPresent(a, "reason", item.reason());
        a.put("revision", n(item.revision()));
        a.put("restatements", n(item.restatements()));
        putIfPresent(a, "content_run_id", item.contentRunId());
        putIfPresent(a, "content_published_at", str(item.contentPublishedAt()));
        EmptyAcceptance accepted = item.emptyAccepted();
        if (accepted != null) {
            a.put("empty_accepted", AttributeValue.fromM(Map.of("at", s(accepted.at().toString()), "run_id", s(accepted.runId()),
                    "reason", s(accepted.reason()))));
        }
        VolumeAcceptance volume = item.volumeAccepted();
        if (volume != null) {
            a.put("volume_accepted", AttributeValue.fromM(Map.of("at", s(volume.at().toString()),
                    "run_id", s(volume.runId()), "reason", s(volume.reason()))));
        }
        a.putAll(tableAttributes(item.table())); // what a seeded item holds; write's update never names them
        return a;
    }

    private static void putInput(Map<String, AttributeValue> a, InputIdentity in) {
        if (in == null) {
            return;
        }
        putIfPresent(a, "input_bucket", in.bucket());
        putIfPresent(a, "input_key", in.key());
        putIfPresent(a, "input_version_id", in.versionId());
        putIfPresent(a, "input_etag", in.etag());
        putIfPresent(a, "input_sha256", in.sha256());
        a.put("input_size", n(in.size()));
        putIfPresent(a, "input_sequencer", in.sequencer());
        putIfPresent(a, "input_last_modified", str(in.lastModified()));
    }

    static LedgerItem toItem(Map<String, AttributeValue> a) {
        PublishedRef published = published(a);
        LastAttempt last = null;
        if (a.containsKey("last_attempt")) {
            Map<String, AttributeValue> m = a.get("last_attempt").m();
            last = LastAttempt.builder()
                    .at(instant(m, "at"))
                    .runId(text(m, "run_id"))
                    .runKind(runKind(text(m, "run_kind")))
                    .outcome(attemptOutcome(text(m, "outcome")))
                    .reason(text(m, "reason"))
                    .inputVersionId(text(m, "input_version_id"))
                    .inputSha256(text(m, "input_sha256"))
                    .inputKey(text(m, "input_key"))
                    .build();
        }
        EmptyAcceptance accepted = null;
        if (a.containsKey("empty_accepted")) {
            Map<String, AttributeValue> m = a.get("empty_accepted").m();
            accepted = new EmptyAcceptance(instant(m, "at"), text(m, "run_id"), text(m, "reason"));
        }
        VolumeAcceptance volume = null;
        if (a.containsKey("volume_accepted")) {
            Map<String, AttributeValue> m = a.get("volume_accepted").m();
            volume = new VolumeAcceptance(instant(m, "at"), text(m, "run_id"), text(m, "reason"));
        }
        long publishCount = number(a, "publish_count");
        // an item written before restatements were counted by content: every publish after the first may have changed
        // the rows, so it reads as restated that often (conservative; its next publish starts counting by content)
        long restatements = a.containsKey("restatements") ? number(a, "restatements") : Math.max(0, publishCount - 1);
        return LedgerItem.builder(text(a, "dataset"), text(a, "unit"))
                .status(LedgerStatus.valueOf(text(a, "status")))
                .input(input(a))
                .published(published)
                .run(text(a, "run_id"), runKind(text(a, "run_kind")))
                .contractVersion((int) number(a, "contract_version"))
                .publishCount(publishCount)
                .publishedAt(instant(a, "first_published_at"), instant(a, "published_at"))
                .lastAttempt(last)
                .reason(text(a, "reason"))
                .revision(number(a, "revision"))
                .restatements(restatements)
                .contentSince(text(a, "content_run_id"), instant(a, "content_published_at"))
                .emptyAccepted(accepted)
                .volumeAccepted(volume)
                .table(tableState(a))
                .build();
    }

    private static PublishedRef published(Map<String, AttributeValue> a) {
        return a.containsKey("published_etag") ? new PublishedRef(text(a, "published_key"), text(a, "published_etag"),
                number(a, "accepted"), number(a, "rejected"), number(a, "duplicates"), text(a, "quarantine_key"),
                text(a, "content_sha256")) : null;
    }

    private static InputIdentity input(Map<String, AttributeValue> a) {
        if (!a.containsKey("input_key")) {
            return null;
        }
        return InputIdentity.builder()
                .bucket(text(a, "input_bucket"))
                .key(text(a, "input_key"))
                .versionId(text(a, "input_version_id"))
                .etag(text(a, "input_etag"))
                .sha256(text(a, "input_sha256"))
                .size(number(a, "input_size"))
                .sequencer(text(a, "input_sequencer"))
                .lastModified(instant(a, "input_last_modified"))
                .build();
    }

    static Map<String, AttributeValue> historyAttributes(HistoryEntry h) {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put(LedgerTables.HISTORY_PARTITION_KEY, s(h.partitionKey()));
        a.put(LedgerTables.HISTORY_SORT_KEY, s(h.sortKey()));
        a.put("dataset", s(h.dataset()));
        a.put("unit", s(h.unit()));
        a.put("at", s(h.at().toString()));
        a.put("run_id", s(h.runId()));
        a.put("run_kind", s(h.runKind().name()));
        a.put("action", s(h.action()));
        putIfPresent(a, "reason", h.reason());
        putInput(a, h.input());
        if (h.published() != null) {
            putIfPresent(a, "published_key", h.published().key());
            putIfPresent(a, "published_etag", h.published().etag());
            a.put("accepted", n(h.published().accepted()));
            a.put("rejected", n(h.published().rejected()));
            a.put("duplicates", n(h.published().duplicates()));
            putIfPresent(a, "quarantine_key", h.published().quarantineKey());
            putIfPresent(a, "content_sha256", h.published().contentSha256());
        }
        a.put("contract_version", n(h.contractVersion()));
        return a;
    }

    static HistoryEntry toHistory(Map<String, AttributeValue> a) {
        PublishedRef published = published(a);
        return HistoryEntry.builder()
                .dataset(text(a, "dataset"))
                .unit(text(a, "unit"))
                .at(instant(a, "at"))
                .runId(text(a, "run_id"))
                .runKind(runKind(text(a, "run_kind")))
                .action(text(a, "action"))
                .reason(text(a, "reason"))
                .input(input(a))
                .published(published)
                .contractVersion((int) number(a, "contract_version"))
                .build();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static void putIfPresent(Map<String, AttributeValue> a, String name, String value) {
        if (value != null) {
            a.put(name, s(value));
        }
    }

    private static String str(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static String text(Map<String, AttributeValue> a, String name) {
        AttributeValue v = a.get(name);
        return v == null ? null : v.s();
    }

    private static long number(Map<String, AttributeValue> a, String name) {
        AttributeValue v = a.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }

    private static Instant instant(Map<String, AttributeValue> a, String name) {
        String v = text(a, name);
        return v == null ? null : Instant.parse(v);
    }

    private static RunKind runKind(String value) {
        return value == null ? null : RunKind.valueOf(value);
    }

    private static AttemptOutcome attemptOutcome(String value) {
        return value == null ? null : AttemptOutcome.valueOf(value);
    }
}
