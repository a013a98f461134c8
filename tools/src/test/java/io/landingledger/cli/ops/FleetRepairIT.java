package io.landingledger.cli.ops;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;
import io.landingledger.core.ingest.LakeLayout;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing repair --all-datasets --status LEDGER_DRIFT}: a publish deleted in each of two datasets, found by the
 * sweep, planned with its blast radius per dataset, then repaired with one job per dataset; and the explicit-units form
 * over named datasets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class FleetRepairIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    Path work;
    WatchedLocalStack stack;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("fleet-repair-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        for (String[] file : List.of(new String[] {"progress_events", "progress-2026-03-01.jsonl"},
                new String[] {"progress_events", "progress-2026-03-02.jsonl"},
                new String[] {"transactions", "transactions-2026-10-01.csv"}, new String[] {"transactions", "transactions-2026-10-02.csv"})) {
            Path target = work.resolve("inbox/" + file[0] + "/" + file[1]);
            Files.createDirectories(target.getParent());
            Files.copy(ROOT.resolve("examples/inbox/" + file[0] + "/" + file[1]), target);
        }
        stack = WatchedLocalStack.startIn(work);
    }

    @AfterAll
    void stop() throws Exception {
        stack.close();
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    @Test
    @SuppressWarnings("unchecked")
    void repairEveryUnitWithAStatusAcrossDatasets() throws Exception {
        for (String[] unit : List.of(new String[] {"progress_events", "2026-03-02"}, new String[] {"transactions", "2026-10-01"})) {
            stack.s3.deleteObject(r -> r.bucket(stack.record.lakeBucket()).key(LakeLayout.publishedKey(unit[0], unit[1])));
        }
        // the drift, live and read-only; the status tables are then written as a sweep classifies (a real sweep of
        // these datasets would also re-drive the units itself, autoRedrive, and heal them before the repair)
        LandingRun drift = LandingRun.inProcess("status", "--drift");
        assertTrue(drift.stdout().contains("LEDGER_DRIFT"), drift.stdout() + drift.stderr());
        writeStatus("progress_events", "2026-03-02");
        writeStatus("transactions", "2026-10-01");

        LandingRun plan = LandingRun.inProcess("repair", "--all-datasets", "--status", "LEDGER_DRIFT", "--reason", "INC-9 lifecycle rule",
                "--dry-run", "--json");
        assertEquals(0, plan.exit(), plan.stdout() + plan.stderr());
        List<Map<String, Object>> datasets = (List<Map<String, Object>>) plan.json().get("datasets");
        assertEquals(List.of("progress_events", "transactions"), datasets.stream().map(d -> d.get("dataset")).toList());
        assertEquals(List.of("2026-03-02"), datasets.get(0).get("units"));
        assertEquals(List.of("2026-10-01"), datasets.get(1).get("units"));
        assertEquals(1, ((List<?>) datasets.get(1).get("blast_radius")).size());
        assertEquals(0, stack.s3.listObjectsV2(r -> r.bucket(stack.record.lakeBucket()).prefix(LakeLayout.publishedKey("transactions", "2026-10-01")))
                .contents().size(), "a dry run writes nothing");

        LandingRun text = LandingRun.inProcess("repair", "--datasets", "progress_events,transactions", "--status", "LEDGER_DRIFT",
                "--reason", "INC-9 lifecycle rule", "--dry-run");
        assertTrue(text.stdout().contains("== progress_events (1 unit(s))") && text.stdout().contains("== transactions (1 unit(s))")
                && text.stdout().contains("Fleet: 2 unit(s) across 2 dataset(s)"), text.stdout());
        assertEquals(2, LandingRun.inProcess("repair", "--all-datasets", "--status", "LEDGER_DRIFT", "--reason", "x").exit(),
                "no terminal to confirm on, no --yes");

        LandingRun repaired = LandingRun.inProcess("repair", "--all-datasets", "--status", "LEDGER_DRIFT", "--reason", "INC-9 lifecycle rule",
                "--yes", "--parallel", "2");
        assertEquals(0, repaired.exit(), repaired.stdout() + repaired.stderr());
        assertTrue(repaired.stdout().contains("Repaired: every unit listed was restored, in every dataset."), repaired.stdout());
        for (String[] unit : List.of(new String[] {"progress_events", "2026-03-02"}, new String[] {"transactions", "2026-10-01"})) {
            assertEquals(1, stack.s3.listObjectsV2(r -> r.bucket(stack.record.lakeBucket()).prefix(LakeLayout.publishedKey(unit[0], unit[1])))
                    .contents().size(), unit[0] + "/" + unit[1] + " republished");
        }

        // explicit units over named datasets: one job per dataset, each with these units
        LandingRun named = LandingRun.inProcess("repair", "--datasets", "transactions", "2026-10-01", "2026-10-02", "--reason", "check",
                "--dry-run", "--json");
        assertEquals(0, named.exit(), named.stderr());
        assertEquals(List.of("2026-10-01", "2026-10-02"), ((List<Map<String, Object>>) named.json().get("datasets")).get(0).get("units"));
        assertEquals(2, LandingRun.inProcess("repair", "--all-datasets", "--from", "2026-10-01", "--status", "OK", "--reason", "x").exit(),
                "one unit selection only");
    }

    /** A status table as the sweep writes it, with {@code unit} LEDGER_DRIFT (the scheduled sweep's re-drive would heal it first). */
    private void writeStatus(String dataset, String unit) {
        stack.s3.putObject(r -> r.bucket(stack.record.lakeBucket()).key(LakeLayout.statusKey(dataset)),
                software.amazon.awssdk.core.sync.RequestBody.fromString("{\"unit\":\"" + unit + "\",\"status\":\"LEDGER_DRIFT\",\"reason\":\"PUBLISHED_OBJECT_MISSING\"}\n"));
    }
}
