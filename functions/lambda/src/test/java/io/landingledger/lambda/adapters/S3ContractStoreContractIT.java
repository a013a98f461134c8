package io.landingledger.lambda.adapters;

import io.landingledger.core.contract.ContractSeal;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractStoreContract;
import io.landingledger.lambda.testing.AwsEmulators;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The contract store contract against {@link S3ContractStore} on the embedded S3 emulator (S3Proxy honours
 * {@code If-None-Match: *} on PutObject: one winner per race, docs/emulators.md), each case in a bucket of its own.
 */
class S3ContractStoreContractIT extends ContractStoreContract {
    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private String bucket;

    @Override
    protected ContractStore newStore() {
        S3Client s3 = aws.s3();
        bucket = "contracts-" + BUCKETS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
        s3.createBucket(r -> r.bucket(bucket));
        return new S3ContractStore(s3, bucket);
    }

    @Override
    protected void rewriteAroundThePolicy(String dataset, int version, byte[] body) {
        // straight to S3Proxy, no bucket policy: what the lake's DenyContractOverwrite refuses on AWS and the local stack
        aws.s3().putObject(r -> r.bucket(bucket).key(S3ContractStore.key(dataset, version)), RequestBody.fromBytes(body));
    }

    @Override
    protected void writeUnsealed(String dataset, int version, byte[] body) {
        rewriteAroundThePolicy(dataset, version, body);
    }

    @Test
    void versionsLiveUnderTheLakesContractsPrefixOneObjectEach_withTheirRegistrationRecord_bothCreatedConditionally() {
        ContractStore store = new S3ContractStore(aws.s3(), bucket);
        store.create(active("orders", 1, "new"));
        store.create(active("orders", 2, "cap"));
        assertEquals(java.util.List.of("_contracts/orders/v0000000001.json", "_contracts/orders/v0000000001.sha256",
                        "_contracts/orders/v0000000002.json", "_contracts/orders/v0000000002.sha256"),
                aws.s3().listObjectsV2(r -> r.bucket(bucket).prefix("_contracts/")).contents().stream()
                        .map(software.amazon.awssdk.services.s3.model.S3Object::key).toList());
        byte[] body = aws.s3().getObjectAsBytes(r -> r.bucket(bucket).key(S3ContractStore.key("orders", 2))).asByteArray();
        assertEquals(ContractSeal.of(body), aws.s3().getObjectAsBytes(r -> r.bucket(bucket).key(S3ContractStore.sealKey("orders", 2)))
                .asUtf8String());
    }
}
