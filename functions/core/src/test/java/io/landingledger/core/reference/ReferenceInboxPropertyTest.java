package io.landingledger.core.reference;

import io.landingledger.core.ingest.UnitInputs;
import io.landingledger.core.simulation.SimClock;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.testing.InMemoryObjectStore;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference's "which input is newer" agrees with the production {@link UnitInputs} on seeded generated inbox
 * histories of one unit's two keys (and a neighbour's key that is not the unit's): puts a few hundred milliseconds to
 * seconds apart (so LastModified seconds tie and differ), multipart uploads completed after later puts, delete
 * markers, deleted versions and the lifecycle's expiry. For each history: the same newest input, the same answer to
 * "is this version held", and the same order of every pair of versions ever created, deleted ones included.
 * {@code -Dreference.histories=N} generates more.
 */
class ReferenceInboxPropertyTest {
    private static final long HISTORIES = Long.getLong("reference.histories", 2_000);
    private static final String JSONL = "d/progress-2026-03-01.jsonl";
    private static final String GZ = JSONL + ".gz";
    private static final String OTHER = "d/progress-2026-03-02.jsonl";
    private static final Predicate<String> UNIT = k -> k.equals(JSONL) || k.equals(GZ);

    @Test
    void theReferenceOrderAgreesWithUnitInputs_onGeneratedInboxHistories() {
        long pairs = 0;
        for (long seed = 0; seed < HISTORIES; seed++) {
            Random random = new Random(seed);
            SimClock clock = new SimClock(Instant.parse("2026-03-01T23:59:58.400Z"));
            InMemoryObjectStore s3 = new InMemoryObjectStore(clock, new InMemoryObjectStore.PartSizes(8, 16, 2))
                    .createBucket("inbox", true);
            List<String[]> created = new ArrayList<>();
            List<InMemoryObjectStore.MultipartPut> open = new ArrayList<>();
            int steps = 1 + random.nextInt(8);
            for (int i = 0; i < steps; i++) {
                clock.advanceMillis(random.nextInt(4) * 400L);
                String key = random.nextInt(6) == 0 ? OTHER : random.nextBoolean() ? JSONL : GZ;
                byte[] body = ("body " + i).getBytes(StandardCharsets.UTF_8);
                switch (random.nextInt(8)) {
                    case 0 -> s3.delete("inbox", key);
                    case 1 -> {
                        List<InMemoryObjectStore.Version> versions = s3.allVersions("inbox");
                        if (!versions.isEmpty()) {
                            InMemoryObjectStore.Version v = versions.get(random.nextInt(versions.size()));
                            s3.deleteVersion("inbox", v.key(), v.versionId());
                        }
                    }
                    case 2 -> s3.expireNoncurrent("inbox", key);
                    case 3 -> open.add(s3.startMultipartPut("inbox", key, "application/x-ndjson", Map.of()));
                    case 4 -> {
                        if (!open.isEmpty()) {
                            InMemoryObjectStore.Version v = open.remove(0).complete(body, 8);
                            created.add(new String[] {v.key(), v.versionId()});
                        }
                    }
                    default -> {
                        InMemoryObjectStore.Version v = s3.put("inbox", key, body, "application/x-ndjson", Map.of());
                        created.add(new String[] {v.key(), v.versionId()});
                    }
                }
            }
            List<ObjectStore.ListedVersion> listing = new ArrayList<>();
            s3.versions("inbox", "d/").forEach(listing::add);
            UnitInputs production = UnitInputs.of(listing, UNIT);
            ReferenceInbox fromStore = ReferenceInbox.of(s3.allVersions("inbox"), UNIT);
            ReferenceInbox fromListing = ReferenceInbox.ofListing(listing, UNIT);
            String where = "seed " + seed + ": " + production.all();
            for (ReferenceInbox reference : List.of(fromStore, fromListing)) {
                assertEquals(production.newest().map(v -> v.key() + " " + v.versionId()),
                        reference.newest().map(v -> v.key() + " " + v.versionId()), where);
                for (String[] a : created) {
                    assertEquals(UNIT.test(a[0]) && production.holds(a[0], a[1]), reference.holds(a[0], a[1]), where);
                    for (String[] b : created) {
                        if (!UNIT.test(a[0]) || !UNIT.test(b[0])) {
                            continue;
                        }
                        pairs++;
                        int cmp = production.compare(a[0], a[1], b[0], b[1]);
                        assertEquals(cmp > 0, reference.newer(a[0], a[1], b[0], b[1]),
                                where + "\n" + a[0] + " " + a[1] + " vs "
                                + b[0] + " " + b[1]);
                    }
                }
            }
        }
        System.out.printf("reference order vs UnitInputs: %,d inbox histories, %,d ordered pairs agree%n",
                HISTORIES, pairs);
        assertTrue(pairs > HISTORIES, "the generator makes histories with several versions");
    }
}
