package io.landingledger.tools.local;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.cli.stack.LocalStackRecord;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.Installation;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.localcloud.deploy.DeployException;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.lambda.AwsConnection;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import software.amazon.awssdk.regions.Region;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code landing local}: the product's main job on one machine. Embedded S3 (S3Proxy) and DynamoDB (moto) start,
 * the resources are created from the template's definitions, every inbox file is uploaded as a producer would and
 * its notification delivered to ValidateObjectHandler, the sweep runs over the units seen, and a table says what
 * happened. Progress goes to stderr; stdout holds the table (or, with --json, one JSON document).
 */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = {"Run the whole pipeline locally on embedded S3 and DynamoDB emulators:",
                "upload each inbox file, deliver its S3 notification to the validator, sweep, and report."})
public final class LocalCommand implements Callable<Integer> {
    static final Path DEFAULT_INBOX = Path.of("examples/inbox");
    static final Path DEFAULT_REDELIVERY = Path.of("examples/redelivery");

    @Option(names = "--inbox", paramLabel = "DIR", description = "Inbox folder: DIR/<dataset>/<file> (default: ${DEFAULT-VALUE}).")
    Path inbox = DEFAULT_INBOX;

    @Option(names = "--redelivery", paramLabel = "DIR",
            description = "Files producers re-deliver after the first round (default: examples/redelivery with the default inbox).")
    Path redelivery;

    @Option(names = "--replay", paramLabel = "N", description = "Deliver every notification N times, to show idempotency (default: ${DEFAULT-VALUE}).")
    int replay = 1;

    @Option(names = "--export", paramLabel = "DIR",
            description = "Copy published/, _quarantine/, _reports/, _status/ and a JSON dump of both tables here (default: ${DEFAULT-VALUE}).")
    Path export = Path.of("out/local");

    @Option(names = "--json", description = "Print the summary as one JSON document on stdout.")
    boolean json;

    @Option(names = "--endpoint", paramLabel = "URL",
            description = "Use this S3 and DynamoDB endpoint (e.g. LocalStack http://localhost:4566) instead of the embedded emulators.")
    URI endpoint;

    @Option(names = "--watch", description = "Keep running: process new files dropped into the inbox folder or put into the inbox bucket, and sweep again.")
    boolean watch;

    @Option(names = "--no-bucket-events", description = "With --watch: deliver no notification for objects put into the inbox bucket by other clients (a lost S3 event, to practise recovering from one).")
    boolean noBucketEvents;

    @Option(names = "--debug", description = "Print the stack trace of a record that fails (the reason alone otherwise).")
    boolean debug;

    @Option(names = "--quiet", description = "No per-file progress on stderr (by default: a line rewritten in place on a terminal, a line every 5 s on a pipe).")
    boolean quiet;

    /** The pipe mode's progress interval (tests shorten it); null: Progress.start chooses by the terminal. */
    Duration progressInterval;

    PrintStream out = System.out;
    PrintStream err = System.err;
    /** Tests inject faults into the deployed stack's endpoint (the default path). */
    java.util.function.Consumer<LocalDeployment> deployed = stack -> { };
    /** Tests inject faults after the ingest path's steps (the --endpoint path, which runs the handlers itself). */
    IngestService.StepListener steps = IngestService.StepListener.NONE;

