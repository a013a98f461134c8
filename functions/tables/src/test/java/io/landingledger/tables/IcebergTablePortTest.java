package io.landingledger.tables;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableConflictException;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.testing.TestContracts;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IcebergTablePortTest {

    @Test
    void ensureTable_createsATypedV2TablePartitionedByUnit() {
        TableFixture fixture = new TableFixture();
        Table table = fixture.table();
        Schema schema = table.schema();

        assertEquals(2, ((org.apache.iceberg.BaseTable) table).operations().current().formatVersion());
        assertEquals("zstd", table.properties().get(TableProperties.PARQUET_COMPRESSION));
        assertEquals(PartitionSpec.builderFor(schema).identity("unit").build().fields(), table.spec().fields());
        assertEquals(Types.DecimalType.of(12, 2), schema.findType("amount"));
        assertEquals(Types.LongType.get(), schema.findType("attempt"));
        assertEquals(Types.TimestampType.withZone(), schema.findType("paid_at"));
        assertEquals(Types.DateType.get(), schema.findType("booked"));
        assertEquals(Types.DoubleType.get(), schema.findType("ratio"));
        assertEquals(Types.BooleanType.get(), schema.findType("refunded"));
        assertEquals(Types.StringType.get(), schema.findType("id"));
        assertEquals(Types.DateType.get(), schema.findType("unit"));
        assertTrue(schema.findField("amount").isRequired());
        assertTrue(schema.findField("ratio").isOptional(), "an optional field is an optional column");
        assertFalse(schema.findField("refunded").isRequired(), "a nullable field is an optional column");
        assertTrue(fixture.port.currentSnapshotId("payments").isEmpty());
        assertEquals(List.of(), fixture.port.unitSnapshots("payments", "2026-10-01"));
    }

    @Test
    void ensureTable_twiceIsANoOp() {
        TableFixture fixture = new TableFixture();
        int schemaId = fixture.table().schema().schemaId();

        fixture.port.ensureTable(fixture.contract);

        assertEquals(schemaId, fixture.table().schema().schemaId());
    }

    @Test
    void replaceUnit_commitsTheRowsExactlyWithThePublishInTheSummary() {
        TableFixture fixture = new TableFixture();
        String text = TableFixture.line("a", "19.99", 1, "2026-10-01T21:30:00.123456Z", "2026-09-30") + "\n"
                + TableFixture.line("b", "1e+3", 2, "2026-10-01T23:59:59Z", "2026-10-01") + "\n";

        TableSnapshot snapshot = fixture.publish("2026-10-01", "run-1", text);

        assertEquals(fixture.port.currentSnapshotId("payments").orElseThrow(), snapshot.snapshotId());
        assertEquals(new TableSnapshot(snapshot.snapshotId(), snapshot.committedAt(), "payments", "2026-10-01", "run-1",
                "sha-run-1", "v-run-1", 1, 2), snapshot);
        Map<String, String> summary = fixture.table().currentSnapshot().summary();
        assertEquals("payments", summary.get("landing.dataset"));
        assertEquals("2026-10-01", summary.get("landing.unit"));
        assertEquals("run-1", summary.get("landing.run-id"));
        assertEquals("sha-run-1", summary.get("landing.content-sha256"));
        assertEquals("v-run-1", summary.get("landing.input-version"));
        assertEquals("1", summary.get("landing.contract-version"));

        List<Record> rows = fixture.rows(null);
        assertEquals(2, rows.size());
        Record a = rows.stream().filter(r -> r.getField("id").equals("a")).findFirst().orElseThrow();
        assertEquals(new BigDecimal("19.99"), a.getField("amount"));
        assertEquals(OffsetDateTime.of(2026, 10, 1, 21, 30, 0, 123_456_000, ZoneOffset.UTC), a.getField("paid_at"));
        assertEquals(LocalDate.parse("2026-09-30"), a.getField("booked"));
        assertEquals(1L, a.getField("attempt"));
        assertEquals(LocalDate.parse("2026-10-01"), a.getField("unit"));
        assertNull(a.getField("ratio"));
        Record b = rows.stream().filter(r -> r.getField("id").equals("b")).findFirst().orElseThrow();
        assertEquals(new BigDecimal("1000.00"), b.getField("amount"), "an exponent-form number reads back exactly");
    }

    @Test
    void replaceUnit_namesItsDataFileForThePublishInTheUnitsPartition() throws IOException {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(3, 100));

        List<String> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = fixture.table().newScan().planFiles()) {
            tasks.forEach(t -> files.add(t.file().location()));
        }
        assertEquals(1, files.size());
        assertTrue(files.get(0).matches(".*/data/unit=2026-10-01/sha-run-1-run-1-[0-9a-f-]{36}\\.parquet"),
                files.get(0));
    }

    @Test
    void restatement_replacesThePartitionAndTheOlderSnapshotStillReadsTheOldRows() {
        TableFixture fixture = new TableFixture();
        TableSnapshot first = fixture.publish("2026-10-01", "run-1", TableFixture.lines(5, 100));
        fixture.publish("2026-10-02", "run-2", TableFixture.lines(2, 100));
        TableSnapshot restated = fixture.publish("2026-10-01", "run-3", TableFixture.lines(4, 200));

        List<Record> current = fixture.rows(null);
        assertEquals(6, current.size(), "the restated unit holds its new rows only, the other unit is untouched");
        assertEquals(4, current.stream().filter(r -> r.getField("unit").equals(LocalDate.parse("2026-10-01"))).count());
        assertEquals(new BigDecimal("2.00"), current.stream().filter(r -> r.getField("id").equals("p0")
                && r.getField("unit").equals(LocalDate.parse("2026-10-01"))).findFirst().orElseThrow()
                .getField("amount"));

        List<Record> before = fixture.rows(first.snapshotId());
        assertEquals(5, before.size());
        assertEquals(new BigDecimal("1.00"), before.stream().filter(r -> r.getField("id").equals("p0"))
                .findFirst().orElseThrow().getField("amount"));

        List<TableSnapshot> history = fixture.port.unitSnapshots("payments", "2026-10-01");
        assertEquals(List.of(restated.snapshotId(), first.snapshotId()),
                history.stream().map(TableSnapshot::snapshotId).toList());
        assertEquals(List.of("run-3", "run-1"), history.stream().map(TableSnapshot::runId).toList());
        assertEquals(List.of(4L, 5L), history.stream().map(TableSnapshot::rows).toList());
    }

    @Test
    void replaceUnit_refusesWhenAnotherCommitAddedToTheUnitSinceTheSnapshotItRead() {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        long read = fixture.port.currentSnapshotId("payments").orElseThrow();
        TableSnapshot other = fixture.publish("2026-10-01", "run-2", TableFixture.lines(3, 100), read);

        TableConflictException conflict = assertThrows(TableConflictException.class,
                () -> fixture.publish("2026-10-01", "run-3", TableFixture.lines(4, 100), read));

        assertTrue(conflict.getMessage().contains("2026-10-01"), conflict.getMessage());
        assertEquals(other.snapshotId(), fixture.port.currentSnapshotId("payments").orElseThrow(), "nothing committed");
        assertEquals(3, fixture.rows(null).size());
    }

    @Test
    void replaceUnit_refusesAFirstCommitWhenAnotherWriterCommittedTheUnitToTheEmptyTable() {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100), null);

        assertThrows(TableConflictException.class,
                () -> fixture.publish("2026-10-01", "run-2", TableFixture.lines(4, 100), null));
        assertEquals(2, fixture.rows(null).size());
    }

    @Test
    void replaceUnit_commitsOverACompactionOfTheUnitSinceTheSnapshotItRead() {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        long read = fixture.port.currentSnapshotId("payments").orElseThrow();
        Table table = fixture.table();
        // what S3 Tables' compaction commits: a replace snapshot rewriting the unit's file, with no publish identity
        DataFile old = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
        DataFile compacted = org.apache.iceberg.DataFiles.builder(table.spec()).copy(old)
                .withPath(old.location().replace(".parquet", "-compacted.parquet")).build();
        table.newRewrite().deleteFile(old).addFile(compacted).commit();

        TableSnapshot mine = fixture.publish("2026-10-01", "run-2", TableFixture.lines(3, 100), read);

        assertEquals(mine.snapshotId(), fixture.port.currentSnapshotId("payments").orElseThrow());
        assertEquals(3, fixture.rows(null).size(), "the compacted file went with the partition it replaced");
        assertEquals(List.of("run-2", "run-1"), fixture.port.unitSnapshots("payments", "2026-10-01").stream()
                .map(TableSnapshot::runId).toList());
    }

    @Test
    void replaceUnit_ofAnotherUnitFromAStaleSnapshotCommits() {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        long read = fixture.port.currentSnapshotId("payments").orElseThrow();
        fixture.publish("2026-10-02", "run-2", TableFixture.lines(3, 100), read);

        fixture.publish("2026-10-03", "run-3", TableFixture.lines(4, 100), read);

        assertEquals(9, fixture.rows(null).size());
    }

    @Test
    void replaceUnit_ofAnEmptyPublishEmptiesThePartition() {
        TableFixture fixture = new TableFixture();
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));

        TableSnapshot empty = fixture.publish("2026-10-01", "run-2", "");

        assertEquals(0, empty.rows());
        assertEquals(0, fixture.rows(null).size());
        assertEquals("run-2", fixture.port.unitSnapshots("payments", "2026-10-01").get(0).runId());
    }

    @Test
    void replaceUnit_withALineThatDoesNotFitCommitsNothingAndNamesOnlyTheLineAndColumn() {
        TableFixture fixture = new TableFixture();
        TableSnapshot standing = fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        String text = TableFixture.lines(2, 100)
                + TableFixture.line("x", "12.345", 1, "2026-10-01T00:00:00Z", "2026-10-01");

        RowConversionException refused = assertThrows(RowConversionException.class,
                () -> fixture.publish("2026-10-01", "run-2", text));

        assertEquals(3, refused.line());
        assertEquals("amount", refused.column());
        assertFalse(refused.getMessage().contains("12.345"), refused.getMessage());
        assertEquals(standing.snapshotId(), fixture.port.currentSnapshotId("payments").orElseThrow());
        assertEquals(2, fixture.rows(null).size());
    }

    @Test
    void unitSnapshots_skipsSnapshotsWithoutAPublishIdentity() {
        TableFixture fixture = new TableFixture();
        TableSnapshot ours = fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        Table table = fixture.table();
        // another engine's commit to the unit (a compaction would be a replace; any commit without landing.*)
        DataFile copy = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
        table.newFastAppend().appendFile(copy).commit();

        List<TableSnapshot> found = fixture.port.unitSnapshots("payments", "2026-10-01");

        assertEquals(List.of(ours.snapshotId()), found.stream().map(TableSnapshot::snapshotId).toList());
        assertEquals(List.of(), fixture.port.unitSnapshots("payments", "2026-10-02"));
    }

    @Test
    void ensureTable_followsAContractThatAddsAColumnKeepingFieldIds() {
        TableFixture fixture = new TableFixture();
        TableSnapshot before = fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));
        Schema old = fixture.table().schema();
        DatasetContract v2 = TestContracts.fromJson("payments.json", TableFixture.payments("daily")
                .replace("\"version\": 1", "\"version\": 2")
                .replace("\"refunded\": { \"type\": \"boolean\",   \"nullable\": true }",
                        "\"refunded\": { \"type\": \"boolean\",   \"nullable\": true },\n"
                                + "    \"channel\":  { \"type\": \"string\", \"required\": true }"));

        fixture.port.ensureTable(v2);

        Schema evolved = fixture.table().schema();
        for (Types.NestedField column : old.columns()) {
            assertEquals(column.fieldId(), evolved.findField(column.name()).fieldId(), column.name());
        }
        Types.NestedField channel = evolved.findField("channel");
        assertTrue(channel.isOptional(), "units published before hold no value");
        assertTrue(channel.fieldId() > old.highestFieldId());
        String line = TableFixture.line("n", "5", 1, "2026-10-02T00:00:00Z", "2026-10-02").replace("\"booked\"",
                "\"channel\":\"web\",\"booked\"");
        fixture.port.replaceUnit(v2, new io.landingledger.core.table.TableCommit("payments", "2026-10-02", "run-2",
                "sha-2", null, 2, before.snapshotId()), TableFixture.bytes(line + "\n"));
        List<Record> rows = fixture.rows(null);
        assertEquals(3, rows.size());
        assertEquals(2, rows.stream().filter(r -> r.getField("channel") == null).count());
        assertEquals(1, rows.stream().filter(r -> "web".equals(r.getField("channel"))).count());
        assertEquals(2, fixture.rows(before.snapshotId()).size());
    }

    @Test
    void ensureTable_withAnOlderContractVersionKeepsTheNewerSchema() {
        TableFixture fixture = new TableFixture();
        DatasetContract widened = TestContracts.fromJson("payments.json", TableFixture.payments("daily")
                .replace("\"version\": 1", "\"version\": 2").replace("\"precision\": 12", "\"precision\": 14"));
        fixture.port.ensureTable(widened);
        assertEquals(Types.DecimalType.of(14, 2), fixture.table().schema().findType("amount"));
        assertEquals("2", fixture.table().properties().get("landing.contract-version"));

        fixture.port.ensureTable(fixture.contract); // a unit last published under version 1
        fixture.publish("2026-10-01", "run-1", TableFixture.lines(2, 100));

        assertEquals(Types.DecimalType.of(14, 2), fixture.table().schema().findType("amount"));
        assertEquals(new BigDecimal("1.00"), fixture.rows(null).stream().filter(r -> r.getField("id").equals("p0"))
                .findFirst().orElseThrow().getField("amount"));
    }

    @Test
    void ensureTable_refusesAChangeTheTableCannotFollow() {
        TableFixture fixture = new TableFixture();
        DatasetContract narrowed = TestContracts.fromJson("payments.json", TableFixture.payments("daily")
                .replace("\"version\": 1", "\"version\": 2").replace("\"precision\": 12, \"scale\": 2",
                        "\"precision\": 12, \"scale\": 3"));

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> fixture.port.ensureTable(narrowed));

        assertTrue(refused.getMessage().contains("amount"), refused.getMessage());
    }

    @Test
    void hourlyUnits_areTimestamptzHoursAndListUnitsStrings() {
        TableFixture hourly = new TableFixture(TableFixture.contract("hourly"));
        assertEquals(Types.TimestampType.withZone(), hourly.table().schema().findType("unit"));
        hourly.publish("2026-10-01T05", "run-1", TableFixture.lines(2, 100));
        hourly.publish("2026-10-01T06", "run-2", TableFixture.lines(3, 100));
        hourly.publish("2026-10-01T05", "run-3", TableFixture.lines(1, 100));
        List<Record> rows = hourly.rows(null);
        assertEquals(4, rows.size());
        assertEquals(1, rows.stream().filter(r -> r.getField("unit")
                .equals(OffsetDateTime.of(2026, 10, 1, 5, 0, 0, 0, ZoneOffset.UTC))).count());

        DatasetContract list = TestContracts.fromJson("payments.json", TableFixture.payments("list")
                .replace("\"first\": \"2026-10-01\"", "\"units\": [\"north\", \"south\"]"));
        TableFixture named = new TableFixture(list);
        assertEquals(Types.StringType.get(), named.table().schema().findType("unit"));
        named.publish("north", "run-1", TableFixture.lines(2, 100));
        assertEquals("north", named.rows(null).get(0).getField("unit"));
    }
}
