package io.landingledger.core.table;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TableSchemaEvolutionTest {
    private static final DatasetContract BASE = TestContracts.transactions();

    @SuppressWarnings("unchecked")
    private static DatasetContract edited(Consumer<Map<String, Object>> fields) {
        return TestContracts.transactions(json -> fields.accept((Map<String, Object>) json.get("fields")));
    }

    private static Map<String, Object> field(Object... pairs) {
        Map<String, Object> field = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            field.put((String) pairs[i], pairs[i + 1]);
        }
        return field;
    }

    @Test
    void additiveChanges_areFollowed() {
        assertEquals(List.of(), TableSchemaEvolution.refusals(BASE, edited(f -> {
            f.put("note", field("type", "string"));                                   // a new optional field
            f.put("amount", field("type", "number", "required", true, "precision", 18, "scale", 2)); // widened
            f.put("account_id", field("type", "string", "required", false, "nullable", true)); // loosened
        })));
    }

    @Test
    void anOptionalFieldDropped_isFollowed_theColumnStays() {
        DatasetContract withNote = edited(f -> f.put("note", field("type", "string")));
        assertEquals(List.of(), TableSchemaEvolution.refusals(withNote, BASE));
    }

    @Test
    void whatTheTableCannotFollow_isRefusedWithAReasonPerField() {
        List<String> refused = TableSchemaEvolution.refusals(BASE, edited(f -> {
            f.remove("batch_date");
            f.put("txn_id", field("type", "integer", "required", true));
            f.put("amount", field("type", "number", "required", true, "precision", 12, "scale", 3));
            f.put("merchant", field("type", "string", "required", true));
        }));
        assertEquals(List.of(
                "field amount decimal(12,2) -> decimal(12,3): a decimal's scale cannot change (the table's values would"
                        + " change meaning)",
                "field batch_date dropped: it was required, and the table's readers rely on its column",
                "field txn_id string -> integer: the table's column holds string values and its type cannot change",
                "field merchant added as required: the rows already in the table have no value for it; add it as"
                        + " optional"), refused);
    }

    @Test
    void aNarrowedPrecision_andADecimalBecomingADouble_areRefused() {
        assertEquals(List.of("field amount decimal(12,2) -> decimal(10,2): a decimal's precision can only widen (the"
                        + " table holds values of 12 digits)"),
                TableSchemaEvolution.refusals(BASE, edited(f -> f.put("amount",
                        field("type", "number", "required", true, "precision", 10, "scale", 2)))));
        assertEquals(List.of("field amount decimal(12,2) -> number: the table's column holds decimal(12,2) values and"
                        + " its type cannot change"),
                TableSchemaEvolution.refusals(BASE, edited(f -> f.put("amount", field("type", "number",
                        "required", true)))));
    }
}
