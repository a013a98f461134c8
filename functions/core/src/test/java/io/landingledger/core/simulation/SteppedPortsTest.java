package io.landingledger.core.simulation;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stepped S3 and DynamoDB ports: which calls are yield points, and that a crashed run's closers call nothing. */
class SteppedPortsTest {

    /** Just enough of S3 to stage and promote: current objects only, a log of every request performed. */
    static final class FakeStore implements ObjectStore {
        final Map<String, byte[]> objects = new TreeMap<>();
        final Map<String, String> etags = new TreeMap<>();
        final List<String> log = new ArrayList<>();
        private int etagCounter;

        @Override
        public Optional<StoredObject> head(String bucket, String key) {
            log.add("head " + key);
            return objects.containsKey(key) ? Optional.of(describe(bucket, key)) : Optional.empty();
        }

        @Override
        public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
            log.add("open " + key);
            if (!objects.containsKey(key)) {
                throw new ObjectNotFoundException(key);
            }
            return new OpenedObject(describe(bucket, key), new ByteArrayInputStream(objects.get(key)));
        }

        @Override
        public StreamingUpload startUpload(String bucket, String key, String contentType) {
            log.add("startUpload " + key);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            return new StreamingUpload() {
                private boolean done;

                @Override
                public OutputStream stream() {
                    return body;
                }

                @Override
                public String complete() {
                    log.add("complete " + key);
                    done = true;
                    return store(key, body.toByteArray());
                }

                @Override
                public void abort() {
                    log.add("abort " + key);
                    done = true;
                }

                @Override
                public void close() {
                    if (!done) {
                        abort();
                    }
                }
            };
        }

        @Override
        public void put(String bucket, String key, byte[] body, String contentType) {
            log.add("put " + key);
            store(key, body);
        }

