package io.landingledger.lambda;

import io.landingledger.core.json.JsonCodec;
import io.landingledger.lambda.testing.Invocations;

import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.TableEnqueueHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import java.util.List;
import java.util.Map;

/**
 * Run by {@link LandingFunctionsJarIT} in a child JVM whose classpath is the shaded (minimised) jar plus this class,
 * with the environment of a function pointed at the emulators: constructs each handler as the Lambda runtime does
 * (its no-argument constructor) and invokes it once, so that every class the functions load by reference or by name
 * on these paths must be in the jar (the table enqueue function's queue named by TABLE_QUEUE_URL). Arguments: bucket, key, versionId, eTag, size and unit of an inbox object.
 * Prints {@code probe <handler> <result>} on stderr.
 */
public final class HandlerJarProbe {
    private HandlerJarProbe() {
    }

    public static void main(String[] args) {
        String bucket = args[0];
        String key = args[1];
        String unit = args[5];
        // the notification's JSON as S3 sends it: the handler reads it with the serializers Lambda's runtime uses
        Map<String, Object> object = Map.of("key", key, "size", Long.parseLong(args[4]), "eTag", args[3], "versionId", args[2],
                "sequencer", "0066A1B2C3D4E5F601");
        Map<String, Object> s3 = Map.of("s3SchemaVersion", "1.0", "configurationId", "probe", "object", object,
                "bucket", Map.of("name", bucket, "ownerIdentity", Map.of("principalId", "LANDING"), "arn", "arn:aws:s3:::" + bucket));
        String event = JsonCodec.writeString(Map.of("Records", List.of(Map.of("eventVersion", "2.1", "eventSource", "aws:s3",
                "awsRegion", "us-east-1", "eventTime", "2026-03-02T00:05:00.000Z", "eventName", "ObjectCreated:Put", "s3", s3))));
        Map<String, Object> validated = Invocations.invoke(new ValidateObjectHandler(), event, null);
        System.err.println("probe ValidateObjectHandler " + oneLine(validated));

        Map<String, Object> swept = Invocations.invoke(new CompletenessSweepHandler(),
                Map.of("datasets", List.of("progress_events"), "from", unit, "to", unit), null);
        System.err.println("probe CompletenessSweepHandler " + oneLine(swept));

        Map<String, Object> repaired = Invocations.invoke(new RepairHandler(), Map.of("dataset", "progress_events", "units", List.of(unit),
                "mode", "targeted", "dryRun", true, "reason", "jar probe", "inputVersion", "latest"), null);
        System.err.println("probe RepairHandler " + oneLine(repaired));

        // the Ledger stream's record of the unit now PUBLISHED, as the mapping's filter passes it, onto the table queue
        Map<String, Object> image = Map.of("dataset", Map.of("S", "progress_events"), "unit", Map.of("S", unit),
                "status", Map.of("S", "PUBLISHED"), "run_id", Map.of("S", "jar-probe"), "content_sha256", Map.of("S", "c0ffee"));
        Map<String, Object> enqueued = Invocations.invoke(new TableEnqueueHandler(), Map.of("Records", List.of(Map.of(
                "eventName", "MODIFY", "dynamodb", Map.of("SequenceNumber", "100", "NewImage", image)))), null);
        System.err.println("probe TableEnqueueHandler " + oneLine(enqueued));
        System.exit(0); // as the function's JVM, which the runtime keeps, not its threads, decides to end
    }

    /** A result on one line (repair's includes its multi-line table). */
    private static String oneLine(Map<String, Object> result) {
        return String.valueOf(result).replace('\n', ' ');
    }
}
