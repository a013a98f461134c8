package io.landingledger.tables;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;

import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableWriteResult;
import io.landingledger.core.table.TableWriter;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.handlers.TypedHandler;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The table writer function: the table queue's messages (SQS FIFO, one message group per dataset, so one table has
 * one committer at a time), each naming a unit whose table partition may be behind the ledger. Each unit goes to the
 * core's {@link TableWriter}, which reads the ledger again and decides; this handler only maps messages in and
 * failures out.
 *
 * <p>Partial batches ({@code ReportBatchItemFailures}): a unit the writer reports {@code FAILED}, one that throws, or
 * an unreadable message is a batch item failure, and so is every message after it in the batch, unprocessed, as
 * Lambda asks of a FIFO queue: SQS delivers them again after the visibility timeout, and the redrive policy moves a
 * message that keeps failing to the dead-letter queue. Nothing here depends on the order of messages: the writer
 * reads the ledger every time.
 */
public final class TableWriterHandler extends TypedHandler<SQSEvent, TableWriterHandler.BatchResponse> {
    private static final Logger LOG = LogManager.getLogger(TableWriterHandler.class);

    /** What the handler asks of the writer: {@link TableWriter#write}. */
    @FunctionalInterface
    public interface UnitWriter {
        TableWriteResult write(String dataset, String unit);
    }

    private final UnitWriter writer;

    /** Used by the Lambda runtime: the clients and the catalog connection are built once, at init. */
    public TableWriterHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream (the local stack's runtime passes the function's
     * own): the ledger, the lake and the contract store as every function builds them ({@link DependencyFactory}),
     * and the dataset tables through the catalog {@link TableCatalogConfig} describes.
     */
    public TableWriterHandler(Map<String, String> environment, PrintStream stdout) {
        this(writerFor(DependencyFactory.forFunction(environment, stdout), environment));
    }

    /** For tests: the handler over any writer. */
    public TableWriterHandler(UnitWriter writer) {
        super(SQSEvent.class);
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    private static UnitWriter writerFor(DependencyFactory dependencies, Map<String, String> environment) {
        TableCatalogConfig catalog = TableCatalogConfig.fromEnvironment(environment, dependencies.config().aws());
        IcebergTablePort tables = new IcebergTablePort(catalog.connect(), catalog.namespace());
        TableWriter writer = new TableWriter(dependencies.ledger(), dependencies.objectStore(),
                dependencies.config().lakeBucket(), dependencies.contractStore(), tables, Clock.systemUTC());
        return writer::write;
    }

    /**
     * Lambda's partial batch answer: the messages to deliver again.
     *
     * @param batchItemFailures one per message that failed or was not processed
     */
    public record BatchResponse(List<ItemFailure> batchItemFailures) {
        public BatchResponse {
            batchItemFailures = List.copyOf(batchItemFailures);
        }

        /** @param itemIdentifier the SQS message id */
        public record ItemFailure(String itemIdentifier) {
        }
    }

    @Override
    public BatchResponse handle(SQSEvent event, Context context) {
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null
                ? List.of() : event.getRecords();
        List<BatchResponse.ItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage record : records) {
            if (!failures.isEmpty() || !writeUnit(record)) {
                failures.add(new BatchResponse.ItemFailure(record.getMessageId()));
            }
        }
        return new BatchResponse(failures);
    }

    /** True when the message is done with (written, in step, recovered or skipped). */
    private boolean writeUnit(SQSEvent.SQSMessage record) {
        TableMessage message;
        try {
            message = TableMessage.fromJson(record.getBody() == null ? "" : record.getBody());
        } catch (IllegalArgumentException unreadable) {
            LOG.error(new JsonLine("table message unreadable", Map.of(
                    "message_id", String.valueOf(record.getMessageId()),
                    "error", String.valueOf(unreadable.getMessage()))));
            return false;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("dataset", message.dataset());
        fields.put("unit", message.unit());
        TableWriteResult result;
        try {
            result = writer.write(message.dataset(), message.unit());
        } catch (RuntimeException e) {
            LOG.error(new JsonLine("table write failed", fields), e);
            return false;
        }
        fields.put("outcome", result.outcome().name());
        if (result.snapshotId() != null) {
            fields.put("snapshot_id", result.snapshotId());
        }
        if (result.reason() != null) {
            fields.put("reason", result.reason());
        }
        boolean failed = result.outcome() == TableWriteResult.Outcome.FAILED;
        if (failed) {
            LOG.warn(new JsonLine("table write failed", fields));
        } else {
            LOG.info(new JsonLine("table write", fields));
        }
        return !failed;
    }
}
