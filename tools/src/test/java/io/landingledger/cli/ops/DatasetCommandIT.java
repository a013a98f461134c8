package io.landingledger.cli.ops;

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
 * {@code landing dataset} against the embedded S3 (the {@code --endpoint} target): a bad contract refused with the
 * loader's error and nothing written, add, list, show, update (the next version only; a breaking change only with
 * --allow-breaking), retire, and their exit codes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatasetCommandIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    EmbeddedAws aws;
    S3Client s3;

    @BeforeAll
    void start() throws Exception {
        aws = EmbeddedAws.start();
        s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)))
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
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", aws.s3Endpoint().toString(), "--lake-bucket", lake, "--region", "us-east-1"));
        return LandingRun.inProcess(all.toArray(String[]::new));
    }

    /** The versions' keys (each has its registration record beside it, {@code .sha256}). */
    private List<String> contractKeys(String lake) {
        return s3.listObjectsV2(r -> r.bucket(lake).prefix("_contracts/")).contents().stream().map(S3Object::key)
                .filter(key -> key.endsWith(".json")).toList();
    }

    private static Path transactions(Path dir, int version, String from, String to) throws Exception {
        String text = Files.readString(ROOT.resolve("datasets/transactions.json")).replace("\"version\": 1", "\"version\": " + version);
        Path file = dir.resolve("transactions-v" + version + "-" + UUID.randomUUID() + ".json");
        Files.writeString(file, text.replace(from, to));
        return file;
    }

    @Test
    void aBadContractIsRefusedWithTheLoadersErrorAndNothingIsWritten(@TempDir Path dir) throws Exception {
        String lake = newLake();
        Path bad = transactions(dir, 1, "\"type\": \"number\"", "\"type\": \"money\"");
        LandingRun run = landing(lake, "dataset", "add", bad.toString(), "--reason", "INC-1 onboard");
        assertEquals(1, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("refused, nothing written: " + bad + ": $.fields.amount.type: unknown type \"money\""), run.stderr());
        assertEquals(List.of(), contractKeys(lake));
        assertEquals(2, landing(lake, "dataset", "add", dir.resolve("missing.json").toString(), "--reason", "x").exit());
        assertEquals(2, landing(lake, "dataset", "add", bad.toString()).exit(), "--reason is required");
    }

    /** Issue 30, finding 3: a version rewritten around the lake's policy is shown as refused, with its code. */
    @Test
    void finding3_showListsAVersionRewrittenAfterItsRegistration_withItsCode_andNotItsContent() throws Exception {
        String lake = newLake();
        Path contract = ROOT.resolve("datasets/transactions.json");
        assertEquals(0, landing(lake, "dataset", "add", contract.toString(), "--reason", "INC-1 onboard").exit());
        String key = "_contracts/transactions/v0000000001.json";
        String rewritten = s3.getObjectAsBytes(r -> r.bucket(lake).key(key)).asUtf8String()
                .replace("INC-1 onboard", "INC-1 onboard, PLANTED-REWRITE");
        s3.putObject(r -> r.bucket(lake).key(key), software.amazon.awssdk.core.sync.RequestBody.fromString(rewritten));
        LandingRun show = landing(lake, "dataset", "show", "transactions");
        assertEquals(1, show.exit(), show.stdout() + show.stderr());
        assertTrue(show.stderr().contains("landing dataset show: CONTRACT_TAMPERED: transactions v1 in the contract store does not"
                + " match the SHA-256 recorded when it was registered"), show.stderr());
        assertTrue(show.stdout().contains("transactions version 1: CONTRACT_TAMPERED") && show.stdout().contains("  v1  CONTRACT_TAMPERED"),
                show.stdout());
        assertTrue(!(show.stdout() + show.stderr()).contains("PLANTED-REWRITE") && !show.stdout().contains("\"fields\""),
                "neither the rewritten content nor the contract is shown: " + show.stdout());
        Map<String, Object> json = landing(lake, "dataset", "show", "transactions", "--json").json();
        assertEquals("CONTRACT_TAMPERED", json.get("code"));
        assertEquals("refused", json.get("state"));
    }

    /** A stack whose versions were registered before versions had records: each is sealed by the operator who checked it. */
    @Test
    void anUnsealedVersion_isSealedByTheHashOfTheContentTheOperatorChecked_andNeverByAnother() throws Exception {
        String lake = newLake();
        assertEquals(0, landing(lake, "dataset", "add", ROOT.resolve("datasets/transactions.json").toString(), "--reason", "INC-1 onboard").exit());
        s3.deleteObject(r -> r.bucket(lake).key("_contracts/transactions/v0000000001.sha256")); // as an older release left it
        LandingRun unsealed = landing(lake, "dataset", "show", "transactions");
        assertEquals(1, unsealed.exit());
        assertTrue(unsealed.stdout().contains("  v1  CONTRACT_UNSEALED"), unsealed.stdout());

        byte[] checked = s3.getObjectAsBytes(r -> r.bucket(lake).key("_contracts/transactions/v0000000001.json")).asByteArray();
        String sha256 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(checked));
        LandingRun notHex = landing(lake, "dataset", "seal", "transactions", "--version", "1", "--sha256", "abc");
        assertEquals(2, notHex.exit(), notHex.stderr());
        LandingRun other = landing(lake, "dataset", "seal", "transactions", "--version", "1", "--sha256", "0".repeat(64));
        assertEquals(1, other.exit());
        assertTrue(other.stderr().contains("refused, nothing written: transactions version 1 is not the content you checked"), other.stderr());
        assertEquals(1, landing(lake, "dataset", "seal", "transactions", "--version", "2", "--sha256", sha256).exit(), "no version 2");

        LandingRun sealed = landing(lake, "dataset", "seal", "transactions", "--version", "1", "--sha256", sha256);
        assertEquals(0, sealed.exit(), sealed.stderr());
        assertTrue(sealed.stdout().startsWith("transactions version 1: sealed"), sealed.stdout());
        assertEquals(0, landing(lake, "dataset", "show", "transactions").exit(), "the version reads again");
        LandingRun again = landing(lake, "dataset", "seal", "transactions", "--version", "1", "--sha256", sha256);
        assertEquals(1, again.exit());
        assertTrue(again.stderr().contains("has a registration record already"), again.stderr());
    }

    @Test
    void addListShowUpdateRetire(@TempDir Path dir) throws Exception {
        String lake = newLake();
        LandingRun added = landing(lake, "dataset", "add", ROOT.resolve("datasets/transactions.json").toString(), "--reason", "INC-1 onboard");
        assertEquals(0, added.exit(), added.stderr());
        assertTrue(added.stdout().startsWith("transactions: version 1 active (INC-1 onboard)."), added.stdout());
        assertEquals(List.of("_contracts/transactions/v0000000001.json", "_contracts/transactions/v0000000001.sha256"),
                s3.listObjectsV2(r -> r.bucket(lake).prefix("_contracts/")).contents().stream().map(S3Object::key).toList());
        assertEquals(1, landing(lake, "dataset", "add", ROOT.resolve("datasets/transactions.json").toString(), "--reason", "again").exit(),
                "an active dataset is not added twice");

        // update: the file must say the next version; a breaking change needs --allow-breaking
        LandingRun stale = landing(lake, "dataset", "update", transactions(dir, 1, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 3").toString(),
                "--reason", "cap");
        assertEquals(1, stale.exit());
        assertTrue(stale.stderr().contains("$.version: 1 is not the next version of transactions") && stale.stderr().contains("set \"version\": 2"),
                stale.stderr());
        Path renamed = transactions(dir, 2, "transactions-(?<unit>", "txn-(?<unit>");
        LandingRun breaking = landing(lake, "dataset", "update", renamed.toString(), "--reason", "rename");
        assertEquals(1, breaking.exit());
        assertTrue(breaking.stderr().contains("  unit.pattern transactions-(?<unit>"), breaking.stderr());
        assertEquals(1, contractKeys(lake).size(), "a refused change writes nothing");
        LandingRun allowed = landing(lake, "dataset", "update", renamed.toString(), "--reason", "INC-2 producer renamed files", "--allow-breaking", "--json");
        assertEquals(0, allowed.exit(), allowed.stderr());
        Map<String, Object> doc = allowed.json();
        assertEquals(2, doc.get("version"));
        assertEquals(1, doc.get("previous_version"));
        assertEquals(1, ((List<?>) doc.get("breaking_changes")).size());

        LandingRun list = landing(lake, "dataset", "list");
        assertEquals(0, list.exit(), list.stderr());
        assertTrue(list.stdout().lines().anyMatch(l -> l.startsWith("transactions") && l.contains(" 2 ") && l.contains("active")), list.stdout());

        LandingRun show = landing(lake, "dataset", "show", "transactions", "--version", "1");
        assertEquals(0, show.exit(), show.stderr());
        assertTrue(show.stdout().contains("\"pattern\": \"transactions-(?<unit>"), show.stdout());
        assertTrue(show.stdout().contains("  v2  active"), show.stdout());
        assertEquals(1, landing(lake, "dataset", "show", "transactions", "--version", "9").exit());
        assertEquals(1, landing(lake, "dataset", "show", "nobody").exit());

        LandingRun retired = landing(lake, "dataset", "retire", "transactions", "--reason", "INC-3 decommissioned");
        assertEquals(0, retired.exit(), retired.stderr());
        assertTrue(retired.stdout().startsWith("transactions: version 3 retired (INC-3 decommissioned)"), retired.stdout());
        assertEquals(1, landing(lake, "dataset", "retire", "transactions", "--reason", "again").exit());
        assertTrue(landing(lake, "dataset", "list").stdout().lines().noneMatch(l -> l.startsWith("transactions")));
        assertTrue(landing(lake, "dataset", "list", "--all").stdout().lines().anyMatch(l -> l.startsWith("transactions") && l.contains("retired")));
        assertEquals(3, contractKeys(lake).size());
        assertEquals(new String(Files.readAllBytes(renamed), StandardCharsets.UTF_8),
                landing(lake, "dataset", "show", "transactions", "--json").json().get("contract"));
    }
}
