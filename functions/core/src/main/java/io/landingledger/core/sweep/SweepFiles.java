package io.landingledger.core.sweep;


import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The sharded sweep's JSON files in the lake bucket: one GET or one PUT each, records through JsonCodec. */
final class SweepFiles {
    private final ObjectStore store;
    private final String lakeBucket;

    SweepFiles(ObjectStore store, String lakeBucket) {
        this.store = store;
        this.lakeBucket = lakeBucket;
    }

    /** The document at {@code key} as {@code type} (JsonCodec), or empty when there is none. */
    <T> Optional<T> read(String key, Class<T> type) {
        try (ObjectStore.OpenedObject opened = store.open(lakeBucket, key, null); InputStream body = opened.body()) {
            return Optional.ofNullable(JsonCodec.read(body, type));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(key + " is not a " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /** {@code document} (a record or a map) as JSON at {@code key}. */
    void write(String key, Object document, boolean pretty) {
        store.put(lakeBucket, key, pretty ? JsonCodec.writePretty(document) : JsonCodec.write(document), "application/json");
    }

    Iterable<ObjectStore.ListedObject> list(String prefix) {
        return store.list(lakeBucket, prefix);
    }
}
