package io.landingledger.core.ingest;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;

import io.landingledger.core.store.ObjectStore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Routes an inbox key to its dataset (the first key segment) and unit (the contract's pattern on the rest).
 * Keys that route nowhere are reported, never retried and never published.
 */
public final class UnitRouter {
    private final ContractRegistry contracts;

    public UnitRouter(ContractRegistry contracts) {
        this.contracts = contracts;
    }

    /** Where a key goes: a dataset and unit, or the reason it goes nowhere. */
    public sealed interface Route permits Routed, Unroutable {
    }

    public record Routed(DatasetContract contract, String unit) implements Route {
    }

    /** @param reason FOLDER_MARKER, NO_DATASET_PREFIX, UNKNOWN_DATASET or PATTERN_MISMATCH */
    public record Unroutable(String reason, String detail) implements Route {
    }

    /**
     * The newest input of each unit of {@code dataset} ({@link UnitInputs}' rule), from a version listing of its inbox
     * prefix: what the sweep classifies and a repair of the latest input reads. A listed version whose key routes
     * nowhere is handed to {@code unroutable} with the reason.
     */
    public Map<String, ObjectStore.ListedVersion> newestInputs(Iterable<ObjectStore.ListedVersion> listing, String dataset,
                                                               BiConsumer<ObjectStore.ListedVersion, Unroutable> unroutable) {
        Map<String, List<ObjectStore.ListedVersion>> byUnit = new HashMap<>();
        for (ObjectStore.ListedVersion version : listing) {
            Route route = route(version.key());
            if (route instanceof Routed routed && routed.contract().dataset().equals(dataset)) {
                byUnit.computeIfAbsent(routed.unit(), u -> new ArrayList<>()).add(version);
            } else if (route instanceof Unroutable reason) {
                unroutable.accept(version, reason);
            }
        }
        Map<String, ObjectStore.ListedVersion> newest = new HashMap<>();
        byUnit.forEach((unit, versions) -> UnitInputs.of(versions, key -> true).newest().ifPresent(v -> newest.put(unit, v)));
        return newest;
    }

    /** Routes a key that is already URL-decoded. */
    public Route route(String key) {
        if (key.isEmpty() || key.endsWith("/")) {
            return new Unroutable("FOLDER_MARKER", "the key ends with / (a folder marker, not a file)");
        }
        int slash = key.indexOf('/');
        if (slash <= 0) {
            return new Unroutable("NO_DATASET_PREFIX", "the key is not under a dataset prefix (<dataset>/<file>)");
        }
        String dataset = key.substring(0, slash);
        Optional<DatasetContract> contract = contracts.get(dataset);
        if (contract.isEmpty()) {
            return new Unroutable("UNKNOWN_DATASET", "no contract for the prefix " + dataset + "/ (known: " + String.join(", ", contracts.all().keySet()) + ")");
        }
        String fileName = key.substring(slash + 1);
        Optional<String> unit = contract.get().unit().unitOf(fileName);
        if (unit.isEmpty()) {
            return new Unroutable("PATTERN_MISMATCH", "the file name does not match " + dataset + "'s unit pattern "
                    + contract.get().unit().pattern().pattern());
        }
        return new Routed(contract.get(), unit.get());
    }
}
