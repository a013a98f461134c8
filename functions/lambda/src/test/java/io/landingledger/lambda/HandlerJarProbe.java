package io.landingledger.lambda;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification;

import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import java.util.List;
import java.util.Map;

/**
 * Run by {@link LandingFunctionsJarIT} in a child JVM whose classpath is the shaded (minimised) jar plus this class,
 * with the environment of a function pointed at the emulators: constructs each handler as the Lambda runtime does
 * (its no-argument constructor) and invokes it once, so that every class the functions load by reference or by name
 * on these paths must be in the jar. Arguments: bucket, key, versionId, eTag, size and unit of an inbox object.
 * Prints {@code probe <handler> <result>} on stderr.
 */
public final class HandlerJarProbe {
    private HandlerJarProbe() {
    }

    public static void main(String[] args) {
        String bucket = args[0];
        String key = args[1];
        String unit = args[5];
        S3EventNotification.S3ObjectEntity object = new S3EventNotification.S3ObjectEntity(key, Long.parseLong(args[4]), args[3],
                args[2], "0066A1B2C3D4E5F601");
        S3EventNotification.S3BucketEntity bucketEntity = new S3EventNotification.S3BucketEntity(bucket,
                new S3EventNotification.UserIdentityEntity("LANDING"), "arn:aws:s3:::" + bucket);
        S3EventNotification.S3EventNotificationRecord record = new S3EventNotification.S3EventNotificationRecord("us-east-1",
                "ObjectCreated:Put", "aws:s3", "2026-03-02T00:05:00.000Z", "2.1", null, null,
                new S3EventNotification.S3Entity("probe", bucketEntity, object, "1.0"), null);
        Map<String, Object> validated = new ValidateObjectHandler().handleRequest(new S3Event(List.of(record)), null);
        System.err.println("probe ValidateObjectHandler " + oneLine(validated));

        Map<String, Object> swept = new CompletenessSweepHandler().handleRequest(
                Map.of("datasets", List.of("progress_events"), "from", unit, "to", unit), null);
        System.err.println("probe CompletenessSweepHandler " + oneLine(swept));

        Map<String, Object> repaired = new RepairHandler().handleRequest(Map.of("dataset", "progress_events", "units", List.of(unit),
                "mode", "targeted", "dryRun", true, "reason", "jar probe", "inputVersion", "latest"), null);
        System.err.println("probe RepairHandler " + oneLine(repaired));
        System.exit(0); // as the function's JVM, which the runtime keeps, not its threads, decides to end
    }

    /** A result on one line (repair's includes its multi-line table). */
    private static String oneLine(Map<String, Object> result) {
        return String.valueOf(result).replace('\n', ' ');
    }
}
