package io.landingledger.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The readers' tables from the contracts: types, projection per cadence, and Athena's DDL, which this test prints and
 * which docs/readers.md must hold verbatim for every table of datasets/ (database {@value #DATABASE}, the template's
 * default lake bucket name), so the documented DDL cannot drift from the template's tables (TemplateIT compares those).
 */
class ReaderTablesTest {
    static final String DATABASE = "landing_ledger_dev";
    static final String BUCKET = "landing-ledger-dev-lake-123456789012-us-east-1";
    private static final Path ROOT = Path.of("..", "..");

    private static DatasetContract contract(String unit) {
        String json = """
                {"dataset": "clicks", "version": 1, "format": "jsonl", "unit": %s, "key": "id",
                 "fields": {"id": {"type": "string", "required": true}, "n": {"type": "integer"}, "x": {"type": "number"},
                            "ok": {"type": "boolean"}, "d": {"type": "date"}, "at": {"type": "timestamp"}}}
                """.formatted(unit);
        return ContractLoader.load("datasets/clicks.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void published_mapsEachFieldTypeAndProjectsDailyUnitsAsDatesFromFirstToNow() {
        ReaderTables.Table table = ReaderTables.published(contract(
                "{\"pattern\": \"c-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl\", \"cadence\": \"daily\", \"first\": \"2026-01-02\"}"));
        assertEquals("clicks", table.name());
        assertEquals("published/clicks/", table.prefix());
        assertEquals(List.of(new ReaderTables.Column("at", "string"), new ReaderTables.Column("d", "date"),
                new ReaderTables.Column("id", "string"), new ReaderTables.Column("n", "bigint"),
                new ReaderTables.Column("ok", "boolean"), new ReaderTables.Column("x", "double")), table.columns());
        assertEquals(List.of(new ReaderTables.Column("unit", "string")), table.partitions());
        assertEquals(Map.of("projection.enabled", "true", "projection.unit.type", "date", "projection.unit.format", "yyyy-MM-dd",
                "projection.unit.range", "2026-01-02,NOW", "projection.unit.interval", "1", "projection.unit.interval.unit", "DAYS",
                "storage.location.template", "s3://b/published/clicks/unit=${unit}/"), table.parameters("b"));
    }

    @Test
    void published_projectsHourlyUnitsWithTheHourFormatAndListUnitsAsAnEnum() {
        ReaderTables.Table hourly = ReaderTables.published(contract(
                "{\"pattern\": \"c-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2})\\\\.jsonl\", \"cadence\": \"hourly\", \"first\": \"2026-01-02T05\"}"));
        assertEquals("yyyy-MM-dd'T'HH", hourly.parameters("b").get("projection.unit.format"));
        assertEquals("2026-01-02T05,NOW", hourly.parameters("b").get("projection.unit.range"));
        assertEquals("HOURS", hourly.parameters("b").get("projection.unit.interval.unit"));
        ReaderTables.Table list = ReaderTables.published(contract(
                "{\"pattern\": \"c-(?<unit>[a-z]+)\\\\.jsonl\", \"cadence\": \"list\", \"units\": [\"emea\", \"apac\"]}"));
        assertEquals(Map.of("projection.enabled", "true", "projection.unit.type", "enum", "projection.unit.values", "emea,apac",
                "storage.location.template", "s3://b/published/clicks/unit=${unit}/"), list.parameters("b"));
    }

    @Test
    void status_isOneUnpartitionedTableOverTheDatasetsStatusObject() {
        ReaderTables.Table status = ReaderTables.status(contract(
                "{\"pattern\": \"c-(?<unit>[a-z]+)\\\\.jsonl\", \"cadence\": \"list\", \"units\": [\"emea\"]}"));
        assertEquals("clicks_status", status.name());
        assertEquals("_status/clicks/", status.prefix());
        assertTrue(status.partitions().isEmpty() && status.parameters("b").isEmpty());
        assertEquals(new ReaderTables.Column("unit", "string"), status.columns().get(0));
        assertTrue(status.columns().contains(new ReaderTables.Column("accepted", "bigint")));
    }

    /** Prints Athena's DDL for datasets/ and checks that docs/readers.md holds each statement as generated. */
    @Test
    void ddl_forEveryTableOfDatasetsIsInDocsReaders() throws IOException {
        List<DatasetContract> contracts = ContractLoader.loadDirectory(ROOT.resolve("datasets")).values().stream()
                .sorted(java.util.Comparator.comparing(DatasetContract::dataset)).toList();
        String docs = Files.readString(ROOT.resolve("docs/readers.md"));
        StringBuilder all = new StringBuilder();
        List<ReaderTables.Table> tables = ReaderTables.all(contracts);
        for (ReaderTables.Table table : tables) {
            all.append(table.ddl(DATABASE, BUCKET)).append('\n');
        }
        System.out.println("[reader-tables] Athena DDL (database " + DATABASE + ", bucket " + BUCKET + "):\n" + all);
        for (ReaderTables.Table table : tables) {
            String ddl = table.ddl(DATABASE, BUCKET);
            assertTrue(docs.contains(ddl), "docs/readers.md does not hold the generated DDL of " + table.name() + ":\n" + ddl);
        }
    }
}
