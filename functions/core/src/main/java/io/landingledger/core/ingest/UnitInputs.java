package io.landingledger.core.ingest;

import io.landingledger.core.store.ObjectStore.ListedVersion;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Every inbox version of one unit's keys, as one version listing shows them, and the one rule that orders them
 * (docs/design.md, "Which input is newer"). The ingest path, the sweep's re-drive and repairs all order inputs with
 * this class, from the same listing, so they cannot disagree:
 *
 * <ol>
 *   <li>Within one key, S3's version order: the current version is newest, the others follow as S3 lists them (the
 *       order S3 created them in; the event sequencer says the same, but only events carry it).</li>
 *   <li>Between keys of one unit (say {@code .jsonl} and {@code .jsonl.gz}), the key whose current version has the
 *       later LastModified, to the second (S3's resolution; for a multipart upload, the time it was started), is
 *       newer, with all its versions; in a tie, the key that sorts last. A key with no current version (its latest
 *       is a delete marker) is older than every key that has one.</li>
 *   <li>A version the inbox no longer holds is older than every version it holds: the unit follows the inbox, so
 *       deleting the version a publish was built from makes the version S3 now serves the newest.</li>
 * </ol>
 * Event times and event sequencers never take part: a re-drive or a repair has neither, and an S3 event's time
 * (milliseconds) and LastModified (seconds) come from different clocks.
 */
public final class UnitInputs {
    private final Map<String, List<ListedVersion>> byKey; // each key's versions, newest first
    private final List<String> keysOldestFirst;

    private UnitInputs(Map<String, List<ListedVersion>> byKey) {
        this.byKey = byKey;
        List<String> keys = new ArrayList<>(byKey.keySet());
        keys.sort(Comparator.comparing((String key) -> currentSecond(byKey.get(key)), Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Comparator.naturalOrder()));
        this.keysOldestFirst = List.copyOf(keys);
    }

    /**
     * The versions of the keys that {@code belongs} accepts (the unit's keys), from a listing in the order
     * {@link io.landingledger.core.store.ObjectStore#versions} gives (each key's versions newest first).
     */
    public static UnitInputs of(Iterable<ListedVersion> listing, Predicate<String> belongs) {
        Map<String, List<ListedVersion>> byKey = new LinkedHashMap<>();
        for (ListedVersion version : listing) {
            if (belongs.test(version.key())) {
                byKey.computeIfAbsent(version.key(), k -> new ArrayList<>()).add(version);
            }
        }
        return new UnitInputs(byKey);
    }

    /** No versions at all. */
    public static UnitInputs none() {
        return new UnitInputs(new LinkedHashMap<>());
    }

    /** The unit's newest input: the newest key's current version; empty when no key has a current version. */
    public Optional<ListedVersion> newest() {
        for (int i = keysOldestFirst.size() - 1; i >= 0; i--) {
            ListedVersion head = byKey.get(keysOldestFirst.get(i)).get(0);
            if (head.latest()) {
                return Optional.of(head);
            }
        }
        return Optional.empty();
    }

    /** True when the inbox still holds this version ({@code versionId} null: the key's current version, if any). */
    public boolean holds(String key, String versionId) {
        return find(key, versionId).isPresent();
    }

    /** The listed version, if the inbox still holds it ({@code versionId} null: the key's current version). */
    public Optional<ListedVersion> find(String key, String versionId) {
        List<ListedVersion> versions = byKey.get(key);
        if (versions == null) {
            return Optional.empty();
        }
        if (versionId == null) {
            return versions.get(0).latest() ? Optional.of(versions.get(0)) : Optional.empty();
        }
        for (ListedVersion version : versions) {
            if (versionId.equals(version.versionId())) {
                return Optional.of(version);
            }
        }
        return Optional.empty();
    }

    /** True when this version is the unit's newest input. */
    public boolean isNewest(String key, String versionId) {
        Optional<ListedVersion> newest = newest();
        Optional<ListedVersion> it = find(key, versionId);
        return newest.isPresent() && it.isPresent() && newest.get().key().equals(key)
                && Objects.equals(newest.get().versionId(), it.get().versionId());
    }

    /**
     * Orders two versions of the unit's keys: negative when {@code (keyA, versionA)} is older, zero when they are the
     * same version or both are gone, positive when newer. A total order over the versions the inbox holds.
     */
    public int compare(String keyA, String versionA, String keyB, String versionB) {
        int[] a = position(keyA, versionA);
        int[] b = position(keyB, versionB);
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]);
    }

    /** Every listed version, keys oldest first, each key's versions newest first (for reports). */
    public List<ListedVersion> all() {
        List<ListedVersion> all = new ArrayList<>();
        for (String key : keysOldestFirst) {
            all.addAll(byKey.get(key));
        }
        return all;
    }

    /** {key rank, version rank}, higher is newer; null when the inbox does not hold the version. */
    private int[] position(String key, String versionId) {
        List<ListedVersion> versions = byKey.get(key);
        if (versions == null) {
            return null;
        }
        int keyRank = keysOldestFirst.indexOf(key);
        if (versionId == null) {
            return versions.get(0).latest() ? new int[] {keyRank, versions.size()} : null;
        }
        for (int i = 0; i < versions.size(); i++) {
            if (versionId.equals(versions.get(i).versionId())) {
                return new int[] {keyRank, versions.size() - i};
            }
        }
        return null;
    }

    /** The LastModified second of a key's current version, or null when its latest is a delete marker. */
    private static Instant currentSecond(List<ListedVersion> newestFirst) {
        ListedVersion head = newestFirst.get(0);
        return head.latest() && head.lastModified() != null ? head.lastModified().truncatedTo(ChronoUnit.SECONDS) : null;
    }
}
