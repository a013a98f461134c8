package io.landingledger.lambda.testing;

import java.util.regex.Pattern;

/**
 * A pipeline's {@link PipelineFixture#snapshot() snapshot} with what differs between two runs of the same input in
 * fresh pipelines replaced by placeholders, so that a run through faults can be compared with a clean run.
 */
public final class NormalisedSnapshot {
    private static final Pattern UUID_PATTERN = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern WALL_CLOCK = Pattern.compile("\\b(published_at|first_published_at|content_published_at|at|at_run)=AttributeValue\\(S=[^)]*\\)");
    private static final Pattern HISTORY_KEY = Pattern.compile("(?m)^history (\\S+) \\S+ =");

    /**
     * The pipeline's snapshot with this pipeline's names, run ids and wall-clock fields replaced by placeholders; each
     * upload's version id and sequencer by numbered ones, its LastModified (a run that HEADs the input records it) by one.
     */
    public static String normalised(PipelineFixture pipeline, PipelineFixture.Uploaded... uploads) {
        String s = pipeline.snapshot();
        s = s.replace(pipeline.inbox(), "<inbox>").replace(pipeline.lake(), "<lake>")
                .replace(pipeline.resources.ledgerTable(), "<ledger>").replace(pipeline.resources.ledgerHistoryTable(), "<history>");
        for (int i = 0; i < uploads.length; i++) {
            PipelineFixture.Uploaded upload = uploads[i];
            String n = uploads.length == 1 ? "" : "-" + i;
            if (upload.versionId() != null && !upload.versionId().isEmpty()) {
                s = s.replace(upload.versionId(), "<version" + n + ">");
                java.time.Instant modified = pipeline.s3.headObject(r -> r.bucket(pipeline.inbox()).key(upload.key())
                        .versionId(upload.versionId())).lastModified();
                s = s.replace(modified.toString(), "<modified>"); // wall clock: uploads in one second share it
            }
            s = s.replace(upload.sequencer(), "<sequencer" + n + ">");
        }
        s = HISTORY_KEY.matcher(s).replaceAll("history $1 <at_run> =");
        s = WALL_CLOCK.matcher(s).replaceAll("$1=AttributeValue(S=<time>)");
        s = UUID_PATTERN.matcher(s).replaceAll("<run>");
        return s;
    }

    private NormalisedSnapshot() {
    }
}
