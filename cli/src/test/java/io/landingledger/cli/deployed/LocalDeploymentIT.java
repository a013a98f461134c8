package io.landingledger.cli.deployed;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalDeploymentIT {
    static LocalDeployment stack;

    @BeforeAll
    static void deploy() throws Exception {
        Path repository = Path.of("").toAbsolutePath().getParent();
        Path work = Files.createTempDirectory("local-deploy");
        stack = LocalDeployment.start(LocalDeployment.Options.of(repository, work));
        System.out.println("[local-deploy] started in " + stack.startupTime().toMillis() + " ms");
        stack.summary().forEach(line -> System.out.println("[local-deploy] " + line));
    }

    @AfterAll
    static void close() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void deploysEveryResourceOfTheTemplate() {
        assertTrue(stack.resources().size() > 50, "resources " + stack.resources().size());
        assertEquals("landing-local-inbox-123456789012-us-east-1", stack.physicalId("InboxBucket"));
    }
}
