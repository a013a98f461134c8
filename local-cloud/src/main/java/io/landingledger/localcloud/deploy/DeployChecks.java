package io.landingledger.localcloud.deploy;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

import java.util.UUID;

/**
 * The promises a deployed stack's buckets must keep whatever the code does, probed once the stack is up, through its
 * endpoint with the operator's credentials (an administrator: only a bucket's explicit deny stops them): nothing is
 * published without a conditional header, and the inbox refuses uploads the validator could not read. A stack that
 * does not keep one is not run: the deploy fails naming the bucket and the promise.
 */
final class DeployChecks {
    private DeployChecks() {
    }

    static void run(StackParts stack, S3Client operator) {
        String lake = stack.physicalId("LakeBucket");
        String inbox = stack.physicalId("InboxBucket");
        String probe = "published/_deploy-check/" + UUID.randomUUID() + ".txt";
        if (allowed(() -> operator.putObject(r -> r.bucket(lake).key(probe), RequestBody.fromString("probe")))) {
            operator.deleteObject(r -> r.bucket(lake).key(probe));
            throw new DeployException("LakeBucket (" + lake + "): its bucket policy let an unconditional PutObject into published/ "
                    + "through; every publish must carry If-None-Match or If-Match (docs/design.md step 6), so the policy must refuse "
                    + "one without");
        }
        String encrypted = "_deploy-check/" + UUID.randomUUID() + ".jsonl";
        if (allowed(() -> operator.putObject(r -> r.bucket(inbox).key(encrypted).serverSideEncryption(ServerSideEncryption.AWS_KMS),
                RequestBody.fromString("{}")))) {
            operator.deleteObject(r -> r.bucket(inbox).key(encrypted));
            throw new DeployException("InboxBucket (" + inbox + "): its bucket policy let an SSE-KMS upload in; the validator holds no "
                    + "kms:Decrypt, so the inbox must refuse it at the put");
        }
    }

    /** True when S3 accepted the request; false when it answered 403 (AccessDenied). */
    private static boolean allowed(Runnable request) {
        try {
            request.run();
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 403) {
                return false;
            }
            throw e;
        }
    }
}
