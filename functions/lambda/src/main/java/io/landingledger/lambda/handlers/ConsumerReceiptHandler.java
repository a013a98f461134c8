package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;
import io.landingledger.lambda.adapters.S3ContractStore;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.io.PrintStream;
import java.util.Map;
import java.util.Objects;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Stores a consumer's receipt ({@code events/unit-consumed.json}, the {@code UnitConsumed} rule on the ledger bus):
 * detail {@code dataset}, {@code unit}, {@code consumer}, {@code publish} (the run id or published ETag it read) and
 * optionally {@code consumed_at} (default: the event's {@code time}) and {@code snapshot} (the table snapshot id it
 * read the unit at, for a reader of the dataset's table). One conditional PutItem on the Consumers table:
 * a late older receipt never replaces a newer one ({@link DynamoDbConsumerReceipts}).
 *
 * <p>Result: {@code recorded} true, or false with {@code reason} {@code OLDER_THAN_STORED} or {@code INVALID_EVENT}
 * (unknown dataset, a unit name the dataset's cadence has not, a missing field, a consumer name outside
 * {@link ConsumerReceipt#CONSUMER_PATTERN}). An invalid event is logged and dropped, not thrown: no retry can fix
 * it. A DynamoDB fault is thrown, so Lambda's asynchronous retries apply.
 */
public final class ConsumerReceiptHandler extends TypedHandler<ConsumerReceiptHandler.UnitConsumedEvent, ConsumerReceiptHandler.Receipt> {
    private static final Logger LOG = LogManager.getLogger(ConsumerReceiptHandler.class);

    private final ContractRegistry contracts;
    private final ConsumerReceipts receipts;

    /** Used by the Lambda runtime: the DynamoDB client is built once, at init. */
    public ConsumerReceiptHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    ConsumerReceiptHandler(Map<String, String> environment, PrintStream stdout) {
        this(FunctionConfig.fromEnvironment(environment));
    }

    private ConsumerReceiptHandler(FunctionConfig config) {
        // the datasets registered at run time (the lake's _contracts/), through the same bounded cache as the others
        this(ContractRegistry.fromStore(new ContractCache(new S3ContractStore(DependencyFactory.s3Client(config.aws()), config.lakeBucket()),
                config.contractCache(), Clock.systemUTC())), receipts(config));
    }

    private static ConsumerReceipts receipts(FunctionConfig config) {
        String table = config.consumersTable().orElseThrow(() -> new IllegalStateException(
                FunctionConfig.CONSUMERS_TABLE + " is not set; infra/template.yaml sets it"));
        return new DynamoDbConsumerReceipts(DependencyFactory.dynamoDbClient(config.aws()), table);
    }

    /** For tests and the local run. */
    public ConsumerReceiptHandler(ContractRegistry contracts, ConsumerReceipts receipts) {
        super(UnitConsumedEvent.class);
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.receipts = Objects.requireNonNull(receipts, "receipts");
    }

    /** The EventBridge event: its {@code detail-type}, {@code time} and {@code detail}; EventBridge's other fields are ignored. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record UnitConsumedEvent(@JsonProperty("detail-type") String detailType, String time, Detail detail) {
        /** The receipt's fields (events/unit-consumed.schema.json); a producer's extra fields are ignored. */
        @JsonIgnoreProperties(ignoreUnknown = true)
        public record Detail(String dataset, String unit, String consumer, String publish, @JsonProperty("consumed_at") String consumedAt,
                             Long snapshot) {
        }
    }

    /** The answer: recorded or not and why, and the receipt's fields (none for an invalid event). */
    @JsonPropertyOrder({"recorded", "reason", "detail", "dataset", "unit", "consumer", "publish", "consumed_at", "snapshot"})
    public record Receipt(boolean recorded, String reason, String detail, String dataset, String unit, String consumer, String publish,
                          @JsonProperty("consumed_at") String consumedAt,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long snapshot) {
        static Receipt invalid(String detail) {
            return new Receipt(false, "INVALID_EVENT", detail, null, null, null, null, null, null);
        }
    }

    @Override
    protected Receipt refused(IllegalArgumentException refusal) {
        return invalid(refusal.getMessage());
    }

    @Override
    public Receipt handle(UnitConsumedEvent event, Context context) {
        ConsumerReceipt receipt;
        try {
            receipt = receipt(event);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return invalid(e.getMessage());
        }
        boolean recorded = receipts.record(receipt);
        Receipt result = new Receipt(recorded, recorded ? null : "OLDER_THAN_STORED", null, receipt.dataset(), receipt.unit(),
                receipt.consumer(), receipt.publish(), receipt.consumedAt().toString(), receipt.snapshot());
        LOG.info(new JsonLine(recorded ? "consumer receipt recorded" : "consumer receipt older than the stored one", fields(result)));
        return result;
    }

    private static Receipt invalid(String detail) {
        Receipt result = Receipt.invalid(detail);
        LOG.warn(new JsonLine("consumer receipt refused", fields(result)));
        return result;
    }

    private static Map<String, Object> fields(Receipt result) {
        return JsonCodec.fields(result);
    }

    /** The receipt an EventBridge UnitConsumed event carries. */
    ConsumerReceipt receipt(UnitConsumedEvent event) {
        if (event == null || !"UnitConsumed".equals(event.detailType()) || event.detail() == null) {
            throw new IllegalArgumentException("not a UnitConsumed event");
        }
        UnitConsumedEvent.Detail detail = event.detail();
        String dataset = detail.dataset();
        DatasetContract contract = contracts.get(dataset == null ? "" : dataset)
                .orElseThrow(() -> new IllegalArgumentException("unknown dataset " + dataset));
        String unit = detail.unit();
        if (unit == null || contract.unit().cadence() != Cadence.LIST && !UnitCalendar.of(contract).isUnit(unit)) {
            throw new IllegalArgumentException("'" + unit + "' is not a unit of " + dataset);
        }
        String at = detail.consumedAt() != null ? detail.consumedAt() : event.time();
        if (at == null) {
            throw new IllegalArgumentException("consumed_at and time are missing");
        }
        if (detail.snapshot() != null && detail.snapshot() <= 0) {
            // Iceberg's snapshot ids are positive; a zero or a negative one names no snapshot a reader could read
            throw new IllegalArgumentException("snapshot must be a table snapshot id (a positive integer), not " + detail.snapshot());
        }
        return new ConsumerReceipt(dataset, unit, detail.consumer(), detail.publish(), Instant.parse(at), detail.snapshot());
    }
}
