package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;
import io.landingledger.lambda.adapters.S3ContractStore;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Stores a consumer's receipt ({@code events/unit-consumed.json}, the {@code UnitConsumed} rule on the ledger bus):
 * detail {@code dataset}, {@code unit}, {@code consumer}, {@code publish} (the run id or published ETag it read) and
 * optionally {@code consumed_at} (default: the event's {@code time}). One conditional PutItem on the Consumers table:
 * a late older receipt never replaces a newer one ({@link DynamoDbConsumerReceipts}).
 *
 * <p>Result: {@code recorded} true, or false with {@code reason} {@code OLDER_THAN_STORED} or {@code INVALID_EVENT}
 * (unknown dataset, a unit name the dataset's cadence has not, a missing field, a consumer name outside
 * {@link ConsumerReceipt#CONSUMER_PATTERN}). An invalid event is logged and dropped, not thrown: no retry can fix
 * it. A DynamoDB fault is thrown, so Lambda's asynchronous retries apply.
 */
public final class ConsumerReceiptHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
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
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.receipts = Objects.requireNonNull(receipts, "receipts");
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        Map<String, Object> result = new LinkedHashMap<>();
        ConsumerReceipt receipt;
        try {
            receipt = receipt(event);
        } catch (IllegalArgumentException | DateTimeParseException | ClassCastException e) {
            result.put("recorded", false);
            result.put("reason", "INVALID_EVENT");
            result.put("detail", e.getMessage());
            LOG.warn(new JsonLine("consumer receipt refused", result));
            return result;
        }
        boolean recorded = receipts.record(receipt);
        result.put("recorded", recorded);
        if (!recorded) {
            result.put("reason", "OLDER_THAN_STORED");
        }
        result.put("dataset", receipt.dataset());
        result.put("unit", receipt.unit());
        result.put("consumer", receipt.consumer());
        result.put("publish", receipt.publish());
        result.put("consumed_at", receipt.consumedAt().toString());
        LOG.info(new JsonLine(recorded ? "consumer receipt recorded" : "consumer receipt older than the stored one", result));
        return result;
    }

    /** The receipt an EventBridge UnitConsumed event carries. */
    ConsumerReceipt receipt(Map<String, Object> event) {
        if (event == null || !"UnitConsumed".equals(event.get("detail-type")) || !(event.get("detail") instanceof Map<?, ?> detail)) {
            throw new IllegalArgumentException("not a UnitConsumed event");
        }
        String dataset = text(detail, "dataset");
        DatasetContract contract = contracts.get(dataset == null ? "" : dataset)
                .orElseThrow(() -> new IllegalArgumentException("unknown dataset " + dataset));
        String unit = text(detail, "unit");
        if (unit == null || contract.unit().cadence() != Cadence.LIST && !UnitCalendar.of(contract).isUnit(unit)) {
            throw new IllegalArgumentException("'" + unit + "' is not a unit of " + dataset);
        }
        String at = text(detail, "consumed_at");
        if (at == null) {
            at = event.get("time") == null ? null : event.get("time").toString();
        }
        if (at == null) {
            throw new IllegalArgumentException("consumed_at and time are missing");
        }
        return new ConsumerReceipt(dataset, unit, text(detail, "consumer"), text(detail, "publish"), Instant.parse(at));
    }

    private static String text(Map<?, ?> map, String key) {
        Object value = map.get(key);
        return value == null ? null : value.toString();
    }
}
