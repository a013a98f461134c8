package io.landingledger.lambda.handlers;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.lambda.LedgerTables;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Issue 30, finding 5, on the wire: every put of a history item a function sent (a PutItem, or the Put of a
 * TransactWriteItems) carries {@code attribute_not_exists} of both history keys, the one thing that keeps history
 * from being rewritten (IAM cannot require it: SECURITY.md). Read from the requests as they went over HTTP
 * ({@link RecordedCalls}), so every code path the least-privilege tests run is checked, whoever wrote the put.
 */
final class HistoryPuts {
    /** The condition, attribute names substituted. */
    static final String CREATE_ONLY = "attribute_not_exists(" + LedgerTables.HISTORY_PARTITION_KEY
            + ") AND attribute_not_exists(" + LedgerTables.HISTORY_SORT_KEY + ")";

    private HistoryPuts() {
    }

    /** How many puts on {@code historyTable} the calls hold, and a finding for each that could replace an item. */
    record Checked(int puts, List<String> findings) {
    }

    static Checked check(List<RecordedCalls.Call> calls, String historyTable) {
        int puts = 0;
        List<String> findings = new ArrayList<>();
        for (RecordedCalls.Call call : calls) {
            RecordedCalls.Http http = call.http();
            if (http == null || !http.service().equals("dynamodb") || http.body() == null) {
                continue;
            }
            Map<String, Object> body = json(http.body());
            List<Map<String, Object>> candidates = new ArrayList<>();
            if (call.operation().equals("PutItem")) {
                candidates.add(body);
            } else if (call.operation().equals("TransactWriteItems")
                    && body.get("TransactItems") instanceof List<?> items) {
                for (Object item : items) {
                    if (item instanceof Map<?, ?> entry && entry.get("Put") instanceof Map<?, ?> put) {
                        candidates.add(cast(put));
                    }
                }
            }
            for (Map<String, Object> put : candidates) {
                if (!historyTable.equals(put.get("TableName"))) {
                    continue;
                }
                puts++;
                String condition = substituted(put);
                if (!CREATE_ONLY.equals(condition)) {
                    findings.add(call.operation() + " at " + call.site() + " puts a history item under condition "
                            + condition + ", not " + CREATE_ONLY + ": it could replace an existing item");
                }
            }
        }
        return new Checked(puts, findings);
    }

    /** The put's ConditionExpression with its #names replaced (null when it has none). */
    private static String substituted(Map<String, Object> put) {
        if (!(put.get("ConditionExpression") instanceof String expression)) {
            return null;
        }
        if (put.get("ExpressionAttributeNames") instanceof Map<?, ?> names) {
            for (Map.Entry<?, ?> name : names.entrySet()) {
                expression = expression.replace(String.valueOf(name.getKey()), String.valueOf(name.getValue()));
            }
        }
        return expression;
    }

    private static Map<String, Object> json(byte[] body) {
        try {
            return JSON.std.mapFrom(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
