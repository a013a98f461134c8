package io.landingledger.lambda;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A contract looked up by its dataset's name is the one the handlers load with all the others. */
class BundledContractsTest {

    @Test
    void eachBundledContract_byName_isTheOneTheRegistryLoads() {
        Map<String, DatasetContract> all = ContractRegistry.fromClasspath(DependencyFactory.class).all();
        assertFalse(all.isEmpty());
        for (Map.Entry<String, DatasetContract> contract : all.entrySet()) {
            // by text: a unit pattern is a java.util.regex.Pattern, which has no equals
            assertEquals(Optional.of(contract.getValue().toString()),
                    ContractRegistry.bundled(DependencyFactory.class, contract.getKey()).map(DatasetContract::toString));
        }
    }

    @Test
    void aNameNoContractHas_orThatIsAPath_findsNothing() {
        for (String name : new String[] {"no_such_dataset", "../datasets/progress_events", "progress_events.json/", ".hidden", ""}) {
            assertEquals(Optional.empty(), ContractRegistry.bundled(DependencyFactory.class, name), name);
        }
    }

    /** Loaded from a test jar of its own: the anchor whose code source is that jar. */
    public static final class Anchor {
    }

    @Test
    void inAJar_byName_andAFileNamedForAnotherDataset_likeTheRegistry(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("contracts.jar");
        String anchor = Anchor.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             InputStream anchorBytes = Anchor.class.getClassLoader().getResourceAsStream(anchor);
             InputStream progress = DependencyFactory.class.getClassLoader().getResourceAsStream("datasets/progress_events.json");
             InputStream transactions = DependencyFactory.class.getClassLoader().getResourceAsStream("datasets/transactions.json")) {
            out.putNextEntry(new JarEntry(anchor));
            anchorBytes.transferTo(out);
            out.putNextEntry(new JarEntry("datasets/progress_events.json"));
            progress.transferTo(out);
            // a file named for another dataset: the registry keys it by the dataset it names
            out.putNextEntry(new JarEntry("datasets/renamed.json"));
            transactions.transferTo(out);
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> inJar = loader.loadClass(Anchor.class.getName());
            assertEquals(jar.toUri(), inJar.getProtectionDomain().getCodeSource().getLocation().toURI());
            Map<String, DatasetContract> registry = ContractRegistry.fromClasspath(inJar).all();
            assertEquals(java.util.Set.of("progress_events", "transactions"), registry.keySet());
            for (String name : new String[] {"progress_events", "transactions", "renamed", "no_such_dataset"}) {
                assertEquals(Optional.ofNullable(registry.get(name)).map(DatasetContract::toString),
                        ContractRegistry.bundled(inJar, name).map(DatasetContract::toString), name);
            }
        }
    }
}
