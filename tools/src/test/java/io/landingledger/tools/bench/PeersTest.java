package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code landing bench --peers}: what it runs; the runs themselves are {@link BenchPeersIT}'s. */
class PeersTest {
    @Test
    void theDuckDbPeer_isTheVersionTheRepositoryTestsWith() throws IOException {
        Path pom = PerfTesting.contract().getParent().resolveSibling("pom.xml");
        Matcher version = Pattern.compile("<duckdb.version>([^<]+)</duckdb.version>").matcher(Files.readString(pom));
        assertTrue(version.find(), pom.toString());
        assertEquals(version.group(1), Peers.DUCKDB_VERSION, "the default --duckdb-jar is Maven's copy of this version");
        assertTrue(Peers.defaultDuckDbJar().toString().endsWith("duckdb_jdbc-" + version.group(1) + ".jar"));
    }

    @Test
    void theSeedRules_areFoundInTheRepository() {
        Path script = Peers.findSeedRules();
        assertNotNull(script, "scripts/peers/seed_rules.py above " + Path.of("").toAbsolutePath());
        assertTrue(Files.isRegularFile(script));
    }

    @Test
    void peers_withoutAFile_exitTwo() {
        LandingRun run = PerfTesting.bench("--peers", "--lines", "10");
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("--peers measures a --file"), run.stderr());
    }

    @Test
    void peers_withoutTheDuckDbJar_exitTwoSayingWhere(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("progress-2026-03-02.jsonl"), "");
        LandingRun run = PerfTesting.bench("--peers", "--file", file.toString(), "--duckdb-jar", dir.resolve("none.jar").toString());
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("no duckdb_jdbc jar at " + dir.resolve("none.jar")), run.stderr());
    }
}
