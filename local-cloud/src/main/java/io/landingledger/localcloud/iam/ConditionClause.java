package io.landingledger.localcloud.iam;

import java.util.List;

/**
 * One key under one operator of a statement's Condition: {@code "StringEquals": {"aws:SourceAccount": ["1", "2"]}}
 * is the clause (StringEquals, aws:SourceAccount, [1, 2]). The operator is kept as written (with its
 * {@code ForAnyValue:}/{@code ForAllValues:} prefix and {@code IfExists} suffix); {@link ConditionOperators} reads it.
 * Values are strings as IAM compares them: JSON booleans and numbers become their text.
 */
public record ConditionClause(String operator, String key, List<String> values) {
    public ConditionClause {
        values = List.copyOf(values);
    }
}
