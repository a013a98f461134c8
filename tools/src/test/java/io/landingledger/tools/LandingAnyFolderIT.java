package io.landingledger.tools;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.cli.testing.LandingScript;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing} run from a folder that is not the checkout, as a user on call runs it: contract names resolve to
 * the product's bundled contracts, and a Python without moto gets one line saying how to install it.
 * ({@code LandingLocalIT} runs the whole local pipeline from another folder.)
 */
class LandingAnyFolderIT {
    private static final Path EXAMPLES = Path.of("../examples/inbox").toAbsolutePath().normalize();

    @Test
    void validate_aDatasetName_fromAnotherFolder_usesTheBundledContract(@TempDir Path elsewhere) throws Exception {
        Path input = elsewhere.resolve("batch.csv");
        Files.copy(EXAMPLES.resolve("transactions/transactions-2026-10-01.csv"), input);
        LandingRun run = LandingScript.landingIn(elsewhere, Map.of(), "validate", "--contract", "transactions", "batch.csv");
        assertEquals(0, run.exit(), run.stderr());
        assertEquals("accept", run.json().get("decision"));
        assertEquals("transactions", run.json().get("dataset"));
    }

    @Test
    void validate_anUnknownDatasetName_saysWhichAreBundledAndExits2(@TempDir Path elsewhere) throws Exception {
        LandingRun run = LandingScript.landingIn(elsewhere, Map.of(), "validate", "--contract", "no_such_dataset",
                EXAMPLES.resolve("transactions/transactions-2026-10-01.csv").toString());
        assertEquals(2, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("no bundled contract named 'no_such_dataset' (bundled: progress_events, transactions)"), run.stderr());
        assertEquals("", run.stdout());
    }

    @Test
    void local_whenPythonHasNoMoto_saysHowToInstallItInOneLine(@TempDir Path elsewhere) throws Exception {
        // a moto package that cannot be imported shadows the installed one, as on a machine without moto
        Path fake = Files.createDirectories(elsewhere.resolve("pythonpath/moto"));
        Files.writeString(fake.resolve("__init__.py"), "raise ImportError(\"No module named 'moto'\")\n");
        LandingRun run = LandingScript.landingIn(elsewhere, Map.of("PYTHONPATH", elsewhere.resolve("pythonpath").toString()),
                "local", "--export", elsewhere.resolve("out").toString());
        assertEquals(2, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("pip install 'moto[server]'"), run.stderr());
        assertTrue(run.stderr().contains("image ships it"), run.stderr());
        assertFalse(run.stderr().contains("\tat "), "no stack trace: " + run.stderr());
        assertEquals("", run.stdout());
    }
}
