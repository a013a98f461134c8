package io.landingledger.lambda.handlers;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.landingledger.lambda.testing.ProgressEventLines.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Events S3 can really send that no producer meant: odd keys, vanished objects, big batches with a bad record. */
@ExtendWith(AwsEmulators.class)
class HostileEventsIT {
    private final PipelineFixture pipeline;

    HostileEventsIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    private static byte[] line(String id, String unit) {
        return completed(id, unit).getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> response) {
        return (List<Map<String, Object>>) response.get("records");
    }

    @Test
    void hostileKeys_areDecodedOnceReportedUnroutableAndNeverPublished() throws Exception {
        List<String> keys = List.of(
                "progress_events/progress 2026-03-01.jsonl",         // a space: S3 sends '+'
                "progress_events/progress+2026-03-01.jsonl",         // a plus: S3 sends %2B
                "progress_events/progress%2B2026-03-01.jsonl",       // a literal %2B in the key
                "progress_events/progress-2026-03-01-日本.jsonl",     // unicode
                "progress_events/../transactions/transactions-2026-10-01.csv",
                "progress_events/",                                  // a folder marker
                "progress_events/" + "x".repeat(1024 - "progress_events/".length()));
        List<PipelineFixture.Uploaded> uploads = new ArrayList<>();
        for (String key : keys) {
            uploads.add(pipeline.put(key, line("e1", "2026-03-01")));
        }
        List<Map<String, Object>> results = records(pipeline.deliver(pipeline.eventFor(uploads.toArray(PipelineFixture.Uploaded[]::new))));

        assertEquals(keys.size(), results.size());
        for (int i = 0; i < keys.size(); i++) {
            assertEquals("unroutable", results.get(i).get("action"), keys.get(i));
            assertEquals(keys.get(i), results.get(i).get("key"), "the key is decoded exactly once");
        }
        assertEquals("FOLDER_MARKER", results.get(5).get("reason"));
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
    }

    @Test
    void batchOfAHundredRecords_withBadOnes_processesEveryOtherRecordAndReportsEach() throws Exception {
        List<PipelineFixture.Uploaded> uploads = new ArrayList<>();
        LocalDate first = LocalDate.parse("2026-03-01");
        for (int i = 0; i < 98; i++) {
            String unit = first.plusDays(i).toString();
            uploads.add(pipeline.put("progress_events/progress-" + unit + ".jsonl", line("e-" + unit, unit)));
        }
        uploads.add(45, pipeline.put("unknown_dataset/export-2026-03-02.csv", "a,b\n".getBytes(StandardCharsets.UTF_8)));
        PipelineFixture.Uploaded vanished = pipeline.put("progress_events/progress-2026-12-31.jsonl", line("gone", "2026-12-31"));
        pipeline.s3.deleteObject(r -> r.bucket(pipeline.inbox()).key(vanished.key()).versionId(vanished.versionId()));
        uploads.add(70, vanished); // an event for an object version deleted before it was read

        List<Map<String, Object>> results = records(pipeline.deliver(pipeline.eventFor(uploads.toArray(PipelineFixture.Uploaded[]::new))));

        assertEquals(100, results.size(), "one outcome per record");
        assertEquals("unroutable", results.get(45).get("action"));
        assertEquals("skipped", results.get(70).get("action"));
        assertEquals("INPUT_GONE", results.get(70).get("refusal"));
        assertEquals(98, results.stream().filter(r -> "published".equals(r.get("action"))).count());
        assertEquals(98, pipeline.keys(LakeLayout.PUBLISHED_PREFIX).size());
        assertTrue(pipeline.ledger.get("progress_events", "2026-12-31").isEmpty(), "a vanished input records nothing");
    }
}
