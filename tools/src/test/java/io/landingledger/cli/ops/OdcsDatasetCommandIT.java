package io.landingledger.cli.ops;

import io.landingledger.cli.odcs.OdcsYaml;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.localcloud.aws.EmbeddedAws;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing dataset add --odcs} and {@code show --odcs} against the embedded S3 (the {@code --endpoint} target):
 * the shipped ODCS example registers through the same registrar as a JSON contract and is printed back as it was
 * written; its next version is an update; a document that cannot be mapped is refused naming its path, and nothing is
 * written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OdcsDatasetCommandIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path EXAMPLE = ROOT.resolve("datasets/odcs/transactions.odcs.yaml");

    EmbeddedAws aws;
    S3Client s3;

    @BeforeAll
    void start() throws Exception {
        aws = EmbeddedAws.start();
        s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)))
                .build();
    }

    @AfterAll
    void stop() {
        s3.close();
        aws.close();
    }

    private String newLake() {
        String lake = "lake-" + UUID.randomUUID().toString().substring(0, 8);
        s3.createBucket(r -> r.bucket(lake));
        return lake;
    }

    private LandingRun landing(String lake, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", aws.s3Endpoint().toString(), "--lake-bucket", lake, "--region", "us-east-1"));
        return LandingRun.inProcess(all.toArray(String[]::new));
    }

    private List<String> contractKeys(String lake) {
        return s3.listObjectsV2(r -> r.bucket(lake).prefix("_contracts/")).contents().stream().map(S3Object::key)
                .filter(key -> key.endsWith(".json")).toList();
    }

    private static Map<String, Object> yaml(String text) {
        return OdcsYaml.plain(OdcsYaml.read("test", text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anOdcsDocumentRegisters_andShowsBackAsItWasWritten_andItsNextVersionIsAnUpdate(@TempDir Path dir)
            throws Exception {
        String lake = newLake();
        LandingRun add = landing(lake, "dataset", "add", "--odcs", EXAMPLE.toString(),
                "--reason", "INC-7 onboard from ODCS");
        assertEquals(0, add.exit(), add.stderr());
        assertTrue(add.stdout().startsWith("transactions: version 1 active (INC-7 onboard from ODCS)"), add.stdout());
        assertEquals(List.of("_contracts/transactions/v0000000001.json"), contractKeys(lake));

        LandingRun show = landing(lake, "dataset", "show", "transactions", "--odcs");
        assertEquals(0, show.exit(), show.stderr());
        String example = Files.readString(EXAMPLE);
        assertEquals(yaml(example), yaml(show.stdout()), show.stdout());
        Files.writeString(Path.of("target/odcs-show-transactions.yaml"), show.stdout());
        // the printed document reads back as a registration of the same contract (the round trip through the store)
        Path printed = dir.resolve("printed.odcs.yaml");
        Map<String, Object> next = yaml(show.stdout());
        next.put("version", "2.0.0");
        @SuppressWarnings("unchecked")
        Map<String, Object> object = ((List<Map<String, Object>>) next.get("schema")).get(0);
        object.put("quality", List.of(Map.of("metric", "rowCount", "mustBeBetween", List.of(3, 100000))));
        Files.writeString(printed, OdcsYaml.write(next));
        LandingRun update = landing(lake, "dataset", "update", "--odcs", printed.toString(),
                "--reason", "INC-8 at least 3 rows");
        assertEquals(0, update.exit(), update.stderr() + show.stdout());
        Map<String, Object> two = yaml(landing(lake, "dataset", "show", "transactions", "--odcs").stdout());
        assertEquals("2.0.0", two.get("version"));
        assertTrue(two.toString().contains("mustBeBetween=[3, 100000]"), two.toString());
        LandingRun first = landing(lake, "dataset", "show", "transactions", "--version", "1", "--odcs");
        assertEquals(show.stdout(), first.stdout(), "version 1 is exported as it was");
        LandingRun both = landing(lake, "dataset", "show", "transactions", "--odcs", "--json");
        assertEquals(2, both.exit(), "one output at a time");
    }

    @Test
    void aDocumentThatCannotBeMappedIsRefusedNamingItsPath_andNothingIsWritten(@TempDir Path dir) throws Exception {
        String lake = newLake();
        Path two = dir.resolve("two.odcs.yaml");
        Files.writeString(two, Files.readString(EXAMPLE)
                .replace("schema:\n", "schema:\n  - name: accounts\n    properties: []\n"));
        LandingRun run = landing(lake, "dataset", "add", "--odcs", two.toString(), "--reason", "INC-9");
        assertEquals(1, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("refused, nothing written: " + two + ": $.schema[1]: a second schema object"),
                run.stderr());
        Path invalid = dir.resolve("invalid.odcs.yaml");
        Files.writeString(invalid, Files.readString(EXAMPLE).replace("kind: DataContract", "kind: Contract"));
        LandingRun schema = landing(lake, "dataset", "add", "--odcs", invalid.toString(), "--reason", "INC-9");
        assertEquals(1, schema.exit(), schema.stderr());
        assertTrue(schema.stderr().contains(invalid + ": $.kind: not a valid ODCS v3.1.0 document"), schema.stderr());
        assertEquals(List.of(), contractKeys(lake));
    }
}
