package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

class FunctionConfigTest {

    private static Map<String, String> lambdaEnvironment() {
        Map<String, String> environment = new HashMap<>();
        environment.put("INBOX_BUCKET", "ll-inbox");
        environment.put("LAKE_BUCKET", "ll-lake");
        environment.put("LEDGER_TABLE", "Ledger");
        environment.put("LEDGER_HISTORY_TABLE", "LedgerHistory");
        environment.put("AWS_REGION", "eu-west-1");
        return environment;
    }

    @Test
    void fromEnvironment_onLambda_usesAwsWithTheDefaultCredentialChain() {
        FunctionConfig config = FunctionConfig.fromEnvironment(lambdaEnvironment());

        assertEquals("ll-inbox", config.inboxBucket());
        assertEquals("ll-lake", config.lakeBucket());
        assertEquals("Ledger", config.ledgerTable());
        assertEquals("LedgerHistory", config.ledgerHistoryTable());
        assertEquals(AwsConnection.aws(Region.EU_WEST_1), config.aws());
    }

    @ParameterizedTest
    @ValueSource(strings = {"INBOX_BUCKET", "LAKE_BUCKET", "LEDGER_TABLE", "LEDGER_HISTORY_TABLE"})
    void fromEnvironment_whenATemplateVariableIsMissing_namesItAndTheTemplate(String variable) {
        Map<String, String> environment = lambdaEnvironment();
        environment.remove(variable);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertEquals(variable + " is not set; infra/template.yaml sets it", e.getMessage());
    }

