package io.landingledger.lambda.adapters;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractEntryJson;
import io.landingledger.core.contract.ContractSeal;
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
 *
 * <p>Each version has its registration record beside it, {@code _contracts/<dataset>/v<N>.sha256}: the SHA-256 of the
 * version's bytes ({@link ContractSeal}), created under {@code If-None-Match: *} right after the version. Every read
 * GETs both and opens the version against the record, so a version rewritten around the lake's bucket policy (which
 * refuses any write to {@code _contracts/} that is not a create, and every delete) is refused, never used. The
 * record is a separate object because a rewrite of the version's object rewrites everything stored with it (its
 * metadata, its S3 checksum); the same policy makes the record as create-only as the version.
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

    /** The key of the registration record (the SHA-256 of the version's bytes) of a version of a dataset. */
    public static String sealKey(String dataset, int version) {
        return PREFIX + dataset + "/v" + String.format("%010d", version) + ".sha256";
    }

    @Override
    public Optional<ContractEntry> latest(String dataset) {
        List<Integer> versions = versions(dataset);
        return versions.isEmpty() ? Optional.empty() : read(dataset, versions.get(versions.size() - 1));
    }

    @Override
    public Optional<ContractEntry> version(String dataset, int version) {
        return read(dataset, version);
    }

    @Override
    public List<ContractEntry> history(String dataset) {
        List<ContractEntry> history = new ArrayList<>();
        for (int version : versions(dataset)) {
            read(dataset, version).ifPresent(history::add);
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

    /**
     * Creates the version, then its registration record, each under {@code If-None-Match: *}. The version first: it is
     * the one a race is won on, so a loser writes nothing. A registration cut short between the two leaves a version
     * without a record, which every read refuses ({@code CONTRACT_UNSEALED}) until an operator who checked its content
     * creates the record (docs/operations.md, "A contract version refused").
     */
    @Override
    public void create(ContractEntry entry) {
        String key = key(entry.dataset(), entry.version());
        byte[] body = ContractEntryJson.write(entry);
        if (!createOnce(key, "application/json", body)) {
            throw new ContractVersionExistsException(entry.dataset(), entry.version(),
                    readQuietly(entry.dataset(), entry.version()));
        }
        byte[] seal = ContractSeal.bytes(ContractSeal.of(body));
        if (!createOnce(sealKey(entry.dataset(), entry.version()), "text/plain", seal)) {
            // only a write around the registrar makes a record before its version: the version reads as tampered
            throw new IllegalStateException("the registration record " + sealKey(entry.dataset(), entry.version())
                    + " existed before its version was created; the version will be refused until it is resolved");
        }
    }

    @Override
    public SealOutcome seal(String dataset, int version, String sha256) {
        Optional<byte[]> body = get(key(dataset, version));
        if (body.isEmpty()) {
            return SealOutcome.NO_SUCH_VERSION;
        }
        String sealKey = sealKey(dataset, version);
        if (get(sealKey).isPresent()) {
            return SealOutcome.ALREADY_SEALED;
        }
        if (!ContractSeal.matches(body.get(), sha256)) {
            return SealOutcome.CONTENT_DIFFERS;
        }
        return createOnce(sealKey, "text/plain", ContractSeal.bytes(ContractSeal.of(body.get())))
                ? SealOutcome.SEALED : SealOutcome.ALREADY_SEALED;
    }

    /** PutObject under {@code If-None-Match: *}: true when created, false when the key exists (412). */
    private boolean createOnce(String key, String contentType, byte[] body) {
        for (int attempt = 1; ; attempt++) {
            try {
                s3.putObject(r -> r.bucket(bucket).key(key).contentType(contentType).ifNoneMatch("*"),
                        RequestBody.fromBytes(body));
                return true;
            } catch (S3Exception e) {
                if (e.statusCode() == 412) {
                    return false;
                }
                if (e.statusCode() != 409 || attempt >= CONFLICT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The dataset's versions, in order (S3 lists keys in UTF-8 byte order; the digits are padded). */
    private List<Integer> versions(String dataset) {
        String prefix = PREFIX + dataset + "/v";
        List<Integer> versions = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents()) {
            String rest = object.key().substring(prefix.length());
            if (rest.matches("\\d{10}\\.json") && Long.parseLong(rest.substring(0, 10)) <= Integer.MAX_VALUE) {
                versions.add(Integer.parseInt(rest.substring(0, 10)));
            }
        }
        return versions;
    }

    private Optional<ContractEntry> read(String dataset, int version) {
        String key = key(dataset, version);
        Optional<byte[]> body = get(key);
        if (body.isEmpty()) {
            return Optional.empty();
        }
        Optional<byte[]> seal = get(sealKey(dataset, version));
        return Optional.of(ContractSeal.open(dataset, version, "s3://" + bucket + "/" + key, body.get(), seal));
    }

    private Optional<byte[]> get(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private ContractEntry readQuietly(String dataset, int version) {
        try {
            return read(dataset, version).orElse(null);
        } catch (RuntimeException e) {
            return null; // the refusal is the news; the winner's details are a courtesy
        }
    }
}
