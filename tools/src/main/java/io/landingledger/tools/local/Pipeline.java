package io.landingledger.tools.local;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.core.ingest.IngestOutcome;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@code landing local} runs the examples on: the stack deployed from the template ({@link DeployedPipeline}, the
 * default) or, with {@code --endpoint}, resources created by code on LocalStack ({@link LocalPipeline}).
 */
interface Pipeline extends AutoCloseable {
    /** Uploads one file as a producer would; its notification reaches the validator {@code replay} times. */
    void drop(String dataset, Path file, int replay) throws IOException;

    /** Objects other clients put into the inbox since the last call, delivered where the stack does not do it itself. */
    boolean deliverNewVersions(int replay);

    /** Sweeps the range of units seen per dataset; the sweep's answer per dataset. */
    Map<String, Object> sweep();

    void export(Path directory) throws IOException;

    List<IngestOutcome> outcomes();

    List<Map<String, Object>> unroutable();

    List<Map<String, Object>> failures();

    void debug(boolean on);

    void progress(boolean quiet, Duration pipeInterval);

    /** Where other commands find this stack (landing local --watch writes it down). */
    LocalStackRecord record();

    /** Lines for the --watch banner: endpoint, buckets, credentials. */
    List<String> banner();

    URI s3Endpoint();

    String inboxBucket();

    @Override
    void close();

    /** One outcome's progress line: the action, the unit, and the refusal or the counts. */
    static String progressLine(IngestOutcome outcome) {
        return String.format(java.util.Locale.ROOT, "  %-9s %s/%s  %s", outcome.action().name().toLowerCase(java.util.Locale.ROOT),
                outcome.dataset(), outcome.unit(), outcome.refusalCode() != null ? outcome.refusalCode() + ": " + outcome.detail()
                        : outcome.accepted() + " rows, " + outcome.rejected() + " rejected, " + outcome.duplicates() + " duplicates");
    }

    /** The sweep's payload for the units seen of one dataset: first to last, so a gap shows as MISSING. */
    static io.landingledger.core.sweep.SweepRequest.Payload sweepPayload(String dataset, java.util.SortedSet<String> unitsSeen) {
        return new io.landingledger.core.sweep.SweepRequest.Payload(List.of(dataset), unitsSeen.first(), unitsSeen.last());
    }
}
