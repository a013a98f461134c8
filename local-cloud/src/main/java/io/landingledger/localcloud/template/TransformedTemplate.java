package io.landingledger.localcloud.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The template as CloudFormation receives it: {@code infra/template.yaml} transformed by {@code scripts/sam-transform.py}
 * (samtranslator, offline, as {@code sam deploy} transforms it; CI lints the same output). The transform takes a few
 * seconds, so its output is kept beside the build, named by the SHA-256 of the template and the script: a changed
 * template is transformed again, an unchanged one is read back. The deployer and every test that reads the template
 * read it through here, so they all read what CloudFormation would be given.
 */
public final class TransformedTemplate {
    private TransformedTemplate() {
    }

    /** The repository's own infra/template.yaml, transformed. */
    public static Template load(Path repository, Path cacheDirectory) throws IOException {
        return load(repository, repository.resolve("infra/template.yaml"), cacheDirectory);
    }

    /** The transformed template of {@code template}, with {@code repository} holding scripts/sam-transform.py. */
    public static Template load(Path repository, Path template, Path cacheDirectory) throws IOException {
        Path script = repository.resolve("scripts/sam-transform.py");
        if (!Files.isRegularFile(script)) {
            throw new TemplateException("scripts/sam-transform.py is not in " + repository);
        }
        if (!Files.isRegularFile(template)) {
            throw new TemplateException("no template at " + template);
        }
        String key = sha256(Files.readAllBytes(template), Files.readAllBytes(script));
        Path cached = cacheDirectory.resolve("template-" + key + ".json");
        if (!Files.isRegularFile(cached)) {
            Files.createDirectories(cacheDirectory);
            Path out = Files.createTempFile(cacheDirectory, "transform-", ".json");
            try {
                Process process = new ProcessBuilder(python(), script.toString(), template.toString(), out.toString())
                        .redirectErrorStream(true).start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int status = waitFor(process);
                if (status != 0) {
                    throw new TemplateException("scripts/sam-transform.py refused " + template + " (it needs " + python()
                            + " with cfn-lint and its SAM translator, as .ci/run does):\n" + output.strip());
                }
                Files.move(out, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(out);
            }
        }
        return Template.read(cached);
    }

    /** The Python ./landing and ./verify chose (LANDING_PYTHON, scripts/python-env.sh), else python3. */
    private static String python() {
        String python = System.getenv("LANDING_PYTHON");
        return python == null || python.isBlank() ? "python3" : python;
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TemplateException("interrupted while transforming the template");
        }
    }

    private static String sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(part);
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
