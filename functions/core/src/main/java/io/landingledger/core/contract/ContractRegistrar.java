package io.landingledger.core.contract;

import io.landingledger.core.table.TableSchemaEvolution;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Adds, changes and retires datasets in a {@link ContractStore}: what {@code landing dataset} runs. Every change is
 * checked before anything is written, and is then one conditional create of the dataset's next version, so a refused
 * change, or one that lost a race to another operator's, writes nothing.
 *
 * <p>Checks, in order: the contract loads ({@link ContractLoader}'s errors: source, JSON path, problem); the dataset is
 * in the state the operation needs (new or retired to add, active to update or retire); the contract's
 * {@code "version"} is the dataset's next version (so the number in the operator's file is the number every publish
 * under it records); and the change does not alter what the dataset's published units are ({@link #breakingChanges}),
 * unless the operator allows it; and that the dataset's table can follow the change
 * ({@link TableSchemaEvolution#refusals}), which no operator can allow.
 */
public final class ContractRegistrar {
    private final ContractStore store;
    private final Clock clock;

    public ContractRegistrar(ContractStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * What a change did.
     *
     * @param entry    the version now in force (written, or found already in force by {@link #register})
     * @param previous the version before it, if any
     * @param breaking the breaking changes the operator allowed (empty for a plain change)
     * @param written  false when {@link #register} found the contract already in force and wrote nothing
     */
    public record Registration(ContractEntry entry, Optional<ContractEntry> previous, List<String> breaking, boolean written) {
        public Registration {
            breaking = List.copyOf(breaking);
        }
    }

    /**
     * Registers a new dataset, or makes a retired one active again, as version 1 (or the one after its retirement).
     *
     * @throws InvalidContractException       the contract does not load, or its version is not the next one
     * @throws ContractRefusedException       the dataset is active (use update), or re-adding it changes what its
     *                                        published units are and {@code allowBreaking} is false
     * @throws ContractVersionExistsException another change took that version first
     */
    public Registration add(String source, byte[] contractJson, String reason, boolean allowBreaking) {
        requireReason(reason);
        DatasetContract contract = load(source, contractJson);
        Optional<ContractEntry> latest = store.latest(contract.dataset());
        if (latest.isPresent() && latest.get().state() == ContractState.ACTIVE) {
            throw new ContractRefusedException(contract.dataset() + " is registered already (version " + latest.get().version()
                    + ", active); change it with: landing dataset update FILE");
        }
        requireNextVersion(source, contract, latest);
        List<String> breaking = List.of();
        if (latest.isPresent()) {
            // re-adding a retired dataset: its published units were built under the contract before the retirement
            breaking = checkBreaking(lastActive(contract.dataset()), contract, allowBreaking);
        }
        return write(source, contract, contractJson, ContractState.ACTIVE, reason, latest, breaking);
    }

    /**
     * Changes an active dataset's contract: its next version.
     *
     * @throws InvalidContractException       the contract does not load, or its version is not the next one
     * @throws ContractRefusedException       the dataset is not registered or is retired, or the change alters what
     *                                        its published units are and {@code allowBreaking} is false
     * @throws ContractVersionExistsException another change took that version first
     */
    public Registration update(String source, byte[] contractJson, String reason, boolean allowBreaking) {
        requireReason(reason);
        DatasetContract contract = load(source, contractJson);
        ContractEntry latest = store.latest(contract.dataset()).orElseThrow(() -> new ContractRefusedException(
                contract.dataset() + " is not registered; add it with: landing dataset add FILE"));
        if (latest.state() == ContractState.RETIRED) {
            throw new ContractRefusedException(contract.dataset() + " is retired (version " + latest.version() + ", "
                    + latest.reason() + "); make it active again with: landing dataset add FILE");
        }
        requireNextVersion(source, contract, Optional.of(latest));
        DatasetContract current = latest.contract().orElseThrow();
        List<String> breaking = checkBreaking(Optional.of(current), contract, allowBreaking);
        return write(source, contract, contractJson, ContractState.ACTIVE, reason, Optional.of(latest), breaking);
    }

    /**
     * Retires an active dataset: its new files become unroutable ({@code RETIRED_DATASET}) and the sweep leaves it out;
     * its ledger, history and publishes stay.
     *
     * @throws ContractRefusedException       the dataset is not registered or is retired already
     * @throws ContractVersionExistsException another change took the next version first
     */
    public Registration retire(String dataset, String reason) {
        requireReason(reason);
        ContractEntry latest = store.latest(dataset).orElseThrow(() -> new ContractRefusedException(dataset + " is not registered"));
        if (latest.state() == ContractState.RETIRED) {
            throw new ContractRefusedException(dataset + " is retired already (version " + latest.version() + ", " + latest.at() + ")");
        }
        ContractEntry entry = new ContractEntry(dataset, latest.version() + 1, ContractState.RETIRED, latest.contractJson(),
                reason.strip(), clock.instant());
        store.create(entry);
        return new Registration(entry, Optional.of(latest), List.of(), true);
    }

    /**
     * Makes {@code contractJson} the contract in force for its dataset, doing nothing when it already is (same text):
     * the local run's start, which registers the shipped {@code datasets/*.json} through the same checks as an operator.
     * A dataset already at another version is updated only if the file names the next version.
     *
     * @return the registration; {@link Registration#written()} is false when nothing changed
     */
    public Registration register(String source, byte[] contractJson, String reason) {
        DatasetContract contract = load(source, contractJson);
        Optional<ContractEntry> latest = store.latest(contract.dataset());
        String text = new String(contractJson, StandardCharsets.UTF_8);
        if (latest.isPresent() && latest.get().state() == ContractState.ACTIVE && latest.get().contractJson().equals(text)) {
            return new Registration(latest.get(), Optional.empty(), List.of(), false);
        }
        return latest.isPresent() && latest.get().state() == ContractState.ACTIVE
                ? update(source, contractJson, reason, false)
                : add(source, contractJson, reason, false);
    }

    /**
     * The changes from {@code from} to {@code to} that make the dataset's published units disagree with its contract,
     * one sentence each: the file format, the key, the unit pattern, cadence or first unit, a listed unit dropped, a
     * field dropped or given another type. A reader's table follows the contract, so these change what the units
     * already published mean; new optional fields, looser or tighter limits, enums, prohibited names and the reject
     * cap only change what future files may hold.
     */
    public static List<String> breakingChanges(DatasetContract from, DatasetContract to) {
        List<String> changes = new ArrayList<>();
        if (from.format() != to.format()) {
            changes.add("format " + wire(from.format()) + " -> " + wire(to.format()) + ": published units were parsed as " + wire(from.format()));
        }
        if (!from.key().equals(to.key())) {
            changes.add("key " + from.key() + " -> " + to.key() + ": published units were deduplicated by " + from.key());
        }
        if (!from.unit().pattern().pattern().equals(to.unit().pattern().pattern())) {
            changes.add("unit.pattern " + from.unit().pattern().pattern() + " -> " + to.unit().pattern().pattern()
                    + ": inbox files of published units may route to other units or nowhere");
        }
        if (from.unit().cadence() != to.unit().cadence()) {
            changes.add("unit.cadence " + wire(from.unit().cadence()) + " -> " + wire(to.unit().cadence()) + ": published unit names follow the old cadence");
        } else if (!Objects.equals(from.unit().first(), to.unit().first())) {
            changes.add("unit.first " + from.unit().first() + " -> " + to.unit().first() + ": the expected units (and the readers' partitions) move");
        }
        Set<String> dropped = new TreeSet<>(from.unit().units());
        dropped.removeAll(to.unit().units());
        if (!dropped.isEmpty()) {
            changes.add("unit.units drops " + String.join(", ", dropped) + ": those units stop being expected and readable by partition");
        }
        Map<String, FieldSpec> after = new HashMap<>();
        to.fields().forEach(field -> after.put(field.name(), field));
        for (FieldSpec field : from.fields()) {
            FieldSpec next = after.get(field.name());
            if (next == null) {
                changes.add("field " + field.name() + " dropped: published units hold it");
            } else if (next.type() != field.type()) {
                changes.add("field " + field.name() + " " + field.type().wireName() + " -> " + next.type().wireName()
                        + ": published units hold " + field.type().wireName() + " values");
            }
        }
        return changes;
    }

    private List<String> checkBreaking(Optional<DatasetContract> from, DatasetContract to, boolean allowBreaking) {
        if (from.isEmpty()) {
            return List.of();
        }
        List<String> table = TableSchemaEvolution.refusals(from.get(), to);
        if (!table.isEmpty()) {
            // not the operator's to allow: the table keeps its columns and rows, and could not follow
            throw new ContractRefusedException("version " + to.version() + " of " + to.dataset()
                    + " changes columns its Iceberg table cannot follow (" + table.size() + " change"
                    + (table.size() == 1 ? "" : "s") + "); nothing was written. Register it as a new dataset"
                    + " (docs/contracts.md, Changing a contract)", table);
        }
        List<String> breaking = breakingChanges(from.get(), to);
        if (!breaking.isEmpty() && !allowBreaking) {
            throw new ContractRefusedException("version " + to.version() + " of " + to.dataset()
                    + " changes what its published units are (" + breaking.size() + " change" + (breaking.size() == 1 ? "" : "s")
                    + "); nothing was written. Register it as a new dataset, or pass --allow-breaking and repair the"
                    + " published units with --force (docs/contracts.md, Changing a contract)", breaking);
        }
        return breaking;
    }

    private Optional<DatasetContract> lastActive(String dataset) {
        List<ContractEntry> history = store.history(dataset);
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).state() == ContractState.ACTIVE) {
                return history.get(i).contract();
            }
        }
        return Optional.empty();
    }

    private Registration write(String source, DatasetContract contract, byte[] contractJson, ContractState state, String reason,
                               Optional<ContractEntry> latest, List<String> breaking) {
        ContractEntry entry = new ContractEntry(contract.dataset(), contract.version(), state, new String(contractJson, StandardCharsets.UTF_8),
                reason.strip(), clock.instant());
        store.create(entry);
        return new Registration(entry, latest, breaking, true);
    }

    private static void requireNextVersion(String source, DatasetContract contract, Optional<ContractEntry> latest) {
        int next = latest.map(entry -> entry.version() + 1).orElse(1);
        if (contract.version() != next) {
            throw new InvalidContractException(source, "$.version", contract.version() + " is not the next version of "
                    + contract.dataset() + latest.map(entry -> ", which is at version " + entry.version() + " (" + entry.state().wireName()
                    + " since " + entry.at() + ")").orElse(", which is not registered yet") + ": set \"version\": " + next);
        }
    }

    private static DatasetContract load(String source, byte[] contractJson) {
        return ContractLoader.load(source, new ByteArrayInputStream(contractJson));
    }

    private static void requireReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new ContractRefusedException("a reason is required (it is recorded with the version)");
        }
    }

    private static String wire(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT);
    }
}
