package io.landingledger.tools.bench.fleet;

import io.landingledger.core.sweep.ShardBudget;
import io.landingledger.core.sweep.SweepMode;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fleet simulation's short variant: what `landing fleet-sim` runs at 10,000 datasets, at 40. */
class FleetSimulationTest {
    @Test
    void aSmallFleetsDay_readsTheChangedDatasetsOnly_andPrintsEveryFigure() {
        FleetSimulation.Config config = new FleetSimulation.Config(40, 60, 26, 50, new ShardBudget(10, 10_000), 3, 6);
        FleetSimulation.Day day = new FleetSimulation(config).run(io.landingledger.core.testing.TestContracts.progressEvents());

        assertEquals(40, day.initialFull().datasetsRead());
        assertEquals(4, day.initialFull().shards());
        assertTrue(day.initialFull().finished());
        assertTrue(day.initialFull().total().s3List >= 80, "two listings a dataset: " + day.initialFull().total().s3List);
        assertTrue(day.initialFull().total().s3Put >= 200, "five report PUTs a dataset: " + day.initialFull().total().s3Put);
        for (FleetSimulation.SweepFigures hour : day.hourly()) {
            if (hour.mode() == SweepMode.FULL) {
                assertEquals(40, hour.datasetsRead());
            } else {
                assertTrue(hour.datasetsRead() < 40, hour.label() + " read " + hour.datasetsRead());
                assertTrue(hour.reasons().keySet().stream().allMatch(r -> r.equals("changed") || r.equals("clock")), hour.reasons().toString());
            }
            assertTrue(hour.finished(), hour.label());
        }

        FleetSimCommand.Result result = FleetSimCommand.result(day);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FleetSimCommand.print(new PrintStream(out, true, StandardCharsets.UTF_8), config, day, result, 1);
        String text = out.toString(StandardCharsets.UTF_8);
        for (String figure : new String[] {"S3 LIST / GET / PUT / HEAD", "DynamoDB read units", "slowest shard", "wall time", "a shard's heap",
                "monthly (30 days)", "goal:"}) {
            assertTrue(text.contains(figure), figure + " in\n" + text);
        }
        assertTrue(result.monthlyDollars() > 0);
    }

    @Test
    void theVolumeCheck_onGeneratedNormalHistories_printsItsFalseAlarms_andCatchesTheTruncatedDays() {
        VolumeSimulation.Figures figures = VolumeSimulation.run(300, 365, 26);
        assertEquals(300 * 365, figures.units());
        assertTrue(figures.judged() > 300 * 300, "warm-up is the first days only: " + figures);
        assertTrue(figures.truncated() > 30, "a truncated day in a thousand: " + figures);
        assertTrue(figures.caught() >= figures.truncated() * 0.9, "truncated days caught: " + figures);
        assertTrue(figures.falseAlarmRate() < 0.003, "false alarms on normal days: " + figures);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FleetSimCommand.printVolume(new PrintStream(out, true, StandardCharsets.UTF_8), figures, 10_000);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("false alarms " + figures.falseAlarms()) && text.contains("truncated days caught " + figures.caught()),
                text);
        System.out.print(text);
    }
}
