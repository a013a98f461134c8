package io.landingledger.tools.bench;

import static io.landingledger.tools.bench.FigureMath.median;
import static io.landingledger.tools.bench.FigureMath.round;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.validate.ValidationLimits;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code landing bench --peers}: one file through four whole programs, in rounds so that all see the same machine:
 * {@code landing validate} (the JVM {@code ./landing} starts, with its options), DuckDB via JDBC ({@link DuckDbPeer}
 * in a JVM of its own) and seed 002's rules in Python ({@code scripts/peers/seed_rules.py}) in two shapes: streamed,
 * and as the seed's walkthrough program is written (every accepted row held, written at the end). Each writes its
 * accepted rows to a file, deleted after the run. Per program: wall time from start to exit, MB/s of text, CPU time
 * and peak resident set ({@link ChildProcessGauge}) and the accepted row count, which must agree between the
 * validator and the seed rules. The goals the report checks: at least 3x DuckDB's throughput and 20x the streamed
 * seed rules' (the faster of the two shapes); the ratio over the seed as written is reported beside it.
 */
final class Peers {
    /** The duckdb_jdbc version the repository tests with (the root pom's {@code duckdb.version}). */
    static final String DUCKDB_VERSION = "2.0.0.1";
    static final double GOAL_OVER_DUCKDB = 3;
    static final double GOAL_OVER_SEED_RULES = 20;
    static final String SEED_RULES = "scripts/peers/seed_rules.py";
    static final String SEED_STREAMED = "seed rules";
    static final String SEED_AS_WRITTEN = "seed as written";

    /**
     * @param workers      {@code landing validate --workers}, or null for its default (the processors)
     * @param duckDbThreads DuckDB's {@code SET threads}
     * @param seedAsWritten whether the seed as its walkthrough is written runs too (it holds every accepted row)
     */
    record Settings(Path file, long textBytes, Path contract, long maxRejected, int runs, Path workDir, Path duckDbJar,
                    int duckDbThreads, String python, Path seedRules, Integer workers, boolean seedAsWritten) {
    }

    /** One program: its name, what it does, and its command line writing accepted rows to {@code accepted}. */
    record Program(String name, String description, List<String> command, Path accepted) {
    }

    /** One run of a program: wall time, the gauge's figures, the exit status and the summary it printed. */
    record Run(long nanos, long cpuNanos, long peakRssBytes, int exit, Map<String, Object> summary) {
        long accepted() {
            Object a = summary.get("accepted");
            return a instanceof Number n ? n.longValue() : -1;
        }
    }

    private final Settings settings;
    private final PrintStream progress;

