package io.landingledger.core.ingest;

/** Where things live in the lake bucket. One place, so the functions, the sweep and the template agree. */
public final class LakeLayout {
    public static final String PUBLISHED_PREFIX = "published/";
    public static final String STAGING_PREFIX = "_staging/";
    public static final String QUARANTINE_PREFIX = "_quarantine/";
    public static final String REPORTS_PREFIX = "_reports/";

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

    /** {@code _staging/<dataset>/unit=<unit>/<run_id>.jsonl}: one per run, never read by readers. */
    public static String stagingKey(String dataset, String unit, String runId) {
        return STAGING_PREFIX + dataset + "/unit=" + unit + "/" + runId + ".jsonl";
    }

    /** {@code _quarantine/<dataset>/unit=<unit>/<input_sha256>.rejects.jsonl}. */
    public static String quarantineKey(String dataset, String unit, String sha256) {
        return QUARANTINE_PREFIX + dataset + "/unit=" + unit + "/" + sha256 + ".rejects.jsonl";
    }
}
