package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.landingledger.lambda.testing.ProgressEventLines.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Load as S3 and Lambda produce it: 1,000 uploads across 50 units (producers retry, so each unit's file is uploaded
 * 20 times with the same bytes), every notification delivered 3 times, in random order, 8 at a time.
 */
@ExtendWith(AwsEmulators.class)
class LoadIT {
    private static final int UNITS = 50;
    private static final int UPLOADS_PER_UNIT = 20;
    private static final int DELIVERIES = 3;

    private final PipelineFixture pipeline;

    LoadIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    @Test
    void thousandFilesDeliveredThreeTimesInRandomOrder_publishEachInputOnceAndTheSweepIsComplete() throws Exception {
        LocalDate first = LocalDate.parse("2026-03-01");
        List<S3Event> deliveries = new ArrayList<>();
        for (int u = 0; u < UNITS; u++) {
            String unit = first.plusDays(u).toString();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                body.append(completed("e-" + unit + "-" + i, unit));
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            for (int upload = 0; upload < UPLOADS_PER_UNIT; upload++) {
                S3Event event = pipeline.eventFor(pipeline.put("progress_events/progress-" + unit + ".jsonl", bytes));
                for (int d = 0; d < DELIVERIES; d++) {
                    deliveries.add(event);
                }
            }
        }
        Collections.shuffle(deliveries, new Random(42));
        assertEquals(UNITS * UPLOADS_PER_UNIT * DELIVERIES, deliveries.size());

        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<Map<String, Object>>> results = new ArrayList<>();
        try {
            for (S3Event event : deliveries) {
                ValidateObjectHandler handler = pipeline.handler();
                results.add(threads.submit(() -> Invocations.invoke(handler, event, null)));
            }
            for (Future<Map<String, Object>> result : results) {
                result.get(); // no delivery may fail
            }
        } finally {
            threads.shutdownNow();
        }

        for (int u = 0; u < UNITS; u++) {
            String unit = first.plusDays(u).toString();
            LedgerItem item = pipeline.ledgerItem("progress_events", unit);
            assertEquals(1, item.publishCount(), unit + ": one distinct input, one publish");
            List<HistoryEntry> published = pipeline.history("progress_events", unit).stream()
                    .filter(h -> "PUBLISHED".equals(h.action())).toList();
            assertEquals(1, published.size(), unit + ": " + published);
            var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", unit)));
            assertEquals(PipelineFixture.unquote(head.eTag()), item.publishedEtag(), unit + ": ledger and published/ agree");
            assertEquals(item.input().sha256(), head.metadata().get("input-sha256"));
            assertEquals(20, item.published().accepted());
        }
        assertEquals(UNITS, pipeline.keys(LakeLayout.PUBLISHED_PREFIX).size());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
        DatasetReport sweep = pipeline.sweep(Clock.systemUTC()).sweep(pipeline.contracts().get("progress_events").orElseThrow(),
                first.toString(), first.plusDays(UNITS - 1).toString());
        assertTrue(sweep.complete(), "the sweep is complete: " + sweep.notOk());
    }
}
