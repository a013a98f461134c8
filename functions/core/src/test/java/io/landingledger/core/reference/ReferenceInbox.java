package io.landingledger.core.reference;

import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.testing.InMemoryObjectStore;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * "Which input is newer" for one unit (docs/design.md, "Which input is newer"), told the way the design states it:
 * a version of a key whose current version was last modified later (to the second; ties to the key that sorts last)
 * is newer than every version of the other key; within one key, a version created later is newer; a version the inbox
 * no longer holds is older than every version it holds; a key whose latest is a delete marker is older than every
 * key with a current version. The unit's newest input is the current version of its newest key, if it has one.
 *
 * <p>Built from what the inbox holds: each key's versions oldest first, and whether its latest is a delete marker.
 */
public final class ReferenceInbox {
    /** One stored (not delete-marker) version. */
    public record Version(String key, String versionId, Instant lastModified) {
    }

    private final Map<String, List<Version>> oldestFirst = new LinkedHashMap<>();
    private final Map<String, Boolean> deleted = new LinkedHashMap<>();

    /**
     * The inbox as the in-memory S3 holds it ({@code InMemoryObjectStore.allVersions}: each key's versions and delete
     * markers, newest first), for the keys {@code unitKeys} accepts.
     */
    public static ReferenceInbox of(List<InMemoryObjectStore.Version> allNewestFirst, Predicate<String> unitKeys) {
        ReferenceInbox inbox = new ReferenceInbox();
        byKey(allNewestFirst, InMemoryObjectStore.Version::key, unitKeys).forEach((key, newestFirst) -> {
            List<Version> held = new ArrayList<>();
            for (int i = newestFirst.size() - 1; i >= 0; i--) {
                InMemoryObjectStore.Version v = newestFirst.get(i);
                if (!v.deleteMarker()) {
                    held.add(new Version(key, v.versionId(), v.lastModified()));
                }
            }
            inbox.key(key, held, newestFirst.get(0).deleteMarker());
        });
        return inbox;
    }

    /**
     * The inbox as one version listing showed it to a run (each key's versions newest first, delete markers left out,
     * the head flagged latest unless a delete marker is): the order that run could know.
     */
    public static ReferenceInbox ofListing(Iterable<ObjectStore.ListedVersion> listing, Predicate<String> unitKeys) {
        ReferenceInbox inbox = new ReferenceInbox();
        byKey(listing, ObjectStore.ListedVersion::key, unitKeys).forEach((key, newestFirst) -> {
            List<Version> held = new ArrayList<>();
            for (int i = newestFirst.size() - 1; i >= 0; i--) {
                held.add(new Version(key, newestFirst.get(i).versionId(), newestFirst.get(i).lastModified()));
            }
            inbox.key(key, held, !newestFirst.get(0).latest());
        });
        return inbox;
    }

    /** {@code versions} of the keys {@code unitKeys} accepts, grouped by key in the order met (each newest first). */
    private static <V> Map<String, List<V>> byKey(Iterable<V> versions, Function<V, String> key,
                                                  Predicate<String> unitKeys) {
        Map<String, List<V>> byKey = new LinkedHashMap<>();
        for (V v : versions) {
            if (unitKeys.test(key.apply(v))) {
                byKey.computeIfAbsent(key.apply(v), k -> new ArrayList<>()).add(v);
            }
        }
        return byKey;
    }

    /** Adds {@code key}'s versions (oldest first) and whether a delete marker is its latest. */
    public ReferenceInbox key(String key, List<Version> versionsOldestFirst, boolean latestIsDeleteMarker) {
        oldestFirst.put(key, List.copyOf(versionsOldestFirst));
        deleted.put(key, latestIsDeleteMarker);
        return this;
    }

    /** The current version of {@code key}, if it has one. */
    public Optional<Version> current(String key) {
        List<Version> versions = oldestFirst.get(key);
        if (versions == null || versions.isEmpty() || deleted.get(key)) {
            return Optional.empty();
        }
        return Optional.of(versions.get(versions.size() - 1));
    }

    /** The unit's newest input. */
    public Optional<Version> newest() {
        Version best = null;
        for (String key : oldestFirst.keySet()) {
            Version candidate = current(key).orElse(null);
            if (candidate != null && (best == null || keyNewer(key, best.key()))) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best);
    }

    /** True when the inbox holds this version. */
    public boolean holds(String key, String versionId) {
        return oldestFirst.getOrDefault(key, List.of()).stream().anyMatch(v -> v.versionId().equals(versionId));
    }

    /** True when {@code (keyA, versionA)} is strictly newer than {@code (keyB, versionB)}. */
    public boolean newer(String keyA, String versionA, String keyB, String versionB) {
        boolean heldA = holds(keyA, versionA);
        boolean heldB = holds(keyB, versionB);
        if (!heldA || !heldB) {
            return heldA && !heldB;
        }
        if (!keyA.equals(keyB)) {
            return keyNewer(keyA, keyB);
        }
        return indexOf(keyA, versionA) > indexOf(keyB, versionB);
    }

    /** Every held version, for reports. */
    public List<Version> all() {
        List<Version> all = new ArrayList<>();
        oldestFirst.values().forEach(all::addAll);
        return all;
    }

    private boolean keyNewer(String a, String b) {
        Instant ta = current(a).map(v -> v.lastModified().truncatedTo(ChronoUnit.SECONDS)).orElse(null);
        Instant tb = current(b).map(v -> v.lastModified().truncatedTo(ChronoUnit.SECONDS)).orElse(null);
        if (ta == null || tb == null) {
            return ta != null || (tb == null && a.compareTo(b) > 0);
        }
        return ta.isAfter(tb) || (ta.equals(tb) && a.compareTo(b) > 0);
    }

    private int indexOf(String key, String versionId) {
        List<Version> versions = oldestFirst.get(key);
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).versionId().equals(versionId)) {
                return i;
            }
        }
        return -1;
    }
}
