package io.landingledger.lambda.adapters;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractEntryJson;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractVersionExistsException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The contract store in the lake bucket, one immutable object per version:
 * {@code _contracts/<dataset>/v<version, 10 digits>.json} ({@link ContractEntryJson}). The zero-padded number makes
 * S3's key order the version order, so the newest version is the last key of one ListObjectsV2 of the dataset's
 * prefix; a version is created with PutObject under {@code If-None-Match: *}, so of two operators writing version N
 * exactly one succeeds and the other gets 412, translated here (once) to {@link ContractVersionExistsException}
 * carrying the version that won. A 409 (a concurrent write to the key interfered) is retried: the retry then finds
 * the winner's object and answers 412. Reads are strongly consistent (S3's read-after-write for PUT and LIST), so a
 * registration is visible to the next read of any function, and the cache's TTL is the only delay.
 */
public final class S3ContractStore implements ContractStore {
    /** The lake prefix the store owns. */
    public static final String PREFIX = "_contracts/";
    private static final int CONFLICT_ATTEMPTS = 3;

    private final S3Client s3;
    private final String bucket;

    public S3ContractStore(S3Client s3, String bucket) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
    }

    /** The key of version {@code version} of {@code dataset}. */
    public static String key(String dataset, int version) {
        return PREFIX + dataset + "/v" + String.format("%010d", version) + ".json";
    }

    @Override
    public Optional<ContractEntry> latest(String dataset) {
        List<String> keys = keys(dataset);
        return keys.isEmpty() ? Optional.empty() : read(keys.get(keys.size() - 1));
    }

    @Override
    public Optional<ContractEntry> version(String dataset, int version) {
        return read(key(dataset, version));
    }

    @Override
    public List<ContractEntry> history(String dataset) {
        List<ContractEntry> history = new ArrayList<>();
        for (String key : keys(dataset)) {
            read(key).ifPresent(history::add);
        }
        return history;
    }

    @Override
    public List<String> datasets() {
        List<String> names = new ArrayList<>();
        // one page per 1,000 datasets: the delimiter folds each dataset's versions into one common prefix
        for (CommonPrefix prefix : s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(PREFIX).delimiter("/")).commonPrefixes()) {
            String name = prefix.prefix().substring(PREFIX.length());
            names.add(name.substring(0, name.length() - 1));
        }
        return names;
    }

    @Override
    public void create(ContractEntry entry) {
        String key = key(entry.dataset(), entry.version());
        byte[] body = ContractEntryJson.write(entry);
        for (int attempt = 1; ; attempt++) {
            try {
                s3.putObject(r -> r.bucket(bucket).key(key).contentType("application/json").ifNoneMatch("*"), RequestBody.fromBytes(body));
                return;
            } catch (S3Exception e) {
                if (e.statusCode() == 412) {
                    throw new ContractVersionExistsException(entry.dataset(), entry.version(), readQuietly(key));
                }
                if (e.statusCode() != 409 || attempt >= CONFLICT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The dataset's version keys, in version order (S3 lists keys in UTF-8 byte order; the digits are padded). */
    private List<String> keys(String dataset) {
        List<String> keys = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(PREFIX + dataset + "/v")).contents()) {
            if (object.key().endsWith(".json")) {
                keys.add(object.key());
            }
        }
        return keys;
    }

    private Optional<ContractEntry> read(String key) {
        try {
            byte[] body = s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray();
            return Optional.of(ContractEntryJson.read("s3://" + bucket + "/" + key, body));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private ContractEntry readQuietly(String key) {
        try {
            return read(key).orElse(null);
        } catch (RuntimeException e) {
            return null; // the refusal is the news; the winner's details are a courtesy
        }
    }
}