    Peers(Settings settings, PrintStream progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /** The default duckdb_jdbc jar: where Maven put the test dependency ({@code ~/.m2/repository}). */
    static Path defaultDuckDbJar() {
        return Path.of(System.getProperty("user.home"), ".m2", "repository", "org", "duckdb", "duckdb_jdbc", DUCKDB_VERSION,
                "duckdb_jdbc-" + DUCKDB_VERSION + ".jar");
    }

    /** {@code scripts/peers/seed_rules.py} in the working directory or above it, or above the landing jar; null if none. */
    static Path findSeedRules() {
        List<Path> starts = new ArrayList<>(List.of(Path.of("").toAbsolutePath()));
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            starts.add(Path.of(entry).toAbsolutePath());
        }
        for (Path start : starts) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(SEED_RULES);
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** The four programs, each as the command line it runs with. */
    List<Program> programs() {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        String file = settings.file().toAbsolutePath().toString();
        Path dir = settings.workDir();

        List<String> landing = new ArrayList<>(List.of(javaBin));
        // the options this JVM was started with: ./landing's (its LANDING_JAVA_OPTS or defaults)
        landing.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        landing.addAll(List.of("-cp", classPath, "io.landingledger.cli.Landing", "validate", "--quiet", "--contract",
                settings.contract().toAbsolutePath().toString(), "--accepted", dir.resolve("landing-accepted.jsonl").toString()));
        if (settings.workers() != null) {
            landing.addAll(List.of("--workers", settings.workers().toString()));
        }
        landing.add(file);
        int workers = settings.workers() != null ? settings.workers() : ValidationLimits.DEFAULT_WORKERS;

        List<String> duckDb = List.of(javaBin, "--enable-native-access=ALL-UNNAMED", "-cp",
                classPath + java.io.File.pathSeparator + settings.duckDbJar(), DuckDbPeer.class.getName(), file,
                dir.resolve("duckdb-accepted.jsonl").toString(), Integer.toString(settings.duckDbThreads()));

        String python = pythonVersion(settings.python());

        List<Program> programs = new ArrayList<>(List.of(
                new Program("landing validate", "./landing's JVM, validate --accepted, " + workers + " worker"
                        + (workers == 1 ? "" : "s"), landing, dir.resolve("landing-accepted.jsonl")),
                new Program("duckdb", "DuckDB " + DUCKDB_VERSION + " JDBC, " + settings.duckDbThreads()
                        + " threads: typed read_ndjson, conflicts, DISTINCT out", duckDb, dir.resolve("duckdb-accepted.jsonl")),
                seedRules(SEED_STREAMED, "seed 002's rules, " + python + ", streamed", "streamed", dir.resolve("seed-accepted.jsonl"))));
        if (settings.seedAsWritten()) {
            programs.add(seedRules(SEED_AS_WRITTEN, "seed 002's rules, " + python + ", as its walkthrough: rows held, one write",
                    "as-written", dir.resolve("seed-as-written-accepted.jsonl")));
        }
        return programs;
    }

    /** {@code scripts/peers/seed_rules.py} in one of its shapes, writing its accepted rows to {@code accepted}. */
    private Program seedRules(String name, String description, String shape, Path accepted) {
        return new Program(name, description, List.of(settings.python(), settings.seedRules().toString(),
                settings.file().toAbsolutePath().toString(), "--accepted", accepted.toString(), "--max-rejected",
                Long.toString(settings.maxRejected()), "--shape", shape), accepted);
    }

    /** {@code Python 3.11.7}, as the interpreter names itself, or its command when it will not say. */
    private static String pythonVersion(String python) {
        try {
            Process p = new ProcessBuilder(python, "--version").redirectErrorStream(true).start();
            String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 && !version.isEmpty() ? version : python;
        } catch (IOException e) {
            return python;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return python;
        }
    }

    /** Runs every program {@code runs} times, in rounds, and returns the report (JSON-ready). */
    Map<String, Object> measure() throws IOException {
        List<Program> programs = programs();
        Map<Program, List<Run>> runs = new LinkedHashMap<>();
        programs.forEach(p -> runs.put(p, new ArrayList<>()));
        for (int round = 1; round <= settings.runs(); round++) {
            for (Program p : programs) {
                Run run = run(p);
                runs.get(p).add(run);
                progress.printf(Locale.ROOT, "landing bench: peers: round %d/%d %-16s %.3f s, exit %d, %s accepted%n", round, settings.runs(),
                        p.name(), run.nanos() / 1e9, run.exit(), run.accepted() < 0 ? "-" : String.format(Locale.ROOT, "%,d", run.accepted()));
            }
        }
        return report(runs);
    }

    private Run run(Program program) throws IOException {
        Path stdout = settings.workDir().resolve("peer-stdout.txt");
        Path stderr = settings.workDir().resolve("peer-stderr-" + program.name().replace(' ', '-') + ".txt");
        ProcessBuilder builder = new ProcessBuilder(program.command()).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        long started = System.nanoTime();
        Process process = builder.start();
        int exit;
        long nanos;
        ChildProcessGauge gauge = new ChildProcessGauge(process);
        try (gauge) {
            exit = process.waitFor();
            nanos = System.nanoTime() - started;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + program.name() + " ran", e);
        }
        Map<String, Object> summary = summary(Files.readString(stdout, StandardCharsets.UTF_8));
        Files.deleteIfExists(stdout);
        Files.deleteIfExists(program.accepted());
        if (exit == 0 && !summary.isEmpty()) {
            Files.deleteIfExists(stderr);
        } else {
            // kept for the operator; none of the three writes row content to stderr
            progress.println("landing bench: peers: " + program.name() + " exited " + exit + "; its stderr is in " + stderr);
        }
        return new Run(nanos, gauge.cpuNanos(), gauge.peakRssBytes(), exit, summary);
    }

