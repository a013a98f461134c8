package io.landingledger.tools.bench.fleet;

/**
 * The requests one piece of a sweep (the planner, a shard, the assembler) made, the bytes they read, and the time
 * the latency model gives them, in the order the code makes them (one request at a time: the sweep is sequential).
 */
final class Meter {
    long s3List;
    long s3Get;
    long s3Put;
    long s3Head;
    long s3BytesRead;
    long s3BytesWritten;
    long dynamoQuery;
    long dynamoGet;
    double dynamoRru;
    long dynamoBytesRead;
    long lambdaInvokes;
    double modelledMs;
    double pessimisticMs;
    long cpuNanos;

    void s3List(long entries, int entryBytes) {
        long pages = Math.max(1, (entries + AwsFigures.S3_LIST_PAGE_KEYS - 1) / AwsFigures.S3_LIST_PAGE_KEYS);
        long bytes = entries * entryBytes + pages * 500;
        s3List += pages;
        s3BytesRead += bytes;
        s3Time(pages, bytes);
    }

    void s3Get(long bytes) {
        s3Get++;
        s3BytesRead += bytes;
        s3Time(1, bytes);
    }

    void s3Head() {
        s3Head++;
        s3Time(1, 0);
    }

    void s3Put(long bytes) {
        s3Put++;
        s3BytesWritten += bytes;
        s3Time(1, bytes);
    }

    private void s3Time(long requests, long bytes) {
        modelledMs += requests * AwsFigures.S3_REQUEST_MS + bytes / AwsFigures.S3_BYTES_PER_MS;
        pessimisticMs += requests * AwsFigures.S3_REQUEST_MS_PESSIMISTIC + bytes / AwsFigures.S3_BYTES_PER_MS;
    }

    /** A strongly consistent Query of {@code items} items of {@code itemBytes} each, paged at 1 MB. */
    void dynamoQuery(long items, int itemBytes) {
        long bytes = items * itemBytes;
        long pages = Math.max(1, (bytes + AwsFigures.DYNAMODB_PAGE_BYTES - 1) / AwsFigures.DYNAMODB_PAGE_BYTES);
        dynamoQuery += pages;
        dynamoBytesRead += bytes;
        // rounded up per page (on-demand charges each request's consumed capacity, at least 1 unit)
        long perPage = bytes / pages;
        dynamoRru += pages * Math.max(1, Math.ceil((double) perPage / AwsFigures.DYNAMODB_RRU_BYTES));
        double ms = pages * AwsFigures.DYNAMODB_REQUEST_MS + bytes / AwsFigures.DYNAMODB_BYTES_PER_MS;
        modelledMs += ms;
        pessimisticMs += ms;
    }

    void dynamoGet(int itemBytes) {
        dynamoGet++;
        dynamoBytesRead += itemBytes;
        dynamoRru += Math.max(1, Math.ceil((double) itemBytes / AwsFigures.DYNAMODB_RRU_BYTES));
        modelledMs += AwsFigures.DYNAMODB_REQUEST_MS;
        pessimisticMs += AwsFigures.DYNAMODB_REQUEST_MS;
    }

    void lambdaInvoke() {
        lambdaInvokes++;
        modelledMs += AwsFigures.LAMBDA_INVOKE_MS;
        pessimisticMs += AwsFigures.LAMBDA_INVOKE_MS;
    }

    /** This piece's time: the modelled requests plus its measured CPU, scaled to the function's vCPU share. */
    double wallMs(boolean pessimistic) {
        return (pessimistic ? pessimisticMs : modelledMs) + cpuNanos / 1e6 * AwsFigures.LAMBDA_CPU_SCALE;
    }

    void add(Meter other) {
        s3List += other.s3List;
        s3Get += other.s3Get;
        s3Put += other.s3Put;
        s3Head += other.s3Head;
        s3BytesRead += other.s3BytesRead;
        s3BytesWritten += other.s3BytesWritten;
        dynamoQuery += other.dynamoQuery;
        dynamoGet += other.dynamoGet;
        dynamoRru += other.dynamoRru;
        dynamoBytesRead += other.dynamoBytesRead;
        lambdaInvokes += other.lambdaInvokes;
        modelledMs += other.modelledMs;
        pessimisticMs += other.pessimisticMs;
        cpuNanos += other.cpuNanos;
    }

    /** The S3, DynamoDB and invoke charges of these requests. */
    double requestDollars() {
        return (s3List + s3Put) * AwsFigures.S3_PUT_LIST_PER_REQUEST + (s3Get + s3Head) * AwsFigures.S3_GET_PER_REQUEST
                + dynamoRru * AwsFigures.DYNAMODB_PER_RRU + lambdaInvokes * AwsFigures.LAMBDA_PER_REQUEST;
    }
}