    @Override
    public Integer call() throws Exception {
        if (replay < 1) {
            err.println("landing local: --replay must be at least 1");
            return 2;
        }
        if (inbox.equals(DEFAULT_INBOX) && !Files.isDirectory(inbox)) {
            // run from another folder: the examples of the installation (redelivery follows them below)
            Path installed = Installation.find(DEFAULT_INBOX).orElse(inbox);
            if (redelivery == null) {
                redelivery = Installation.find(DEFAULT_REDELIVERY).orElse(null);
            }
            inbox = installed;
        }
        if (!Files.isDirectory(inbox)) {
            err.println("landing local: the inbox folder " + inbox + " does not exist (expected " + inbox + "/<dataset>/<file>)");
            return 2;
        }
        if (redelivery == null && inbox.equals(DEFAULT_INBOX) && Files.isDirectory(DEFAULT_REDELIVERY)) {
            redelivery = DEFAULT_REDELIVERY;
        }
        LocalDeployment stack = null;
        Pipeline chosen;
        if (endpoint != null) {
            err.println("landing local: using " + endpoint + " for S3 and DynamoDB (resources created by code, not from the template)");
            LocalPipeline wired = new LocalPipeline(AwsConnection.endpoint(Region.US_EAST_1, endpoint), err, steps);
            if (noBucketEvents) {
                wired.loseOtherClientsEvents();
            }
            chosen = wired;
        } else {
            Path repository = Installation.find(Path.of("infra/template.yaml")).map(p -> p.getParent().getParent()).orElse(null);
            if (repository == null) {
                err.println("landing local: infra/template.yaml is not in this installation; the local stack is deployed from it");
                return 2;
            }
            err.println("landing local: deploying infra/template.yaml onto embedded S3 (S3Proxy) and moto, roles enforced ...");
            try {
                stack = LocalDeployment.start(LocalDeployment.Options.of(repository, export.toAbsolutePath().resolve(".stack")), new LandingRuntime());
            } catch (DeployException e) {
                err.println("landing local: the template could not be deployed: " + e.getMessage());
                return 2;
            } catch (IllegalStateException e) {
                err.println("landing local: the emulators did not start: " + e.getMessage());
                return 2;
            }
            err.println("landing local: stack " + stack.stackName() + " deployed in " + stack.startupTime().toMillis() + " ms ("
                    + stack.startupPhases() + ")");
            deployed.accept(stack);
            for (String line : stack.summary()) {
                err.println("  " + line);
            }
            DeployedPipeline deployed = new DeployedPipeline(stack, err);
            if (noBucketEvents) {
                deployed.loseOtherClientsEvents();
            }
            chosen = deployed;
        }
        try (Pipeline pipeline = chosen) {
            pipeline.debug(debug);
            pipeline.progress(quiet, progressInterval);
            Map<Path, FileTime> dropped = new HashMap<>();
            err.println("landing local: round 1, " + inbox);
            dropAll(pipeline, inbox, dropped);
            if (redelivery != null && Files.isDirectory(redelivery)) {
                err.println("landing local: round 2, producers re-deliver repaired files from " + redelivery);
                dropAll(pipeline, redelivery, new HashMap<>());
            }
            report(pipeline);
            if (watch) {
                // where the stack listens, for landing status/explain/repair/sweep/history (removed on exit, SIGTERM too)
                LocalStackRecord record = pipeline.record();
                Thread removal = new Thread(record::remove, "landing-local-record");
                Runtime.getRuntime().addShutdownHook(removal);
                err.println("landing local --watch: other landing commands find this stack through " + record.write());
                try {
                    watch(pipeline, dropped);
                } finally {
                    record.remove();
                    try {
                        Runtime.getRuntime().removeShutdownHook(removal);
                    } catch (IllegalStateException shuttingDown) {
                        // the hook is running
                    }
                }
            }
            // completeness is what the table (and --json's "complete") reports, not an error; a failed record is
            return pipeline.failures().isEmpty() ? 0 : 1;
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    private void dropAll(Pipeline pipeline, Path folder, Map<Path, FileTime> dropped) throws IOException {
        for (Path file : files(folder)) {
            pipeline.drop(file.getParent().getFileName().toString(), file, replay);
            dropped.put(file, Files.getLastModifiedTime(file));
        }
    }

    /** DIR/<dataset>/<file>, in name order (datasets, then files), skipping hidden files. */
    static List<Path> files(Path folder) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> datasets = Files.list(folder)) {
            for (Path dataset : datasets.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> inDataset = Files.list(dataset)) {
                    inDataset.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith(".")).sorted().forEach(files::add);
                }
            }
        }
        return files;
    }

    /** Sweeps, exports, and prints the table (or JSON). */
    private void report(Pipeline pipeline) throws IOException {
        Map<String, Object> sweeps = pipeline.sweep();
        pipeline.export(export);
        boolean complete = true;
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Object> htmlReports = new LinkedHashMap<>();
        for (String dataset : sweeps.keySet()) {
            Path latest = export.resolve("_reports/completeness").resolve(dataset).resolve("latest.json");
            Path html = export.resolve("_reports/completeness").resolve(dataset).resolve("latest.html");
            htmlReports.put(dataset, html.toString());
            Map<String, Object> report = JSON.std.mapFrom(Files.readString(latest));
            complete &= Boolean.TRUE.equals(report.get("complete"));
            for (Object u : (List<?>) report.get("units")) {
                Map<?, ?> unit = (Map<?, ?>) u;
                Map<?, ?> ledger = (Map<?, ?>) unit.get("ledger");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("dataset", dataset);
                row.put("unit", unit.get("unit"));
                row.put("status", unit.get("status"));
                row.put("rows", ledger == null ? null : ledger.get("accepted"));
                row.put("rejected", ledger == null ? null : ledger.get("rejected"));
                row.put("publish_count", ledger == null ? null : ledger.get("publish_count"));
                row.put("reason", unit.get("reason"));
                rows.add(row);
            }
        }
        if (json) {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("complete", complete);
            summary.put("units", rows);
            summary.put("outcomes", pipeline.outcomes().stream().map(IngestOutcome::fields).toList());
            summary.put("unroutable", pipeline.unroutable());
            summary.put("failed", pipeline.failures());
            summary.put("reports", htmlReports);
            summary.put("export", export.toString());
            out.println(JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(summary));
        } else {
            out.println(table(rows));
            for (Map<String, Object> failure : pipeline.failures()) {
                out.println("FAILED " + failure.get("key") + " (version " + failure.get("version") + "): " + failure.get("reason"));
            }
            if (!pipeline.failures().isEmpty()) {
                out.println(pipeline.failures().size() + " record(s) failed; the run went on with the others (exit status 1).");
            }
            out.println(complete ? "Complete: no unit fails completeness." : "Not complete: the units above that are not OK need a look.");
            htmlReports.forEach((dataset, path) -> out.println("HTML report (" + dataset + "): " + path));
            out.println("Exported published/, _quarantine/, _reports/, _status/, ledger.json, ledger-history.json and the "
                    + "tables' files (tables/<table bucket>/<namespace>/<table>/) to " + export);
        }
    }

    static String table(List<Map<String, Object>> rows) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"DATASET", "UNIT", "STATUS", "ROWS", "REJECTED", "PUBLISHES", "REASON"});
        for (Map<String, Object> row : rows) {
            lines.add(new String[] {text(row.get("dataset")), text(row.get("unit")), text(row.get("status")), text(row.get("rows")),
                    text(row.get("rejected")), text(row.get("publish_count")), text(row.get("reason"))});
        }
        int[] widths = new int[7];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                text.append(line[i]);
                if (i < line.length - 1) {
                    text.append(" ".repeat(widths[i] - line[i].length() + 2));
                }
            }
            text.append('\n');
        }
        return text.toString();
    }

    private static String text(Object value) {
        return value == null ? "-" : value.toString();
    }

    /** Polls the inbox folder and the inbox bucket; new files and new versions are processed and the sweep reruns. */
    private void watch(Pipeline pipeline, Map<Path, FileTime> dropped) throws Exception {
        err.println();
        err.println("landing local --watch: drop files into " + inbox + "/<dataset>/ or put objects into the inbox bucket:");
        pipeline.banner().forEach(err::println);
        err.println("  Ctrl-C stops.");
        while (!Thread.currentThread().isInterrupted()) {
            Thread.sleep(2000);
            boolean changed = false;
            for (Path file : files(inbox)) {
                FileTime modified = Files.getLastModifiedTime(file);
                if (!modified.equals(dropped.get(file))) {
                    pipeline.drop(file.getParent().getFileName().toString(), file, replay);
                    dropped.put(file, modified);
                    changed = true;
                }
            }
            changed |= pipeline.deliverNewVersions(replay);
            if (changed) {
                report(pipeline);
            }
        }
    }
}
