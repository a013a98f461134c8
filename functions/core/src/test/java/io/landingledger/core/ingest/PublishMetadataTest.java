package io.landingledger.core.ingest;

import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.RunKind;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** PublishMetadata's builder: the object metadata it writes is the same map, and the required components are named. */
class PublishMetadataTest {
    private static final Instant MODIFIED = Instant.parse("2026-03-02T23:10:00Z");

    private static final InputIdentity INPUT = InputIdentity.builder().bucket("inbox").key("progress_events/progress-2026-03-02.jsonl")
            .versionId("v1").etag("e1").sha256("sha-in").size(4096).sequencer("0A").lastModified(MODIFIED).build();

    private static PublishMetadata metadata() {
        return PublishMetadata.builder().input(INPUT).runId("run-1").runKind(RunKind.REPAIR).contractVersion(3).accepted(12)
                .rejected(2).duplicates(1).contentSha256("sha-out").build();
    }

    @Test
    void builder_writesTheSameMetadataMap_andReadsBack() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("input-sha256", "sha-in");
        expected.put("input-version-id", "v1");
        expected.put("input-etag", "e1");
        expected.put("input-key", "progress_events/progress-2026-03-02.jsonl");
        expected.put("input-size", "4096");
        expected.put("input-sequencer", "0A");
        expected.put("input-last-modified", "2026-03-02T23:10:00Z");
        expected.put("run-id", "run-1");
        expected.put("run-kind", "REPAIR");
        expected.put("contract-version", "3");
        expected.put("accepted", "12");
        expected.put("rejected", "2");
        expected.put("duplicates", "1");
        expected.put("content-sha256", "sha-out");
        PublishMetadata metadata = metadata();
        assertEquals(List.copyOf(expected.entrySet()), List.copyOf(metadata.toMap().entrySet()));
        assertEquals(metadata, PublishMetadata.from(metadata.toMap()));
        assertEquals(INPUT, metadata.identity("inbox"));
        assertEquals(metadata, metadata.toBuilder().build());
        assertEquals("run-2", metadata.toBuilder().runId("run-2").build().runId());
    }

    @Test
    void build_namesTheMissingComponent() {
        assertEquals("PublishMetadata: inputSha256 is required", assertThrows(IllegalStateException.class,
                () -> PublishMetadata.builder().runId("r").runKind(RunKind.INGEST).build()).getMessage());
        assertEquals("PublishMetadata: runId is required", assertThrows(IllegalStateException.class,
                () -> metadata().toBuilder().runId(null).build()).getMessage());
        assertEquals("PublishMetadata: runKind is required", assertThrows(IllegalStateException.class,
                () -> metadata().toBuilder().runKind(null).build()).getMessage());
    }
}
