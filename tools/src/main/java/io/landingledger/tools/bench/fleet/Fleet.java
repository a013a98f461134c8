package io.landingledger.tools.bench.fleet;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitSpec;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.StoredObject;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A fleet of datasets x daily units held as a few bytes a unit, with the S3 and DynamoDB ports the sweep reads
 * generated from them: a version listing, a published/ listing and a ledger Query answer what the unit's bytes say,
 * and each answer is metered ({@link Meter}) as AWS would page and bill it. The rest of the lake (the sweep's own
 * files, the change markers) is an ordinary map; report bodies are counted and dropped (10,000 datasets' reports are
 * tens of GB).
 *
 * <p>Per unit: {@code versions} (inbox versions, 0 = no input), {@code recorded} (the version the ledger's input
 * names, 0 = no item), {@code publishes} (publish_count, 0 = never published: a REFUSED item), {@code refused} (the
 * version whose refusal is the last attempt, 0 = none), {@code object} (1 = the ledger's publish is in published/).
 */
final class Fleet {
    static final String INBOX = "fleet-inbox";
    static final String LAKE = "fleet-lake";
    static final LocalDate FIRST = LocalDate.parse("2026-01-01");

    final int datasets;
    final int units;
    final List<DatasetContract> contracts = new ArrayList<>();
    final int[] graceHours;
    final int[] arrivalHour;
    private final byte[] versions;
    private final byte[] recorded;
    private final byte[] publishes;
    private final byte[] refused;
    private final byte[] object;
    private final Map<String, Integer> index = new java.util.HashMap<>();
    private final ConcurrentSkipListMap<String, byte[]> lake = new ConcurrentSkipListMap<>();
    private final Map<String, Instant> lakeModified = new java.util.concurrent.ConcurrentHashMap<>();
    volatile Meter meter = new Meter();
    volatile Instant now;
    final Rates rates;

    /** The rates the fleet's history and its day are drawn with (docs/performance.md states them). */
    record Rates(double lostEvent, double refused, double resendPerUnitDay, double missing, double drift) {
        static Rates realistic() {
            // a lost S3 event 1 in 1,000 deliveries; 0.5% of files refused; 2% of units re-sent; 0.5% never sent;
            // 1 in 10,000 publishes deleted out of band
            return new Rates(0.001, 0.005, 0.02, 0.005, 0.0001);
        }
    }

    Fleet(int datasets, int units, DatasetContract template, Rates rates, long seed) {
        this.datasets = datasets;
        this.units = units;
        this.rates = rates;
        int n = datasets * units;
        versions = new byte[n];
        recorded = new byte[n];
        publishes = new byte[n];
        refused = new byte[n];
        object = new byte[n];
        graceHours = new int[datasets];
        arrivalHour = new int[datasets];
        Random random = new Random(seed);
        for (int d = 0; d < datasets; d++) {
            String name = name(d);
            index.put(name, d);
            graceHours[d] = 1 + random.nextInt(23);               // deadlines spread over the day
            arrivalHour[d] = random.nextInt(graceHours[d]);       // each producer's file lands before its deadline
            UnitSpec unit = template.unit().toBuilder()
                    .first(FIRST.toString())
                    .graceHours(graceHours[d])
                    .lookbackDays(units + 1)
                    .dependsOnPrevious(false)
                    .autoRedrive(true)
                    .build();
            contracts.add(template.toBuilder().dataset(name).unit(unit).build());
        }
        // a year of history: every unit but the last has arrived (or not), with its re-sends, refusals and losses
        for (int d = 0; d < datasets; d++) {
            for (int u = 0; u < units - 1; u++) {
                int i = d * units + u;
                if (random.nextDouble() < rates.missing()) {
                    continue;
                }
                arrive(i, random, false);
                if (random.nextDouble() < rates.resendPerUnitDay()) {
                    arrive(i, random, false);
                }
                if (object[i] == 1 && random.nextDouble() < rates.drift()) {
                    object[i] = 0;
                }
            }
        }
    }

    static String name(int d) {
        return String.format("ds_%05d", d);
    }

    static String unit(int u) {
        return FIRST.plusDays(u).toString();
    }

    int datasetIndex(String dataset) {
        Integer d = index.get(dataset);
        if (d == null) {
            throw new IllegalArgumentException("no dataset " + dataset);
        }
        return d;
    }

    /** A new inbox version of unit i; its event reaches the validator unless lost. Returns true when it did. */
    boolean arrive(int i, Random random, boolean record) {
        versions[i]++;
        if (random.nextDouble() < rates.lostEvent()) {
            return false;
        }
        validate(i, versions[i], random.nextDouble() < rates.refused());
        return true;
    }

    /** The validator's run of version v of unit i: a publish, or a refusal (the standing publish stays). */
    void validate(int i, int v, boolean refuse) {
        if (refuse) {
            refused[i] = (byte) v;
            if (publishes[i] == 0) {
                recorded[i] = (byte) v;
            }
        } else {
            recorded[i] = (byte) v;
            publishes[i]++;
            refused[i] = 0;
            object[i] = 1;
        }
    }

    /** The re-drive of unit i's newest input (the validator run the sweep submitted). */
    void redrive(String dataset, String unit, Random random) {
        int d = datasetIndex(dataset);
        int u = (int) (LocalDate.parse(unit).toEpochDay() - FIRST.toEpochDay());
        int i = d * units + u;
        if (versions[i] > 0 && recorded[i] != versions[i] && refused[i] != versions[i]) {
            validate(i, versions[i], random.nextDouble() < rates.refused());
        } else if (publishes[i] > 0 && object[i] == 0) {
            object[i] = 1; // the ingest path republishes a missing publish
            publishes[i]++;
        }
    }

    void deletePublished(int i) {
        object[i] = 0;
    }

    boolean hasObject(int i) {
        return object[i] == 1;
    }

    // ---- the generated answers ----

    private Instant arrived(int d, int u, int v) {
        return FIRST.plusDays(u + 1L).atStartOfDay().toInstant(java.time.ZoneOffset.UTC)
                .plus(Duration.ofHours(arrivalHour[d])).plus(Duration.ofMinutes(7L * (v - 1)));
    }

    private static String key(String dataset, int u) {
        return dataset + "/progress-" + unit(u) + ".jsonl";
    }

    private static String etag(int i, int v) {
        return Long.toHexString(((long) i << 8) | v) + "0000000000000000000000";
    }

    private static String publishEtag(int i, int n) {
        return "p" + Long.toHexString(((long) i << 8) | n) + "000000000000000000000";
    }

    private InputIdentity input(String dataset, int d, int u, int v) {
        int i = d * units + u;
        return InputIdentity.builder()
                .bucket(INBOX)
                .key(key(dataset, u))
                .versionId("v" + v)
                .etag(etag(i, v))
                .sha256(String.format("%064x", ((long) i << 8) | v))
                .size(25_000_000L)
                .lastModified(arrived(d, u, v))
                .build();
    }

    LedgerItem item(String dataset, int d, int u) {
        int i = d * units + u;
        if (recorded[i] == 0) {
            return null;
        }
        InputIdentity input = input(dataset, d, u, recorded[i]);
        Instant at = arrived(d, u, recorded[i]).plusSeconds(40);
        LedgerItem.Builder b = LedgerItem.builder(dataset, unit(u)).input(input).contractVersion(1).revision(3);
        if (publishes[i] == 0) {
            b.status(LedgerStatus.REFUSED).reason("KEY_CONFLICT").run("run-" + i, RunKind.INGEST)
                    .lastAttempt(LastAttempt.of(at, "run-" + i, RunKind.INGEST, AttemptOutcome.REFUSED, "KEY_CONFLICT", input));
        } else {
            b.status(LedgerStatus.PUBLISHED).run("run-" + i + "-" + publishes[i], RunKind.INGEST).publishCount(publishes[i])
                    .published(new PublishedRef(LakeLayout.publishedKey(dataset, unit(u)), publishEtag(i, publishes[i]), 100_000, 0, 0, null))
                    .publishedAt(arrived(d, u, 1).plusSeconds(40), at);
            if (refused[i] != 0) {
                InputIdentity newer = input(dataset, d, u, refused[i]);
                b.lastAttempt(LastAttempt.of(arrived(d, u, refused[i]).plusSeconds(40), "run-r" + i, RunKind.INGEST, AttemptOutcome.REFUSED,
                        "KEY_CONFLICT", newer));
            } else {
                b.lastAttempt(LastAttempt.of(at, "run-" + i, RunKind.INGEST, AttemptOutcome.PUBLISHED, null, input));
            }
        }
        return b.build();
    }

    final Ledger ledger = new Ledger() {
        @Override
        public Optional<LedgerItem> get(String dataset, String unit) {
            meter.dynamoGet(AwsFigures.LEDGER_ITEM_BYTES);
            int u = (int) (LocalDate.parse(unit).toEpochDay() - FIRST.toEpochDay());
            return u < 0 || u >= units ? Optional.empty() : Optional.ofNullable(item(dataset, datasetIndex(dataset), u));
        }

        @Override
        public void write(LedgerItem item, long expectedRevision, HistoryEntry history) {
            throw new UnsupportedOperationException("the sweep never writes the ledger");
        }

        @Override
        public void appendHistory(HistoryEntry history) {
            throw new UnsupportedOperationException("the sweep never writes the ledger");
        }

        @Override
        public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                   io.landingledger.core.ledger.TableState state, HistoryEntry history) {
            throw new UnsupportedOperationException("the sweep never writes the ledger");
        }

        @Override
        public List<HistoryEntry> history(String dataset, String unit) {
            return List.of();
        }

        @Override
        public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
            int d = datasetIndex(dataset);
            List<LedgerItem> items = new ArrayList<>();
            for (int u = 0; u < units; u++) {
                String unit = unit(u);
                if ((fromUnit == null || unit.compareTo(fromUnit) >= 0) && (toUnit == null || unit.compareTo(toUnit) <= 0)) {
                    LedgerItem item = item(dataset, d, u);
                    if (item != null) {
                        items.add(item);
                    }
                }
            }
            meter.dynamoQuery(items.size(), AwsFigures.LEDGER_ITEM_BYTES);
            return items;
        }
    };

    final ObjectStore store = new ObjectStore() {
        @Override
        public Optional<StoredObject> head(String bucket, String key) {
            meter.s3Head();
            if (bucket.equals(LAKE) && key.startsWith(LakeLayout.PUBLISHED_PREFIX)) {
                String[] parts = key.split("/");
                int d = datasetIndex(parts[1]);
                int u = (int) (LocalDate.parse(parts[2].substring("unit=".length())).toEpochDay() - FIRST.toEpochDay());
                int i = d * units + u;
                return object[i] == 1 ? Optional.of(new StoredObject(LAKE, key, null, publishEtag(i, publishes[i]), 10_000_000, now, Map.of()))
                        : Optional.empty();
            }
            byte[] body = lake.get(key);
            return body == null ? Optional.empty() : Optional.of(new StoredObject(bucket, key, null, "x", body.length, lakeModified.get(key), Map.of()));
        }

        @Override
        public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
            byte[] body = lake.get(key);
            meter.s3Get(body == null ? 0 : body.length);
            if (body == null) {
                throw new ObjectNotFoundException(bucket + "/" + key);
            }
            return new OpenedObject(new StoredObject(bucket, key, null, "x", body.length, lakeModified.get(key), Map.of()),
                    new ByteArrayInputStream(body));
        }

        @Override
        public StreamingUpload startUpload(String bucket, String key, String contentType) {
            throw new UnsupportedOperationException("the sweep never streams an upload");
        }

        @Override
        public void put(String bucket, String key, byte[] body, String contentType) {
            meter.s3Put(body.length);
            // the sweep's own files are read back; the reports and status tables are only counted
            if (key.startsWith("_reports/sweeps/") || key.startsWith("_sweep/")) {
                lake.put(key, body);
                lakeModified.put(key, now);
            }
        }

        @Override
        public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition) {
            throw new UnsupportedOperationException("the sweep never promotes");
        }

        @Override
        public void delete(String bucket, String key) {
            throw new UnsupportedOperationException("the sweep never deletes");
        }

        @Override
        public Iterable<ListedObject> list(String bucket, String prefix) {
            List<ListedObject> listed = new ArrayList<>();
            if (prefix.startsWith(LakeLayout.PUBLISHED_PREFIX)) {
                String dataset = prefix.substring(LakeLayout.PUBLISHED_PREFIX.length(), prefix.indexOf('/', LakeLayout.PUBLISHED_PREFIX.length()));
                int d = datasetIndex(dataset);
                for (int u = 0; u < units; u++) {
                    int i = d * units + u;
                    String key = LakeLayout.publishedKey(dataset, unit(u));
                    if (object[i] == 1 && key.startsWith(prefix)) {
                        listed.add(new ListedObject(key, publishEtag(i, publishes[i]), 10_000_000, now));
                    }
                }
            } else {
                for (Map.Entry<String, byte[]> e : lake.tailMap(prefix).entrySet()) {
                    if (!e.getKey().startsWith(prefix)) {
                        break;
                    }
                    listed.add(new ListedObject(e.getKey(), "x", e.getValue().length, lakeModified.get(e.getKey())));
                }
            }
            meter.s3List(listed.size(), AwsFigures.S3_OBJECT_ENTRY_BYTES);
            return listed;
        }

        @Override
        public Iterable<ListedVersion> versions(String bucket, String prefix) {
            String dataset = prefix.substring(0, prefix.indexOf('/'));
            int d = datasetIndex(dataset);
            List<ListedVersion> listed = new ArrayList<>();
            for (int u = 0; u < units; u++) {
                int i = d * units + u;
                for (int v = versions[i]; v >= 1; v--) {
                    listed.add(new ListedVersion(key(dataset, u), "v" + v, etag(i, v), 25_000_000L, arrived(d, u, v), v == versions[i]));
                }
            }
            meter.s3List(listed.size(), AwsFigures.S3_VERSION_ENTRY_BYTES);
            return listed;
        }
    };

    /** A record of what the fleet holds now, for the report: units by what the sweep should call them. */
    int unitsWithInput() {
        int n = 0;
        for (byte v : versions) {
            n += v > 0 ? 1 : 0;
        }
        return n;
    }
}
