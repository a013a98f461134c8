package io.landingledger.tools.local;

import software.amazon.awssdk.services.s3.model.ObjectVersion;


/**
 * Finds object versions in the inbox bucket that no notification was delivered for (put by a producer's own S3
 * client, e.g. the AWS CLI against the local endpoint) and delivers theirs, as S3 would.
 */
final class BucketWatcher {
    private final LocalPipeline pipeline;

    BucketWatcher(LocalPipeline pipeline) {
        this.pipeline = pipeline;
    }

    private Iterable<ObjectVersion> versions() {
        return pipeline.s3().listObjectVersionsPaginator(r -> r.bucket(LocalPipeline.INBOX_BUCKET)).versions();
    }

    boolean deliverNewVersions(int replay) {
        boolean any = false;
        for (ObjectVersion version : versions()) {
            if (!pipeline.wasDelivered(version.key(), version.versionId())) {
                pipeline.deliver(new S3Notifications.Created(LocalPipeline.INBOX_BUCKET, version.key(), version.versionId(),
                        version.eTag().replace("\"", ""), version.size(), version.lastModified(),
                        pipeline.config().aws().region().id()), replay);
                any = true;
            }
        }
        return any;
    }
}
