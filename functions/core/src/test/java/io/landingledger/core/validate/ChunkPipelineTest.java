package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

/**
 * Which thread parses which chunk: the pass itself up to {@link ValidationLimits#PARALLEL_FROM_BYTES}, worker threads
 * after it, and the chunks come back in input order either way. Seen from inside the parsers, not by sampling
 * threads, so it holds however fast the machine parses.
 */
class ChunkPipelineTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final int LINES = 12_000; // about 1.9 MB: some chunks before the threshold, several after it

    @Test
    void chunksPastTheThreshold_areParsedOnWorkerThreads_andComeBackInInputOrder() throws IOException {
        Set<String> parsedOn = ConcurrentHashMap.newKeySet();
        List<Long> decodedBeforeWorkerChunks = new ArrayList<>();
        List<Long> decodedBeforePassChunks = new ArrayList<>();
        long nextLine = 1;
        long lines = 0;
        ValidationLimits limits = ValidationLimits.defaults().withWorkers(2);
        HashingInputStream source = new HashingInputStream(new ByteArrayInputStream(events()));
        DecodedInput input = new DecodedInput(source, limits);
        assertNull(input.open());
        ChunkReader reader = new ChunkReader(source, input, limits.maxLineBytes());
        ChunkParser pass = new ChunkParser(EVENTS, new ThreadRecordingParser(LineParser.forContract(EVENTS, limits), parsedOn));
        try (ChunkPipeline pipeline = new ChunkPipeline(reader, pass, 2, ValidationLimits.PARALLEL_FROM_BYTES)) {
            long decodedBefore = 0;
            LineChunk chunk;
            do {
                chunk = pipeline.next();
                assertNull(chunk.readFailure);
                assertEquals(nextLine, chunk.firstLine, "chunks are handed out in input order");
                if (chunk.count > 0) {
                    (chunk.parsed.parsed == chunk.count ? decodedBeforeWorkerChunks : decodedBeforePassChunks).add(decodedBefore);
                    if (chunk.parsed.parsed < chunk.count) {
                        assertEquals(0, chunk.parsed.parsed, "a chunk is the pass's or a worker's, whole");
                        pass.parse(chunk, 0);
                    }
                }
                nextLine += chunk.count;
                lines += chunk.count;
                decodedBefore = chunk.decodedAfterRead;
            } while (!chunk.end);
        }
        assertEquals(LINES, lines);
        assertTrue(parsedOn.contains(Thread.currentThread().getName()), "the pass parsed the first chunks: " + parsedOn);
        assertTrue(parsedOn.stream().anyMatch(t -> t.matches("validator-\\d+-worker-\\d+")), "workers parsed chunks: " + parsedOn);
        assertTrue(decodedBeforePassChunks.stream().allMatch(b -> b < ValidationLimits.PARALLEL_FROM_BYTES),
                "the pass parsed only chunks read before the threshold: " + decodedBeforePassChunks);
        assertTrue(decodedBeforeWorkerChunks.size() >= 2 && decodedBeforeWorkerChunks.stream().allMatch(b -> b >= ValidationLimits.PARALLEL_FROM_BYTES),
                "workers parsed the chunks read after it: " + decodedBeforeWorkerChunks);
    }

    private static byte[] events() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= LINES; i++) {
            text.append("{\"event_id\":\"e-").append(i).append("\",\"learner_id\":\"L").append(i % 50)
                    .append("\",\"lesson_id\":\"lesson-3\",\"event_type\":\"checkpoint\",\"attempt_number\":2,"
                            + "\"event_time\":\"2026-03-02T14:02:11Z\",\"checkpoint\":4}\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A parser that notes the thread of every record it parses; its copies note into the same set. */
    private record ThreadRecordingParser(LineParser parser, Set<String> threads) implements LineParser {
        @Override
        public boolean ready() {
            return parser.ready();
        }

        @Override
        public Refusal readHeader(byte[] b, int off, int len, long line) {
            return parser.readHeader(b, off, len, line);
        }

        @Override
        public Parsed parse(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome) {
            threads.add(Thread.currentThread().getName());
            return parser.parse(b, off, len, row, outcome);
        }

        @Override
        public int scanRecord(byte[] b, int off, int len, int from) {
            return parser.scanRecord(b, off, len, from);
        }

        @Override
        public boolean namesProhibitedField(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome) {
            return parser.namesProhibitedField(b, off, len, row, outcome);
        }

        @Override
        public LineParser copy() {
            return new ThreadRecordingParser(parser.copy(), threads);
        }
    }
}
