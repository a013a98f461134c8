package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableQueue;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.adapters.SqsTableQueue;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Ledger stream's records of units that stand PUBLISHED, each put on the table queue ({@link TableQueue}, the FIFO
 * commit queue; docs/design.md section 12) for the table writer. The event source mapping's filter passes only
 * {@code NewImage.status = PUBLISHED}; a record that is not (a filter changed by hand) is skipped here too, and so is
 * one whose table record already holds the standing publish (the writer's own record of its commit, echoed by the
 * stream: queueing it would only make the writer read the ledger and find it in step). The message
 * carries the unit and the publish's identity (run id, content hash) for its deduplication id only: the writer reads
 * the ledger again.
 *
 * <p>Records are sent in stream order; when one cannot be sent, the answer names it as the batch's first failure
 * (ReportBatchItemFailures) and the mapping retries from it, so no later record overtakes it and the ones before are
 * not sent twice. Names only in the answer and logs: never an item's content.
 */
public final class TableEnqueueHandler extends TypedHandler<TableEnqueueHandler.StreamEvent, TableEnqueueHandler.Enqueued> {
    private static final Logger LOG = LogManager.getLogger(TableEnqueueHandler.class);

    private final TableQueue queue;

    /** Used by the Lambda runtime. */
    public TableEnqueueHandler() {
        this(System.getenv(), System.out);
    }

    /** The function's init from its environment and log stream (the local cloud passes the function's own). */
    TableEnqueueHandler(Map<String, String> environment, PrintStream stdout) {
        this(new SqsTableQueue(DependencyFactory.forFunction(environment, stdout).sqsClient(),
                environment.get(SqsTableQueue.QUEUE_URL)));
    }

    /** For tests and the local stack. */
    public TableEnqueueHandler(TableQueue queue) {
        super(StreamEvent.class);
        this.queue = Objects.requireNonNull(queue, "queue");
    }

    @Override
    public Enqueued handle(StreamEvent event, Context context) {
        List<String> queued = new ArrayList<>();
        int skipped = 0;
        List<StreamEvent.StreamRecord> records = event == null || event.records() == null ? List.of() : event.records();
        for (StreamEvent.StreamRecord record : records) {
            TableMessage message = message(record);
            if (message == null) {
                skipped++;
                continue;
            }
            try {
                queue.submit(message);
            } catch (RuntimeException e) {
                // the mapping retries from this record on; the cause is the SDK's (no item content in it)
                LOG.warn(new JsonLine("table queue refused a unit; the mapping retries from it", Map.of(
                        "dataset", message.dataset(), "unit", message.unit(), "error", e.getClass().getSimpleName(),
                        "detail", String.valueOf(e.getMessage()))));
                return new Enqueued(queued, skipped, List.of(new ItemFailure(record.dynamodb().sequenceNumber())));
            }
            queued.add(message.dataset() + "/" + message.unit());
        }
        return new Enqueued(queued, skipped, List.of());
    }

    /** The message for a record of a PUBLISHED unit, or null for any other record. */
    static TableMessage message(StreamEvent.StreamRecord record) {
        if (record == null || record.dynamodb() == null || record.dynamodb().newImage() == null) {
            return null;
        }
        Map<String, Map<String, Object>> image = record.dynamodb().newImage();
        if (!"PUBLISHED".equals(string(image, "status"))) {
            return null;
        }
        String dataset = string(image, "dataset");
        String unit = string(image, "unit");
        if (dataset == null || unit == null) {
            return null;
        }
        String runId = string(image, "run_id");
        String sha256 = string(image, "content_sha256");
        if (runId != null && sha256 != null && runId.equals(string(image, "table_run_id"))
                && sha256.equals(string(image, "table_content_sha256"))) {
            return null; // the table already holds this publish
        }
        return new TableMessage(dataset, unit, runId, sha256);
    }

    private static String string(Map<String, Map<String, Object>> image, String attribute) {
        Map<String, Object> value = image.get(attribute);
        return value != null && value.get("S") instanceof String text ? text : null;
    }

    /**
     * The answer: the units queued ({@code dataset/unit}), how many records were not a PUBLISHED unit, and the record
     * the mapping must retry from (Lambda's partial batch response).
     */
    public record Enqueued(List<String> queued, int skipped, List<ItemFailure> batchItemFailures) {
    }

    /** Lambda's partial batch response entry: the stream record's sequence number. */
    public record ItemFailure(String itemIdentifier) {
    }

    /** The DynamoDB stream event, of which the handler reads the new image's names and identity only. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record StreamEvent(@JsonProperty("Records") List<StreamRecord> records) {
        @JsonIgnoreProperties(ignoreUnknown = true)
        public record StreamRecord(Stream dynamodb) {
        }

        @JsonIgnoreProperties(ignoreUnknown = true)
        public record Stream(@JsonProperty("SequenceNumber") String sequenceNumber,
                             @JsonProperty("NewImage") Map<String, Map<String, Object>> newImage) {
        }
    }
}
