package io.landingledger.core.sweep;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/** The sharded sweep's JSON files in the lake bucket: one GET or one PUT each. */
final class SweepFiles {
    private static final JSON PRETTY = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT);

    private final ObjectStore store;
    private final String lakeBucket;

    SweepFiles(ObjectStore store, String lakeBucket) {
        this.store = store;
        this.lakeBucket = lakeBucket;
    }

    Optional<Map<String, Object>> read(String key) {
        try (ObjectStore.OpenedObject opened = store.open(lakeBucket, key, null); InputStream body = opened.body()) {
            return Optional.of(JSON.std.mapFrom(body.readAllBytes()));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key, e);
        }
    }

    void write(String key, Map<String, Object> document, boolean pretty) {
        try {
            store.put(lakeBucket, key, (pretty ? PRETTY : JSON.std).asBytes(document), "application/json");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + key + " as JSON", e);
        }
    }

    Iterable<ObjectStore.ListedObject> list(String prefix) {
        return store.list(lakeBucket, prefix);
    }
}