    /** The JSON object a program printed on stdout (landing validate's spans lines; the peers print one line). */
    private static Map<String, Object> summary(String stdout) {
        String text = stdout.strip();
        if (text.isEmpty()) {
            return Map.of();
        }
        try {
            return JSON.std.mapFrom(text.startsWith("{") && text.endsWith("}") ? text : text.substring(text.lastIndexOf('\n') + 1));
        } catch (IOException e) {
            return Map.of();
        }
    }

    private Map<String, Object> report(Map<Program, List<Run>> runs) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("file", settings.file().toString());
        report.put("textBytes", settings.textBytes());
        report.put("runsPerProgram", settings.runs());
        report.put("measuredAs", "whole processes, start to exit; cpu: utime+stime and peak RSS: VmHWM of /proc/PID, read every 5 ms"
                + " while the process runs");
        List<Object> programs = new ArrayList<>();
        Map<String, Double> medianMBps = new LinkedHashMap<>();
        Map<String, Long> accepted = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<Program, List<Run>> e : runs.entrySet()) {
            Program p = e.getKey();
            List<Run> rs = e.getValue();
            long[] nanos = rs.stream().mapToLong(Run::nanos).sorted().toArray();
            long median = median(nanos);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("description", p.description());
            m.put("command", p.command());
            m.put("wallSeconds", rs.stream().map(r -> round(r.nanos() / 1e9, 3)).toList());
            m.put("bestWallSeconds", round(nanos[0] / 1e9, 3));
            m.put("medianWallSeconds", round(median / 1e9, 3));
            m.put("bestMBps", round(settings.textBytes() / 1e6 / (nanos[0] / 1e9), 1));
            m.put("medianMBps", round(settings.textBytes() / 1e6 / (median / 1e9), 1));
            long[] cpu = rs.stream().mapToLong(Run::cpuNanos).sorted().toArray();
            m.put("medianCpuSeconds", cpu[0] < 0 ? null : round(median(cpu) / 1e9, 3));
            long peak = rs.stream().mapToLong(Run::peakRssBytes).max().orElse(-1);
            m.put("peakRssBytes", peak < 0 ? null : peak);
            m.put("exits", rs.stream().map(Run::exit).toList());
            Run last = rs.getLast();
            m.put("decision", last.summary().get("decision"));
            m.put("accepted", last.accepted());
            programs.add(m);
            medianMBps.put(p.name(), settings.textBytes() / 1e6 / (median / 1e9));
            accepted.put(p.name(), last.accepted());
            if (rs.stream().anyMatch(r -> r.summary().isEmpty() || r.exit() > 1)) {
                problems.add(p.name() + " failed (exits " + m.get("exits") + ")");
            }
            if (rs.stream().map(Run::accepted).distinct().count() > 1) {
                problems.add(p.name() + " accepted different counts in different runs");
            }
        }
        report.put("programs", programs);
        double landing = medianMBps.get("landing validate");
        Map<String, Object> goals = new LinkedHashMap<>();
        goals.put("overDuckDb", round(landing / medianMBps.get("duckdb"), 2));
        goals.put("overDuckDbGoal", GOAL_OVER_DUCKDB);
        goals.put("overSeedRules", round(landing / medianMBps.get(SEED_STREAMED), 2));
        goals.put("overSeedRulesGoal", GOAL_OVER_SEED_RULES);
        if (medianMBps.containsKey(SEED_AS_WRITTEN)) {
            goals.put("overSeedAsWritten", round(landing / medianMBps.get(SEED_AS_WRITTEN), 2));
        }
        report.put("goals", goals);
        for (String seed : List.of(SEED_STREAMED, SEED_AS_WRITTEN)) {
            if (accepted.containsKey(seed) && !accepted.get("landing validate").equals(accepted.get(seed))) {
                problems.add("landing validate accepted " + accepted.get("landing validate") + " rows, " + seed + " " + accepted.get(seed));
            }
        }
        report.put("duckDbAcceptedMinusLanding", accepted.get("duckdb") - accepted.get("landing validate"));
        Map<String, Object> checks = new LinkedHashMap<>();
        checks.put("ok", problems.isEmpty());
        checks.put("problems", problems);
        report.put("checks", checks);
        return report;
    }

    @SuppressWarnings("unchecked")
    static void printTable(Map<String, Object> report, PrintStream out) {
        out.printf(Locale.ROOT, "peers       %s: %,d bytes of text, each program %d time(s), in rounds, after one untimed scan (page cache warm)%n",
                report.get("file"), (long) report.get("textBytes"), (int) report.get("runsPerProgram"));
        out.println("            " + report.get("measuredAs"));
        out.printf(Locale.ROOT, "%-17s %-64s %7s %8s %9s %10s %10s %11s %12s%n", "program", "what", "best s", "median s", "MB/s best",
                "MB/s med.", "cpu s med.", "peak RSS MB", "accepted");
        for (Map<String, Object> p : (List<Map<String, Object>>) report.get("programs")) {
            Object cpu = p.get("medianCpuSeconds");
            Object rss = p.get("peakRssBytes");
            out.printf(Locale.ROOT, "%-17s %-64s %7.3f %8.3f %9.1f %10.1f %10s %11s %12s%n", p.get("name"), p.get("description"),
                    (double) p.get("bestWallSeconds"), (double) p.get("medianWallSeconds"), (double) p.get("bestMBps"),
                    (double) p.get("medianMBps"), cpu == null ? "-" : String.format(Locale.ROOT, "%.3f", (double) cpu),
                    rss == null ? "-" : String.format(Locale.ROOT, "%.1f", (long) rss / 1e6),
                    (long) p.get("accepted") < 0 ? "-" : String.format(Locale.ROOT, "%,d", (long) p.get("accepted")));
        }
        Map<String, Object> g = (Map<String, Object>) report.get("goals");
        double overDuck = (double) g.get("overDuckDb");
        double overSeed = (double) g.get("overSeedRules");
        out.printf(Locale.ROOT, "goals       landing validate's median MB/s is %.2fx DuckDB's (goal: at least %.0fx, %s) and %.2fx the streamed seed"
                        + " rules' (goal: at least %.0fx, %s)%s%n", overDuck, GOAL_OVER_DUCKDB,
                overDuck >= GOAL_OVER_DUCKDB ? "met" : "NOT met", overSeed, GOAL_OVER_SEED_RULES,
                overSeed >= GOAL_OVER_SEED_RULES ? "met" : "NOT met", g.containsKey("overSeedAsWritten")
                        ? String.format(Locale.ROOT, "; %.2fx the seed as written", (double) g.get("overSeedAsWritten")) : "");
        long duckDiff = (long) report.get("duckDbAcceptedMinusLanding");
        out.printf(Locale.ROOT, "accepted    landing validate and the seed rules must agree; DuckDB %s%n", duckDiff == 0 ? "agrees too"
                : String.format(Locale.ROOT, "accepted %+,d rows: its typed reader reads only the contract's columns, so an unknown-field"
                        + " line passes (and a prohibited field would)", duckDiff));
        List<String> problems = (List<String>) ((Map<String, Object>) report.get("checks")).get("problems");
        out.println("checks      " + (problems.isEmpty() ? "ok" : problems.size() + " FAILED: " + String.join("; ", problems)));
    }
}