    @Test
    void fromEnvironment_whenAVariableIsBlank_treatsItAsMissing() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LEDGER_TABLE", "  ");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertEquals("LEDGER_TABLE is not set; infra/template.yaml sets it", e.getMessage());
    }

    @Test
    void fromEnvironment_whenRegionIsMissing_saysTheRuntimeSetsIt() {
        Map<String, String> environment = lambdaEnvironment();
        environment.remove("AWS_REGION");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertTrue(e.getMessage().startsWith("AWS_REGION is not set; the Lambda runtime sets it"), e.getMessage());
    }

    @Test
    void fromEnvironment_withOneEndpoint_pointsBothServicesAtItWithEmulatorCredentials() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_AWS_ENDPOINT", "http://localhost:4566");

        AwsConnection aws = FunctionConfig.fromEnvironment(environment).aws();

        assertEquals(Optional.of(URI.create("http://localhost:4566")), aws.s3Endpoint());
        assertEquals(Optional.of(URI.create("http://localhost:4566")), aws.dynamoDbEndpoint());
        assertEquals(Optional.of(AwsBasicCredentials.create("test", "test")), aws.endpointCredentials());
    }

    @Test
    void fromEnvironment_withAnEndpointPerService_letsEachWinOverTheSharedOne() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_AWS_ENDPOINT", "http://localhost:4566");
        environment.put("LANDING_S3_ENDPOINT", "http://127.0.0.1:9000");
        environment.put("LANDING_AWS_ACCESS_KEY_ID", "key");
        environment.put("LANDING_AWS_SECRET_ACCESS_KEY", "secret");

        AwsConnection aws = FunctionConfig.fromEnvironment(environment).aws();

        assertEquals(Optional.of(URI.create("http://127.0.0.1:9000")), aws.s3Endpoint());
        assertEquals(Optional.of(URI.create("http://localhost:4566")), aws.dynamoDbEndpoint());
        assertEquals(Optional.of(AwsBasicCredentials.create("key", "secret")), aws.endpointCredentials());
    }

    @Test
    void fromEnvironment_whenAnEndpointIsNotAUrl_namesTheVariable() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_DYNAMODB_ENDPOINT", "localhost:8000");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertEquals("LANDING_DYNAMODB_ENDPOINT is 'localhost:8000', not an http(s) URL with a host, such as "
                + "http://localhost:4566", e.getMessage());
    }

    @Test
    void fromEnvironment_whenOnlyHalfTheKeysAreSet_namesTheMissingOne() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_AWS_ENDPOINT", "http://localhost:4566");
        environment.put("LANDING_AWS_ACCESS_KEY_ID", "key");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertEquals("LANDING_AWS_SECRET_ACCESS_KEY is not set but LANDING_AWS_ACCESS_KEY_ID is; set both or "
                + "neither", e.getMessage());
    }

    @Test
    void fromEnvironment_whenKeysAreSetWithoutAnEndpoint_refusesThem() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_AWS_ACCESS_KEY_ID", "key");
        environment.put("LANDING_AWS_SECRET_ACCESS_KEY", "secret");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));

        assertTrue(e.getMessage().startsWith("LANDING_AWS_ACCESS_KEY_ID is set without an endpoint override"),
                e.getMessage());
    }

    @Test
    void toEnvironment_readsBackIntoTheSameConfig() {
        FunctionConfig config = FunctionConfig.builder()
                .inboxBucket("inbox-1").lakeBucket("lake-1").ledgerTable("Ledger-1").ledgerHistoryTable("History-1")
                .aws(AwsConnection.endpoints(Region.US_EAST_1, URI.create("http://127.0.0.1:1111"),
                        URI.create("http://127.0.0.1:2222")))
                .build();

        assertEquals(config, FunctionConfig.fromEnvironment(config.toEnvironment()));
        assertEquals(FunctionConfig.fromEnvironment(lambdaEnvironment()),
                FunctionConfig.fromEnvironment(FunctionConfig.fromEnvironment(lambdaEnvironment()).toEnvironment()));
    }

    @Test
    void fromEnvironment_withReadRanges_setsKAndTheRangeSize() {
        Map<String, String> environment = lambdaEnvironment();
        assertEquals(io.landingledger.lambda.adapters.RangedRead.Settings.DEFAULT, FunctionConfig.fromEnvironment(environment).reads());
        environment.put("S3_READ_RANGES", "4");
        environment.put("S3_READ_RANGE_MB", "16");
        FunctionConfig config = FunctionConfig.fromEnvironment(environment);
        assertEquals(new io.landingledger.lambda.adapters.RangedRead.Settings(4, 16L << 20), config.reads());
        assertEquals(config, FunctionConfig.fromEnvironment(config.toEnvironment()));

        environment.put("S3_READ_RANGES", "0");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FunctionConfig.fromEnvironment(environment));
        assertTrue(e.getMessage().startsWith("S3_READ_RANGES is '0'"), e.getMessage());
    }

    @Test
    void fromEnvironment_withValidatorWorkers_pinsTheParseThreads() {
        Map<String, String> environment = lambdaEnvironment();
        assertEquals(io.landingledger.core.validate.ValidationLimits.DEFAULT_WORKERS,
                FunctionConfig.fromEnvironment(environment).validationLimits().workers());
        environment.put("VALIDATOR_WORKERS", "6");
        FunctionConfig config = FunctionConfig.fromEnvironment(environment);
        assertEquals(6, config.validationLimits().workers());
        assertEquals(config, FunctionConfig.fromEnvironment(config.toEnvironment()));

        environment.put("VALIDATOR_WORKERS", "0");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FunctionConfig.fromEnvironment(environment));
        assertTrue(e.getMessage().startsWith("VALIDATOR_WORKERS is '0', not a whole number from 1 to 64"), e.getMessage());
    }

    @Test
    void fromEnvironment_withTheTableQueue_knowsTheStackHasTablesAndTheirGrace() {
        Map<String, String> environment = lambdaEnvironment();
        FunctionConfig without = FunctionConfig.fromEnvironment(environment);
        assertEquals(Optional.empty(), without.tableQueueUrl(), "no tables");
        assertEquals(java.time.Duration.ofMinutes(15), without.tableGrace(), "the template's default");
        environment.put("TABLE_QUEUE_URL", "https://sqs.us-east-1.amazonaws.com/1/ll-dev-table-commits.fifo");
        environment.put("TABLE_GRACE_SECONDS", "60");
        FunctionConfig config = FunctionConfig.fromEnvironment(environment);
        assertEquals(Optional.of("https://sqs.us-east-1.amazonaws.com/1/ll-dev-table-commits.fifo"), config.tableQueueUrl());
        assertEquals(java.time.Duration.ofSeconds(60), config.tableGrace());
        assertEquals(config, FunctionConfig.fromEnvironment(config.toEnvironment()));

        environment.put("TABLE_GRACE_SECONDS", "15m");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FunctionConfig.fromEnvironment(environment));
        assertTrue(e.getMessage().startsWith("TABLE_GRACE_SECONDS is '15m', not a whole number"), e.getMessage());
    }

    @Test
    void fromEnvironment_withKeyIndexBudgets_setsTheValidationLimitsInMebibytes() {
        Map<String, String> environment = lambdaEnvironment();
        assertEquals(io.landingledger.core.validate.ValidationLimits.defaults(),
                FunctionConfig.fromEnvironment(environment).validationLimits());
        environment.put("KEY_INDEX_MEMORY_MB", "4096");
        environment.put("KEY_INDEX_DISK_MB", "2048");
        FunctionConfig config = FunctionConfig.fromEnvironment(environment);
        assertEquals(4096L << 20, config.validationLimits().keyIndexMemoryBytes());
        assertEquals(2048L << 20, config.validationLimits().keyIndexDiskBytes());
        assertEquals(config, FunctionConfig.fromEnvironment(config.toEnvironment()));

        environment.put("KEY_INDEX_MEMORY_MB", "4g");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FunctionConfig.fromEnvironment(environment));
        assertTrue(e.getMessage().startsWith("KEY_INDEX_MEMORY_MB is '4g'"), e.getMessage());
    }

    @Test
    void toString_neverShowsTheSecretKey() {
        Map<String, String> environment = lambdaEnvironment();
        environment.put("LANDING_AWS_ENDPOINT", "http://localhost:4566");
        environment.put("LANDING_AWS_ACCESS_KEY_ID", "key");
        environment.put("LANDING_AWS_SECRET_ACCESS_KEY", "very-secret-value");

        assertFalse(FunctionConfig.fromEnvironment(environment).toString().contains("very-secret-value"));
    }

    @Test
    void templateVariables_areTheOnesTheTemplateMustSet() {
        assertEquals(java.util.List.of("INBOX_BUCKET", "LAKE_BUCKET", "LEDGER_TABLE", "LEDGER_HISTORY_TABLE"),
                FunctionConfig.TEMPLATE_VARIABLES);
    }
}
