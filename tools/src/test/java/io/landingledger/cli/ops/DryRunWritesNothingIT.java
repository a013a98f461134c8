package io.landingledger.cli.ops;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.RecordedLocalStack;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30: every dry run writes nothing, for every combination of {@code landing repair}'s flags and both targets
 * (the repair job in this process, and the stack's repair function through {@code --stack}), end to end through the
 * command line on the stack the template deploys. The stack holds what a dry run could act on (published, refused,
 * drifted and unprocessed units in two datasets, and a sweep's status tables); after each run every object version of
 * every bucket and every item of every table is compared with before. Combinations the command must refuse (decided
 * here by the rules its help states, not by its code) must exit 2 with a message and no stack trace; the others must
 * plan (exit 0, or 1 when a unit cannot be planned) and say nothing was written. The read-only commands (status,
 * explain, history) are checked the same way. {@code -Ddryrun.all=true} runs every selection and dataset form with
 * all 64 action sets (the default runs the 64 on one form and a cross of the rest).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@org.junit.jupiter.api.TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class DryRunWritesNothingIT {
    static final Path EXAMPLES = Path.of("").toAbsolutePath().getParent().resolve("examples/inbox");
    static final boolean ALL = Boolean.getBoolean("dryrun.all");

    /** How the units are chosen. */
    enum Selection {
        ONE_UNIT("2026-03-01"), TWO_UNITS("2026-03-01", "2026-03-03"), FROM("--from", "2026-03-01"),
        FROM_TO("--from", "2026-03-01", "--to", "2026-03-03"), UNIT_AND_FROM("2026-03-01", "--from", "2026-03-01"), NONE,
        NOT_A_DATE("2026-02-30"), BY_STATUS("--status", "LEDGER_DRIFT,UNPROCESSED,REFUSED");

        final List<String> args;

        Selection(String... args) {
            this.args = List.of(args);
        }
    }

    /** Which datasets. */
    enum Datasets {
        ONE("progress_events"), LISTED("--datasets", "progress_events,transactions"), ALL_DATASETS("--all-datasets"),
        LISTED_AND_ALL("--all-datasets", "--datasets", "progress_events"), UNKNOWN("no_such_dataset");

        final List<String> args;

        Datasets(String... args) {
            this.args = List.of(args);
        }

        boolean fleet() {
            return this == LISTED || this == ALL_DATASETS || this == LISTED_AND_ALL;
        }
    }

    static final String[] ACTION_FLAGS = {"--force", "--forward", "--input-version latest", "--omit", "--accept-empty", "--revoke"};

    RecordedLocalStack local;
    Map<String, String> baseline;
    final List<String> findings = new ArrayList<>();
    int runs;

    @BeforeAll
    void aStackWithSomethingToRepair() throws Exception {
        Path work = Files.createTempDirectory("dry-run-");
        local = RecordedLocalStack.start(work);
        String inbox = local.record.inboxBucket();
        for (String day : List.of("01", "02", "03")) {
            put(inbox, "progress_events/progress-2026-03-" + day + ".jsonl", EXAMPLES.resolve("progress_events/progress-2026-03-" + day + ".jsonl"));
        }
        for (String day : List.of("01", "02")) {
            put(inbox, "transactions/transactions-2026-10-" + day + ".csv", EXAMPLES.resolve("transactions/transactions-2026-10-" + day + ".csv"));
        }
        // a refused day: a prohibited field
        String refused = Files.readString(EXAMPLES.resolve("progress_events/progress-2026-03-02.jsonl")).lines().findFirst().orElseThrow()
                .replace("}", ",\"email\":\"x@example.com\"}") + "\n";
        local.s3.putObject(r -> r.bucket(inbox).key("progress_events/progress-2026-03-04.jsonl"), RequestBody.fromString(refused));
        local.stack.awaitIdle(Duration.ofMinutes(3));
        // a deleted publish (LEDGER_DRIFT) and a lost event (UNPROCESSED)
        local.s3.deleteObject(r -> r.bucket(local.record.lakeBucket()).key("published/progress_events/unit=2026-03-01/part-00000.jsonl"));
        local.stack.announceOnly(key -> false);
        put(inbox, "progress_events/progress-2026-03-05.jsonl", EXAMPLES.resolve("progress_events/progress-2026-03-05.jsonl"));
        local.stack.announceOnly(key -> true);
        // the status tables --status reads
        LandingRun sweep = LandingRun.inProcess("sweep", "--json");
        assertTrue(sweep.exit() <= 1, sweep.stdout() + sweep.stderr());
        local.stack.awaitIdle(Duration.ofMinutes(3));
        baseline = local.state();
        TargetOptions.stackApis = null;
    }

    private void put(String bucket, String key, Path file) {
        local.s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromFile(file));
    }

    @AfterAll
    void close() {
        if (local != null) {
            local.close();
        }
    }

    /**
     * The rules {@code landing repair --help} states, independent of the command's code: every reason a combination
     * must be refused for (empty when it must plan). The command names one of them, whichever it checks first.
     */
    static List<String> refusals(Selection selection, Datasets datasets, List<String> actions) {
        List<String> why = new ArrayList<>();
        boolean omit = actions.contains("--omit");
        boolean accept = actions.contains("--accept-empty");
        boolean acceptVolume = actions.contains("--accept-volume");
        int decisions = (omit ? 1 : 0) + (accept ? 1 : 0) + (acceptVolume ? 1 : 0);
        boolean readsInput = actions.contains("--force") || actions.contains("--forward") || actions.contains("--input-version latest");
        if (actions.contains("--revoke") && !accept && !acceptVolume) {
            why.add("--revoke");
        }
        if (decisions > 0 && (decisions > 1 || readsInput)) {
            why.add("--omit, --accept-empty and --accept-volume");
        }
        if (datasets == Datasets.LISTED_AND_ALL) {
            why.add("not both");
        }
        if (!datasets.fleet()) {
            switch (selection) {
                case BY_STATUS -> why.add("--status selects units over many datasets");
                case UNIT_AND_FROM -> why.add("not both");
                case NONE -> why.add("name the units");
                case NOT_A_DATE -> why.add("is not a unit");
                default -> {
                }
            }
            if (datasets == Datasets.UNKNOWN) {
                why.add("unknown dataset");
            }
        } else if (selection == Selection.NONE || selection == Selection.UNIT_AND_FROM) {
            why.add("select the units one way");
        }
        return why;
    }

    static List<List<String>> actionSets() {
        List<List<String>> sets = new ArrayList<>();
        for (int mask = 0; mask < 1 << ACTION_FLAGS.length; mask++) {
            List<String> set = new ArrayList<>();
            for (int bit = 0; bit < ACTION_FLAGS.length; bit++) {
                if ((mask & 1 << bit) != 0) {
                    set.add(ACTION_FLAGS[bit]);
                }
            }
            sets.add(set);
        }
        return sets;
    }

    @Test
    @Order(1)
    void everyDryRun_ofEveryFlagCombination_onBothTargets_writesNothing_andTheRefusedOnesSayWhy() throws Exception {
        List<List<String>> every = actionSets();
        List<List<String>> some = List.of(List.of(), List.of("--omit"), List.of("--accept-empty", "--revoke"), List.of("--force", "--forward"),
                List.of("--omit", "--force"), List.of("--revoke"), List.of("--accept-volume"), List.of("--accept-volume", "--revoke"),
                List.of("--accept-volume", "--accept-empty"), List.of("--accept-volume", "--force"));
        for (boolean remote : new boolean[] {false, true}) {
            for (List<String> actions : every) {
                dryRun(remote, Selection.ONE_UNIT, Datasets.ONE, actions, actions.size() % 2 == 0);
                dryRun(remote, Selection.BY_STATUS, Datasets.ALL_DATASETS, actions, actions.size() % 2 == 1);
            }
            for (Selection selection : Selection.values()) {
                for (Datasets datasets : Datasets.values()) {
                    for (List<String> actions : ALL ? every : some) {
                        dryRun(remote, selection, datasets, actions, (selection.ordinal() + datasets.ordinal()) % 2 == 0);
                    }
                }
            }
        }
        System.out.println("[dry-run] " + runs + " dry runs of landing repair (both targets), " + findings.size() + " finding(s)");
        assertTrue(findings.isEmpty(), String.join("\n", findings));
    }

    @Test
    @Order(2)
    void theReadOnlyCommands_writeNothingEither() {
        for (String[] args : List.of(new String[] {"status"}, new String[] {"status", "--json", "--drift"}, new String[] {"status", "progress_events"},
                new String[] {"explain", "progress_events", "2026-03-01"}, new String[] {"explain", "progress_events", "2026-03-04", "--json"},
                new String[] {"history", "progress_events", "2026-03-02"}, new String[] {"dataset", "list"},
                new String[] {"dataset", "show", "progress_events"})) {
            LandingRun run = LandingRun.inProcess(args);
            assertTrue(run.exit() <= 1, String.join(" ", args) + ": " + run.stderr());
            assertEquals(baseline, local.state(), "landing " + String.join(" ", args) + " wrote");
        }
    }

    @Test
    @Order(3)
    void aFleetDryRunsHint_goesAheadWithTheActionItPlanned() {
        LandingRun run = LandingRun.inProcess("repair", "--all-datasets", "--status", "EMPTY,REFUSED", "--accept-empty", "--reason", "r", "--dry-run");
        assertTrue(run.stdout().contains("To go ahead: landing repair --all-datasets --status EMPTY,REFUSED --accept-empty --reason r --yes"),
                run.stdout() + run.stderr());
        assertEquals(baseline, local.state());
    }

    @Test
    @Order(4)
    void theComparisonSeesAWrite_theSameRepairWithoutDryRunChangesTheState() {
        // last: it writes. Without it, "nothing changed" could mean the comparison sees nothing
        LandingRun repair = LandingRun.inProcess("repair", "progress_events", "2026-03-01", "--reason", "dry run check", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        assertNotEquals(baseline, local.state(), "a repair that republished a deleted unit wrote to the lake and the ledger");
    }

    private void dryRun(boolean remote, Selection selection, Datasets datasets, List<String> actions, boolean json) throws Exception {
        List<String> args = new ArrayList<>(List.of("repair"));
        args.addAll(datasets.args);
        args.addAll(selection.args);
        actions.forEach(flag -> args.addAll(Arrays.asList(flag.split(" "))));
        args.addAll(List.of("--reason", "dry run check", "--dry-run"));
        if (json) {
            args.add("--json");
        }
        if (remote) {
            args.addAll(List.of("--stack", "landing-local", "--region", "us-east-1"));
        }
        String shown = "landing " + String.join(" ", args);
        List<String> refusals = refusals(selection, datasets, actions);
        LandingRun run = remote ? remotely(args) : LandingRun.inProcess(args.toArray(String[]::new));
        runs++;
        String printed = run.stdout() + run.stderr();
        if (printed.contains("\tat ") || printed.contains("NullPointerException")) {
            findings.add(shown + ": a stack trace or an unexplained exception: " + first(run.stderr()));
        }
        if (!refusals.isEmpty()) {
            if (run.exit() != 2 || !run.stderr().startsWith("landing repair: ") || refusals.stream().noneMatch(run.stderr()::contains)) {
                findings.add(shown + ": must be refused (" + refusals + ") with exit 2; exit " + run.exit() + ", " + first(run.stderr()));
            }
        } else if (run.exit() > 1) {
            findings.add(shown + ": must plan (exit 0 or 1); exit " + run.exit() + ", " + first(run.stderr()));
        } else if (json ? !run.stdout().startsWith("{") : !run.stdout().contains("Dry run: nothing was written")
                && !run.stdout().contains("Nothing to repair")) {
            findings.add(shown + ": no plan printed: " + first(run.stdout()));
        }
        Map<String, String> after = local.state();
        if (!after.equals(baseline)) {
            TreeSet<String> changed = new TreeSet<>();
            after.forEach((where, content) -> {
                if (!content.equals(baseline.get(where))) {
                    changed.add(where);
                }
            });
            findings.add(shown + ": WROTE to " + changed);
            baseline = after; // report each run's own writes
        }
    }

    /** Through the stack's CloudFormation and repair function, as {@code AWS_ENDPOINT_URL} points the SDK at it. */
    private LandingRun remotely(List<String> args) {
        System.setProperty("aws.endpointUrl", local.record.s3Endpoint().toString());
        System.setProperty("aws.accessKeyId", local.record.accessKeyId());
        System.setProperty("aws.secretAccessKey", local.record.secretAccessKey());
        try {
            return LandingRun.inProcess(args.toArray(String[]::new));
        } finally {
            System.clearProperty("aws.endpointUrl");
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }

    private static String first(String text) {
        String[] lines = text.strip().split("\n");
        return String.join(" | ", Arrays.asList(lines).subList(0, Math.min(2, lines.length)));
    }
}
