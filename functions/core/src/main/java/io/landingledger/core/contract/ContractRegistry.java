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
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** The dataset contracts a function knows, by dataset name. Contracts are bundled with the code under {@code datasets/}. */
public final class ContractRegistry {
    /** Where contracts live on the classpath and in the repository. */
    public static final String RESOURCE_DIRECTORY = "datasets";

    private final Map<String, DatasetContract> contracts;

    public ContractRegistry(Map<String, DatasetContract> contracts) {
        this.contracts = Collections.unmodifiableMap(new TreeMap<>(contracts));
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

    public Optional<DatasetContract> get(String dataset) {
        return Optional.ofNullable(contracts.get(dataset));
    }

    public Map<String, DatasetContract> all() {
        return contracts;
    }
}
