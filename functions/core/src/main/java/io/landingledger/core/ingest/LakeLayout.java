package io.landingledger.core.ingest;

/** Where things live in the lake bucket. One place, so the functions, the sweep and the template agree. */
public final class LakeLayout {
    public static final String PUBLISHED_PREFIX = "published/";
    public static final String STAGING_PREFIX = "_staging/";
    public static final String QUARANTINE_PREFIX = "_quarantine/";
    public static final String REPORTS_PREFIX = "_reports/";
    /** {@code _status/<dataset>/status.jsonl}: every expected unit's status as of the last sweep (a reader's table). */
    public static final String STATUS_PREFIX = "_status/";
    /** Athena's query results (the readers' workgroup); outside published/, expired by a lifecycle rule. */
    public static final String ATHENA_RESULTS_PREFIX = "_athena/";

    private LakeLayout() {
    }

    /** {@code published/<dataset>/unit=<unit>/part-00000.jsonl}: what readers read. */
    public static String publishedKey(String dataset, String unit) {
        return PUBLISHED_PREFIX + dataset + "/unit=" + unit + "/part-00000.jsonl";
    }

    /** The prefix under which every unit of a dataset is published. */
    public static String publishedDatasetPrefix(String dataset) {
        return PUBLISHED_PREFIX + dataset + "/unit=";
    }

    /** {@code _status/<dataset>/status.jsonl}: one JSON line per expected unit, replaced by each sweep in one PUT. */
    public static String statusKey(String dataset) {
        return STATUS_PREFIX + dataset + "/status.jsonl";
    }

    /** {@code _staging/<dataset>/unit=<unit>/<run_id>.jsonl}: one per run, never read by readers. */
    public static String stagingKey(String dataset, String unit, String runId) {
        return STAGING_PREFIX + dataset + "/unit=" + unit + "/" + runId + ".jsonl";
    }

    /**
     * {@code _quarantine/<dataset>/unit=<unit>/<input_sha256>.v<contract_version>.rejects.jsonl}: what one input's
     * rejected lines are under one contract. Every run that validates the same bytes under the same contract writes
     * the same object, so a duplicate run overwrites it with identical bytes; a forced repair under a new contract
     * writes a new one and never changes the quarantine that the standing publish names.
     */
    public static String quarantineKey(String dataset, String unit, String sha256, int contractVersion) {
        return QUARANTINE_PREFIX + dataset + "/unit=" + unit + "/" + sha256 + ".v" + contractVersion + ".rejects.jsonl";
    }
}
