package io.landingledger.tools.bench.fleet;

/**
 * The published figures the fleet simulation models with: request latencies, page sizes, scaling and prices. Each
 * constant names its source; docs/performance.md ("Ten thousand datasets") lists them again. Prices are us-east-1,
 * on-demand, without the free tier.
 */
final class AwsFigures {
    private AwsFigures() {
    }

    // ---- pages ----
    /** ListObjectsV2 and ListObjectVersions return at most 1,000 keys a page (S3 API reference, MaxKeys). */
    static final int S3_LIST_PAGE_KEYS = 1_000;
    /** A Query returns at most 1 MB of items a page (DynamoDB developer guide, "Paginating table query results"). */
    static final int DYNAMODB_PAGE_BYTES = 1 << 20;
    /** A strongly consistent read costs one read request unit per 4 KB (DynamoDB pricing, on-demand). */
    static final int DYNAMODB_RRU_BYTES = 4 << 10;

    // ---- sizes (our estimates, not AWS figures) ----
    /** One Ledger item with every attribute of docs/design.md section 4 and its names: about 1 KB. */
    static final int LEDGER_ITEM_BYTES = 1_000;
    /** One {@code <Version>} element of a ListObjectVersions response (key, id, ETag, size, date, owner): ~400 B. */
    static final int S3_VERSION_ENTRY_BYTES = 400;
    /** One {@code <Contents>} element of a ListObjectsV2 response: ~300 B. */
    static final int S3_OBJECT_ENTRY_BYTES = 300;

    // ---- latency ----
    /**
     * S3 first-byte latency for small objects and requests: "roughly 100-200 milliseconds" (S3 user guide,
     * "Performance guidelines for Amazon S3", Measure performance / latency). The model takes 100 ms a request (a list
     * page, a GET, a PUT, a HEAD) and, for the pessimistic column, 200 ms.
     */
    static final double S3_REQUEST_MS = 100;
    static final double S3_REQUEST_MS_PESSIMISTIC = 200;
    /** Per connection, 85-90 MB/s (S3 performance guidelines; the figure docs/performance.md already plans with). */
    static final double S3_BYTES_PER_MS = 85_000;
    /** DynamoDB: "single-digit millisecond performance at any scale" (DynamoDB product page); the model takes 10 ms. */
    static final double DYNAMODB_REQUEST_MS = 10;
    /** A 1 MB Query page's transfer on top: 1 ms per 100 KB (our assumption; AWS publishes no throughput per page). */
    static final double DYNAMODB_BYTES_PER_MS = 100_000;
    /** Lambda's asynchronous Invoke (a re-drive handed to the validator): a request, answered 202 once queued. */
    static final double LAMBDA_INVOKE_MS = 30;
    /** A Java function's cold start without SnapStart, measured here (docs/performance.md, cold start: 1.31-1.42 s). */
    static final double LAMBDA_COLD_START_MS = 1_400;
    /**
     * SQS event source mapping scale-up: "up to 300 concurrent executions per minute", starting from five
     * (AWS Compute blog, "Introducing faster polling scale-up for AWS Lambda functions configured with Amazon SQS",
     * Nov 2023; Lambda developer guide, "Scaling behavior for Amazon SQS event source mappings").
     */
    static final int SQS_START_CONCURRENCY = 5;
    static final double SQS_SCALE_UP_PER_SECOND = 300.0 / 60;
    /** A message's wait between SendMessageBatch and a poller's receive, long polling: the model takes 1 s. */
    static final double SQS_DELIVERY_MS = 1_000;
    /** The CPU time measured here, scaled to a 512 MB function's share of a vCPU (1,769 MB is one vCPU). */
    static final double LAMBDA_CPU_SCALE = 1_769.0 / 512;

    // ---- prices ----
    /** S3 Standard: PUT, COPY, POST, LIST $0.005 per 1,000; GET, HEAD and others $0.0004 per 1,000 (S3 pricing). */
    static final double S3_PUT_LIST_PER_REQUEST = 0.005 / 1_000;
    static final double S3_GET_PER_REQUEST = 0.0004 / 1_000;
    /** DynamoDB on-demand: $0.125 per million read request units, $0.625 per million write units (since Nov 2024). */
    static final double DYNAMODB_PER_RRU = 0.125 / 1_000_000;
    static final double DYNAMODB_PER_WRU = 0.625 / 1_000_000;
    /** Lambda arm64: $0.0000133334 per GB-second, $0.20 per million requests (Lambda pricing). */
    static final double LAMBDA_PER_GB_SECOND = 0.0000133334;
    static final double LAMBDA_PER_REQUEST = 0.20 / 1_000_000;
    /** SQS standard queue: $0.40 per million requests, each 64 KB chunk a request (SQS pricing). */
    static final double SQS_PER_REQUEST = 0.40 / 1_000_000;
    /**
     * An SQS event source mapping polls even when the queue is empty: at least five pollers, each a 20 s long poll,
     * about 648,000 ReceiveMessage requests a month (our estimate from the scaling docs above).
     */
    static final double SQS_IDLE_POLLS_PER_MONTH = 5 * 3 * 60 * 24 * 30;
    /** The worker function's memory (infra/template.yaml, SweepShardFunction). */
    static final int WORKER_MEMORY_MB = 512;
    /** Days in the modelled month. */
    static final int DAYS_PER_MONTH = 30;
}
