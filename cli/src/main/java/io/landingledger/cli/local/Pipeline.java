package io.landingledger.cli.local;

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
}
