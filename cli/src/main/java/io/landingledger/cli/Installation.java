package io.landingledger.cli;

import java.net.URISyntaxException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * Where this copy of {@code landing} is installed: found from the location of its own code (cli/target/landing.jar
 * or cli/target/classes in the checkout), never from the working directory, so the command behaves the same from
 * any folder.
 */
public final class Installation {
    private Installation() {
    }

    /**
     * {@code relative} (e.g. {@code examples/inbox}) in the nearest folder above this code's location that holds
     * it, or empty when the installation has none (a jar copied elsewhere).
     */
    public static Optional<Path> find(Path relative) {
        CodeSource source = Installation.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return Optional.empty();
        }
        try {
            for (Path dir = Path.of(source.getLocation().toURI()).toAbsolutePath(); dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(relative);
                if (Files.exists(candidate)) {
                    return Optional.of(candidate);
                }
            }
        } catch (URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
