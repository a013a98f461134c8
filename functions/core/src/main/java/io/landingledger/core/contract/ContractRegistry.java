package io.landingledger.core.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The dataset contracts a function knows, by dataset name. Deployed and in the local run they come from the {@link
 * ContractStore} through a {@link ContractCache} ({@link #fromStore}): registered at run time, no deploy. A fixed set
 * ({@link #ContractRegistry(Map)}, {@link #fromDirectory}, {@link #fromClasspath}) serves tests and {@code landing
 * validate --contract NAME}, which reads the examples shipped under {@code datasets/}.
 */
public final class ContractRegistry {
    /** Where the shipped example contracts live on the classpath and in the repository. */
    public static final String RESOURCE_DIRECTORY = "datasets";

    /** A fixed set, or null when the store is the source. */
    private final Map<String, DatasetContract> contracts;
    private final ContractCache cache;

    public ContractRegistry(Map<String, DatasetContract> contracts) {
        this.contracts = Collections.unmodifiableMap(new TreeMap<>(contracts));
        this.cache = null;
    }

    private ContractRegistry(ContractCache cache) {
        this.contracts = null;
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    /** The contracts registered in a store, read through {@code cache} (its TTL bounds how stale a lookup can be). */
    public static ContractRegistry fromStore(ContractCache cache) {
        return new ContractRegistry(cache);
    }

    /** Loads every {@code *.json} in a directory (e.g. the repository's {@code datasets/}). */
    public static ContractRegistry fromDirectory(Path directory) {
        return new ContractRegistry(ContractLoader.loadDirectory(directory));
    }

    /**
     * Loads the contracts bundled next to {@code anchor}'s classes: a {@code datasets/} directory (classes on disk,
     * as in Lambda's /var/task and in tests) or {@code datasets/*.json} entries of the jar.
     */
    public static ContractRegistry fromClasspath(Class<?> anchor) {
        try {
            Path location = codeLocation(anchor);
            if (Files.isDirectory(location)) {
                Path directory = location.resolve(RESOURCE_DIRECTORY);
                if (!Files.isDirectory(directory)) {
                    throw new IllegalStateException("no " + RESOURCE_DIRECTORY + "/ directory beside the classes in " + location
                            + "; the build copies the repository's datasets/ there");
                }
                return fromDirectory(directory);
            }
            Map<String, DatasetContract> contracts = new TreeMap<>();
            try (JarFile jar = new JarFile(location.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (name.startsWith(RESOURCE_DIRECTORY + "/") && name.endsWith(".json") && name.indexOf('/', RESOURCE_DIRECTORY.length() + 1) < 0) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            DatasetContract contract = ContractLoader.load(name, in);
                            contracts.put(contract.dataset(), contract);
                        }
                    }
                }
            }
            return new ContractRegistry(contracts);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled contracts", e);
        }
    }

    /**
     * The one contract bundled next to {@code anchor}'s classes for {@code dataset}, as {@link #fromClasspath} would
     * find it: looked up by its file name first, so a command that names its dataset does not read the names of every
     * entry of its jar (46,000 in the CLI's, about 0.04 s of a command's start). When that file is missing or names
     * another dataset, the whole registry answers, so both ways agree on every name.
     */
    public static Optional<DatasetContract> bundled(Class<?> anchor, String dataset) {
        if (dataset.matches("[A-Za-z0-9_.-]+") && !dataset.startsWith(".")) {
            Optional<DatasetContract> byName = byFileName(anchor, dataset);
            if (byName.isPresent()) {
                return byName;
            }
        }
        return fromClasspath(anchor).get(dataset);
    }

    /**
     * The bytes of every example contract shipped beside {@code anchor}'s classes ({@code datasets/*.json} in a
     * directory or the jar), by source name, in name order: what the local run registers in the store at its start.
     */
    public static Map<String, byte[]> bundledFiles(Class<?> anchor) {
        Map<String, byte[]> files = new TreeMap<>();
        Path location = codeLocation(anchor);
        try {
            if (Files.isDirectory(location)) {
                try (var listing = Files.newDirectoryStream(location.resolve(RESOURCE_DIRECTORY), "*.json")) {
                    for (Path file : listing) {
                        files.put(RESOURCE_DIRECTORY + "/" + file.getFileName(), Files.readAllBytes(file));
                    }
                }
                return files;
            }
            try (JarFile jar = new JarFile(location.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (name.startsWith(RESOURCE_DIRECTORY + "/") && name.endsWith(".json") && name.indexOf('/', RESOURCE_DIRECTORY.length() + 1) < 0) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            files.put(name, in.readAllBytes());
                        }
                    }
                }
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled contracts", e);
        }
    }

    private static Optional<DatasetContract> byFileName(Class<?> anchor, String dataset) {
        String name = RESOURCE_DIRECTORY + "/" + dataset + ".json";
        Path location = codeLocation(anchor);
        if (Files.isDirectory(location)) {
            Path file = location.resolve(name);
            try {
                return Files.isRegularFile(file) ? Optional.of(ContractLoader.load(file)) : Optional.empty();
            } catch (InvalidContractException e) {
                return Optional.empty(); // e.g. its dataset is another name: the registry decides
            }
        }
        try (JarFile jar = new JarFile(location.toFile())) {
            JarEntry entry = jar.getJarEntry(name);
            if (entry == null) {
                return Optional.empty();
            }
            try (InputStream in = jar.getInputStream(entry)) {
                return Optional.of(ContractLoader.load(name, in)).filter(contract -> contract.dataset().equals(dataset));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled contract " + name, e);
        }
    }

    private static Path codeLocation(Class<?> anchor) {
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (source == null) {
            throw new IllegalStateException("cannot locate the code of " + anchor.getName() + " to find its bundled contracts");
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot read the code location of " + anchor.getName(), e);
        }
    }

    /** The dataset's contract in force; empty when it is unknown or retired. */
    public Optional<DatasetContract> get(String dataset) {
        return lookup(dataset) instanceof ContractLookup.Active active ? Optional.of(active.contract()) : Optional.empty();
    }

    /** What the name stands for: an active contract, a retired dataset (with its retirement) or nothing. */
    public ContractLookup lookup(String dataset) {
        if (cache != null) {
            return cache.lookup(dataset);
        }
        DatasetContract contract = contracts.get(dataset);
        return contract == null ? new ContractLookup.Unknown() : new ContractLookup.Active(contract);
    }

    /**
     * Every active contract, by name. From a store this lists it and reads every dataset's newest version (through the
     * cache): call it for "every dataset", never per file.
     */
    public Map<String, DatasetContract> all() {
        return cache != null ? Collections.unmodifiableMap(cache.active()) : contracts;
    }

    /**
     * The name of every registered dataset, active or retired, in name order, without reading a contract: from a store
     * one listing (a page per 1,000 datasets). For a caller that splits "every dataset" into shards, each of which then
     * asks {@link #lookup} for its own (a retired one answers {@link ContractLookup.Retired}).
     */
    public java.util.List<String> names() {
        return cache != null ? cache.names() : java.util.List.copyOf(contracts.keySet());
    }

    /** True when the contracts come from a store (run-time registration), false for a fixed set. */
    public boolean isStoreBacked() {
        return cache != null;
    }
}
