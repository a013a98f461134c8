package io.landingledger.lambda.adapters;

import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerContract;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.TestResources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ledger contract against {@link DynamoDbLedger} on moto's DynamoDB, fresh tables per case. moto serializes
 * requests (scripts/moto-server.py), so a TransactionConflict cannot happen there: {@link #conflictNextWrite} makes the
 * client answer the next write as DynamoDB does when another transaction holds the item (TransactWriteItems cancelled
 * with reasons {@code [TransactionConflict, None]}; UpdateItem failing with TransactionConflictException), without
 * sending it.
 */
class DynamoDbLedgerContractIT extends LedgerContract {
    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    private ConflictOnce conflicts;

    /** AWS answers a Query with {@code BETWEEN :from AND :to}, from after to, with a ValidationException; moto does not. */
    @Test
    void items_ofAReversedRange_sendsNoQuery() {
        int before = conflicts.queries.get();
        assertEquals(List.of(), ledger.items(DATASET, "2026-03-05", "2026-03-01"));
        assertEquals(before, conflicts.queries.get());
    }

    @Override
    protected Fixture fixture() {
        TestResources resources = aws.freshResources();
        ConflictOnce conflicts = new ConflictOnce(aws.dynamoDb());
        this.conflicts = conflicts;
        DynamoDbClient client = (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, conflicts);
        DynamoDbLedger dynamo = new DynamoDbLedger(client, resources.ledgerTable(), resources.ledgerHistoryTable());
        return new Fixture() {
            @Override
            public Ledger ledger() {
                return dynamo;
            }

            @Override
            public void conflictNextWrite() {
                conflicts.armed = true;
            }
        };
    }

    /** Passes every call to the real client, except the next write when armed, which fails as a TransactionConflict. */
    private static final class ConflictOnce implements InvocationHandler {
        private final DynamoDbClient delegate;
        final AtomicInteger queries = new AtomicInteger();
        volatile boolean armed;

        ConflictOnce(DynamoDbClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) throws Throwable {
            if (args != null && args.length == 1 && args[0] instanceof Consumer<?>) {
                // the builder overloads build the request and call the request overload: on this proxy
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            if (armed && method.getName().equals("transactWriteItems")) {
                armed = false;
                throw TransactionCanceledException.builder()
                        .message("Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]")
                        .cancellationReasons(
                                CancellationReason.builder().code("TransactionConflict").message("Transaction is ongoing for the item").build(),
                                CancellationReason.builder().code("None").build())
                        .statusCode(400).build();
            }
            if (armed && method.getName().equals("updateItem")) {
                armed = false;
                throw TransactionConflictException.builder().message("Transaction is ongoing for the item").statusCode(400).build();
            }
            if (method.getName().equals("query")) {
                queries.incrementAndGet();
            }
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