        @Override
        public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata,
                              Precondition precondition) throws PreconditionFailedException {
            log.add("promote " + targetKey);
            String etag = etags.get(targetKey);
            if (precondition instanceof Precondition.Match m ? !m.etag().equals(etag) : etag != null) {
                throw new PreconditionFailedException(targetKey + " is " + etag);
            }
            return store(targetKey, objects.get(sourceKey));
        }

        @Override
        public void delete(String bucket, String key) {
            log.add("delete " + key);
            objects.remove(key);
            etags.remove(key);
        }

        @Override
        public Iterable<ListedObject> list(String bucket, String prefix) {
            log.add("list " + prefix);
            List<ListedObject> out = new ArrayList<>();
            objects.forEach((k, v) -> {
                if (k.startsWith(prefix)) {
                    out.add(new ListedObject(k, etags.get(k), v.length, Instant.EPOCH));
                }
            });
            return out;
        }

        @Override
        public Iterable<ListedVersion> versions(String bucket, String prefix) {
            log.add("versions " + prefix);
            return List.of();
        }

        private String store(String key, byte[] body) {
            objects.put(key, body);
            String etag = "e" + ++etagCounter;
            etags.put(key, etag);
            return etag;
        }

        private StoredObject describe(String bucket, String key) {
            return new StoredObject(bucket, key, null, etags.get(key), objects.get(key).length, Instant.EPOCH, Map.of());
        }
    }

    /** Stages an object with a streamed upload and promotes it under If-None-Match. */
    static final class StageAndPromote implements Model {
        final FakeStore fake = new FakeStore();
        final List<String> outcomes = new ArrayList<>();

        StageAndPromote(Scheduler sim, int runs) {
            ObjectStore store = new SteppedObjectStore(sim, fake);
            for (int i = 1; i <= runs; i++) {
                String staging = "staging/" + i;
                sim.task("run", () -> {
                    try (ObjectStore.StreamingUpload upload = store.startUpload("lake", staging, "text/plain")) {
                        upload.stream().write("row\n".getBytes(StandardCharsets.UTF_8));
                        upload.complete();
                    }
                    try {
                        store.promote("lake", staging, "published/x", Map.of(), Precondition.none());
                        outcomes.add("published");
                    } catch (PreconditionFailedException e) {
                        outcomes.add("412");
                    }
                });
            }
        }
    }

    @AfterEach
    void noThreadOutlivesItsSchedule() {
        assertEquals(0, Scheduler.liveThreads(), "task threads still alive");
    }

    @Test
    void uploadCompleteAndPromoteAreYieldPoints() {
        Outcome o = Explorer.of(sim -> new StageAndPromote(sim, 1)).replay();
        assertEquals(List.of(
                "run#1 s3.startUpload staging/1",
                "run#1 s3.complete staging/1 -> e1",
                "run#1 s3.promote published/x from staging/1 If-None-Match * -> e2",
                "run#1 ended: returned"), o.trace().events());
    }

    @Test
    void aCrashedRunsUploadCloseAbortsNothing() {
        List<StageAndPromote> models = new ArrayList<>();
        Report report = Explorer.of(sim -> {
            StageAndPromote m = new StageAndPromote(sim, 1);
            models.add(m);
            return m;
        }).with(c -> c.withMaxCrashes(1)).exhaustive();
        report.assertNoViolation();
        // startUpload (a crash before it), complete and promote (before or after each), or no crash
        assertEquals(1 + 1 + 2 + 2, report.schedules());
        List<List<String>> logs = models.stream().map(m -> m.fake.log).toList();
        assertEquals(List.of(
                List.of("startUpload staging/1", "complete staging/1", "promote published/x"),
                List.of("startUpload staging/1", "complete staging/1"),
                List.of("startUpload staging/1", "complete staging/1", "promote published/x"),
                List.of("startUpload staging/1"),
                List.of("startUpload staging/1", "complete staging/1"),
                List.of()), logs,
                "depth first: no crash; crash before promote; after promote; before complete (the try-with-resources"
                        + " close aborts nothing: a dead Lambda leaves its multipart upload behind); after complete;"
                        + " before startUpload");
    }

    @Test
    void aFaultedCompleteIsAbortedByClose() {
        Outcome o = Explorer.of(sim -> new StageAndPromote(sim, 1)).with(c -> c.withMaxFaults(1)).replay(0, 1);
        assertEquals(List.of(
                "run#1 s3.startUpload staging/1",
                "run#1 fault before s3.complete staging/1",
                "run#1 s3.abort (close) staging/1",
                "run#1 ended: threw io.landingledger.core.simulation.SimulatedFault: simulated fault before"
                        + " s3.complete staging/1"), o.trace().events());
        assertFalse(o.violated(), "a propagated fault is no violation");
    }

    @Test
    void checkedExceptionsPassThroughUnchanged() {
        List<StageAndPromote> models = new ArrayList<>();
        Report report = Explorer.of(sim -> {
            StageAndPromote m = new StageAndPromote(sim, 2);
            models.add(m);
            return m;
        }).with(c -> c.withMaxPreemptions(2)).exhaustive();
        report.assertNoViolation();
        for (StageAndPromote m : models) {
            assertEquals(List.of("412", "published"), m.outcomes.stream().sorted().toList(), "If-None-Match: one wins");
        }
    }

    /** A ledger of one item per unit, conditioned on its revision. */
    static final class FakeLedger implements Ledger {
        final Map<String, LedgerItem> items = new TreeMap<>();
        final List<HistoryEntry> history = new ArrayList<>();

        @Override
        public Optional<LedgerItem> get(String dataset, String unit) {
            return Optional.ofNullable(items.get(unit));
        }

        @Override
        public void write(LedgerItem item, long expectedRevision, HistoryEntry entry) throws LedgerConflictException {
            LedgerItem stored = items.get(item.unit());
            if ((stored == null ? 0 : stored.revision()) != expectedRevision) {
                throw new LedgerConflictException("revision moved", stored);
            }
            items.put(item.unit(), item.withRevision(expectedRevision + 1));
            if (entry != null) {
                history.add(entry);
            }
        }

        @Override
        public void appendHistory(HistoryEntry entry) {
            history.add(entry);
        }

        @Override
        public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                   TableState state, HistoryEntry entry) {
            throw new UnsupportedOperationException("the stepped ports' test records no table state");
        }

        @Override
        public List<HistoryEntry> history(String dataset, String unit) {
            return history;
        }

        @Override
        public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
            return List.copyOf(items.values());
        }
    }

    @Test
    void ledgerWritesAreFencedYieldPoints() {
        List<List<String>> results = new ArrayList<>();
        Report report = Explorer.of(sim -> {
            FakeLedger fake = new FakeLedger();
            Ledger ledger = new SteppedLedger(sim, fake);
            List<String> result = new ArrayList<>();
            results.add(result);
            for (int i = 1; i <= 2; i++) {
                String run = "r" + i;
                sim.task("run", () -> {
                    LedgerItem read = ledger.get("ds", "u").orElse(null);
                    LedgerItem next = LedgerItem.builder("ds", "u").status(LedgerStatus.PUBLISHED).run(run, RunKind.INGEST)
                            .contractVersion(1).publishCount(1).build();
                    try {
                        ledger.write(next, read == null ? 0 : read.revision(), null);
                        result.add(run + " wrote");
                    } catch (LedgerConflictException e) {
                        result.add(run + " conflict with " + e.current().orElseThrow().runId());
                    }
                });
            }
            return new Model() { };
        }).with(c -> c.withMaxPreemptions(1)).exhaustive();
        report.assertNoViolation();
        assertTrue(results.contains(List.of("r2 wrote", "r1 conflict with r2")), results::toString);
        assertTrue(results.contains(List.of("r1 wrote", "r2 wrote")), results::toString);

        Outcome traced = Explorer.of(sim -> {
            Ledger ledger = new SteppedLedger(sim, new FakeLedger());
            sim.task("run", () -> ledger.write(LedgerItem.builder("ds", "u").status(LedgerStatus.REFUSED).run("r", RunKind.INGEST)
                    .contractVersion(1).reason("BAD").build(), 0, null));
            return new Model() { };
        }).replay();
        assertEquals(List.of("run#1 ledger.write u REFUSED if revision 0", "run#1 ended: returned"), traced.trace().events());
    }
}
