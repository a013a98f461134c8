package io.landingledger.core.testing;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractEntryJson;
import io.landingledger.core.contract.ContractSeal;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractVersionExistsException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The contract store in memory, as {@code S3ContractStore} keeps it: each version is written once (a second create of
 * a version loses, carrying the winner) and stored as the bytes {@link ContractEntryJson} writes, with its
 * registration record ({@link ContractSeal}) apart, so every read goes through the same codec and the same check as
 * S3's. {@link #reads()} counts the reads a cache makes.
 */
public final class InMemoryContractStore implements ContractStore {
    private final Map<String, TreeMap<Integer, byte[]>> datasets = new TreeMap<>();
    private final Map<String, byte[]> seals = new TreeMap<>();
    private int reads;

    @Override
    public synchronized Optional<ContractEntry> latest(String dataset) {
        reads++;
        TreeMap<Integer, byte[]> versions = datasets.get(dataset);
        return versions == null ? Optional.empty() : Optional.of(decode(dataset, versions.lastKey(), versions.lastEntry().getValue()));
    }

    @Override
    public synchronized Optional<ContractEntry> version(String dataset, int version) {
        reads++;
        TreeMap<Integer, byte[]> versions = datasets.get(dataset);
        byte[] body = versions == null ? null : versions.get(version);
        return body == null ? Optional.empty() : Optional.of(decode(dataset, version, body));
    }

    @Override
    public synchronized List<ContractEntry> history(String dataset) {
        reads++;
        List<ContractEntry> history = new ArrayList<>();
        datasets.getOrDefault(dataset, new TreeMap<>()).forEach((version, body) -> history.add(decode(dataset, version, body)));
        return history;
    }

    @Override
    public synchronized List<String> datasets() {
        reads++;
        return List.copyOf(datasets.keySet());
    }

    @Override
    public synchronized void create(ContractEntry entry) {
        TreeMap<Integer, byte[]> versions = datasets.computeIfAbsent(entry.dataset(), d -> new TreeMap<>());
        byte[] existing = versions.get(entry.version());
        if (existing != null) {
            throw new ContractVersionExistsException(entry.dataset(), entry.version(), decode(entry.dataset(), entry.version(), existing));
        }
        writeSealed(entry.dataset(), entry.version(), ContractEntryJson.write(entry));
    }

    @Override
    public synchronized SealOutcome seal(String dataset, int version, String sha256) {
        byte[] body = datasets.getOrDefault(dataset, new TreeMap<>()).get(version);
        if (body == null) {
            return SealOutcome.NO_SUCH_VERSION;
        }
        if (seals.containsKey(dataset + "/" + version)) {
            return SealOutcome.ALREADY_SEALED;
        }
        if (!ContractSeal.matches(body, sha256)) {
            return SealOutcome.CONTENT_DIFFERS;
        }
        seals.put(dataset + "/" + version, ContractSeal.bytes(ContractSeal.of(body)));
        return SealOutcome.SEALED;
    }

    /** Rewrites a stored version's bytes and not its registration record: a write around the bucket's policy. */
    public synchronized void overwrite(String dataset, int version, byte[] body) {
        datasets.computeIfAbsent(dataset, d -> new TreeMap<>()).put(version, body);
    }

    /** Stores {@code body} as a version with a matching record: an object made by hand that was never an entry. */
    public synchronized void writeSealed(String dataset, int version, byte[] body) {
        overwrite(dataset, version, body);
        seals.put(dataset + "/" + version, ContractSeal.bytes(ContractSeal.of(body)));
    }

    public synchronized int reads() {
        return reads;
    }

    private ContractEntry decode(String dataset, int version, byte[] body) {
        return ContractSeal.open(dataset, version, "memory:_contracts/" + dataset + "/v" + version + ".json", body,
                Optional.ofNullable(seals.get(dataset + "/" + version)));
    }
}
