package io.landingledger.core.ingest;

import io.landingledger.core.contract.ContractLookup;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;

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

    /**
     * @param reason FOLDER_MARKER, NO_DATASET_PREFIX, UNKNOWN_DATASET, RETIRED_DATASET, PATTERN_MISMATCH or
     *               UNIT_INVALID (the pattern matched but the cadence cannot name the unit: an impossible date or hour)
     */
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
        ContractLookup lookup = contracts.lookup(dataset);
        if (lookup instanceof ContractLookup.Retired retired) {
            return new Unroutable("RETIRED_DATASET", retired.detail());
        }
        if (!(lookup instanceof ContractLookup.Active active)) {
            // the registered names are not listed: from the store that would be a listing per file, and thousands of names
            return new Unroutable("UNKNOWN_DATASET", "no contract is registered for the prefix " + dataset
                    + "/ (landing dataset list; register one with landing dataset add)");
        }
        DatasetContract contract = active.contract();
        String fileName = key.substring(slash + 1);
        Optional<String> unit = contract.unit().unitOf(fileName);
        if (unit.isEmpty()) {
            return new Unroutable("PATTERN_MISMATCH", "the file name does not match " + dataset + "'s unit pattern "
                    + contract.unit().pattern().pattern() + " (contract version " + contract.version() + ")");
        }
        UnitCalendar calendar = new UnitCalendar(contract.unit());
        if (!calendar.canName(unit.get())) {
            // never a unit: publishing it would put a name in the ledger that no sweep, status or repair range holds
            return new Unroutable("UNIT_INVALID", "the file name " + fileName + " matches " + dataset + "'s unit pattern but "
                    + calendar.whyNot(unit.get()) + " (contract version " + contract.version() + "); rename the file");
        }
        return new Routed(contract, unit.get());
    }
}
