package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The peak day on paper: the model's arithmetic, on made-up inputs (the model, not this machine, is under test). */
class LambdaEstimateTest {
    /** 100 MB/s at 1 worker, 180 at 2: 90 a worker past 2; an in-order thread that reaches 600 MB/s; S3 8 x 85. */
    private static final LambdaEstimate.Inputs INPUTS = new LambdaEstimate.Inputs(Map.of(1, 100.0, 2, 180.0), 600, 8, 85, 30.5, 2_000_000);

    @Test
    void tenGigabytes_sixVcpus_oneVcpuPer1769Mb() {
        assertEquals(6, LambdaEstimate.vcpus(10_240));
        assertEquals(1, LambdaEstimate.vcpus(1_769));
        assertEquals(2, LambdaEstimate.vcpus(3_538));
        assertEquals(1, LambdaEstimate.vcpus(512), "a fraction of a vCPU is still one thread");
    }

    @Test
    void aTimedCount_usesItsMedian_pastTheTimedCounts_thePerWorkerRateOfTheLargest() {
        LambdaEstimate.Row two = LambdaEstimate.estimate(INPUTS, 3_538);
        assertTrue(two.parseMeasured());
        assertEquals(180.0, two.parseMBps());
        LambdaEstimate.Row four = LambdaEstimate.estimate(INPUTS, 7_076);
        assertFalse(four.parseMeasured());
        assertEquals(360.0, four.parseMBps(), 1e-9);
        assertEquals("parse", four.boundBy());
        assertEquals(12.5e9 / 360e6, four.seconds(), 1e-9);
    }

    @Test
    void theInOrderThread_capsTheParse_andSoDoesS3() {
        LambdaEstimate.Row six = LambdaEstimate.estimate(INPUTS, 10_240);
        assertEquals(540.0, six.parseMBps(), 1e-9);
        LambdaEstimate.Inputs slowInOrder = new LambdaEstimate.Inputs(Map.of(1, 100.0, 2, 180.0), 400, 8, 85, 30.5, 2_000_000);
        assertEquals("in-order", LambdaEstimate.estimate(slowInOrder, 10_240).boundBy());
        assertEquals(400.0, LambdaEstimate.estimate(slowInOrder, 10_240).rateMBps());
        LambdaEstimate.Inputs oneConnection = new LambdaEstimate.Inputs(Map.of(1, 100.0, 2, 180.0), 600, 1, 85, 30.5, 2_000_000);
        assertEquals("S3", LambdaEstimate.estimate(oneConnection, 10_240).boundBy());
        assertEquals(85.0, LambdaEstimate.estimate(oneConnection, 10_240).rateMBps());
    }

    @Test
    void theIndex_fitsTheDefaultBudgetAt10240_andSpillsToTmpAt1769() {
        LambdaEstimate.Row big = LambdaEstimate.estimate(INPUTS, 10_240);
        assertEquals(30.5 * 49_000_000, big.indexBytes(), 1);
        assertFalse(big.spills());
        assertEquals(512, big.ephemeralMb(), "nothing spills: the default ephemeral storage");
        assertEquals(big.seconds(), big.worstSeconds());

        LambdaEstimate.Row small = LambdaEstimate.estimate(INPUTS, 1_769);
        assertTrue(small.spills(), "0.85 x 1,769 MiB / 2 < 1.49 GB");
        assertEquals(Math.ceil(32.0 * 49_000_000 / (1 << 20)), small.ephemeralMb());
        assertEquals(2 * small.seconds(), small.worstSeconds(), "a second pass at worst");
        int smallest = LambdaEstimate.smallestMemoryHoldingTheIndexMb(INPUTS);
        assertFalse(LambdaEstimate.estimate(INPUTS, smallest).spills());
        assertTrue(LambdaEstimate.estimate(INPUTS, smallest - 2).spills());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theReport_saysItIsAnEstimate_andNamesItsModelAndInputs() {
        Map<String, Object> report = LambdaEstimate.report(INPUTS);
        assertTrue(((String) report.get("estimate")).contains("not a measurement"));
        assertTrue(((String) report.get("model")).contains("min(parse, in-order, S3)"));
        Map<String, Object> inputs = (Map<String, Object>) report.get("inputs");
        assertEquals(600.0, inputs.get("inOrderMBps"));
        assertEquals(90.0, inputs.get("perWorkerMBpsPastMeasured"));
        assertEquals(List.of(1_769, 3_538, 7_076, 10_240),
                ((List<Map<String, Object>>) report.get("byMemory")).stream().map(r -> r.get("memoryMb")).toList());
    }

    @Test
    void theBenchTable_printsTheEstimateLabelledAsOne() {
        LandingRun run = PerfTesting.bench("--lines", "3000", "--repeat", "1", "--contract", PerfTesting.contract().toString(),
                "--no-file-output", "--no-retained-heap", "--workers-sweep", "1");
        assertEquals(0, run.exit(), run.stderr());
        String flat = run.stdout().replaceAll("\\s+", " "); // the long lines are wrapped
        assertTrue(flat.contains("on paper AN ESTIMATE FROM A MODEL, not a measurement"), run.stdout());
        assertTrue(flat.contains("model: time = 12.5 GB / rate"), run.stdout());
        assertTrue(run.stdout().lines().anyMatch(l -> l.trim().startsWith("10,240 ")), run.stdout());
        assertTrue(flat.contains("Settings it needs: MemorySize 10240"), run.stdout());
        assertTrue(flat.contains("index 30.44 B/key (measured on 49,000,815 keys: docs/performance.md's whole peak day"),
                "a 3,000-line file's own figure is the index's first chunk, not a day's: " + run.stdout());
    }
}
