package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.reader.ReaderTables;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.ConsumerReceiptHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;

/**
 * What can be checked of {@code infra/template.yaml} without an AWS account: the handlers are in the shaded jar
 * (packaged before failsafe runs this), every function gets the environment {@link FunctionConfig} reads, the tables'
 * keys are {@link LedgerTables}'s, the IAM statements are scoped and say what the functions may and may not do, the
 * lake's bucket policy refuses an unconditional publish, and the template agrees with {@code datasets/} and
 * {@code events/}. {@code cfn-lint infra/template.yaml} (.ci/run) checks the rest of the template's shape.
 *
 * <p>IAM is evaluated on the template as {@code sam deploy} transforms it ({@code scripts/sam-transform.py}, the
 * samtranslator that ships with cfn-lint, run into a temporary file): the roles, permissions, schedules and
 * event-invoke configs CloudFormation would receive, with their ARNs resolved for the template's default parameters.
 * Each function has its own explicit role, so nothing SAM would add (AWSLambdaBasicExecutionRole,
 * AWSXrayWriteOnlyAccess, a destination's sqs:SendMessage) escapes the checks: they fail if any managed policy
 * appears. The docs check at the end fails on any documented {@code aws lambda invoke} that could retry a repair.
 */
public class TemplateIT {
    private static final Path ROOT = Path.of("..", "..");
    private static final Path TEMPLATE = ROOT.resolve("infra/template.yaml");
    private static final Path JAR = Path.of("target", "landing-functions.jar");
    private static final String REGION = "us-east-1";
    private static final String ACCOUNT = "123456789012";
    private static final String UNIT = "2026-03-01";

    /** Actions that change who may read or write a bucket; no function may hold any of them. */
    private static final List<String> BUCKET_GUARD_ACTIONS = List.of("s3:PutBucketPolicy", "s3:DeleteBucketPolicy",
            "s3:PutBucketAcl", "s3:PutBucketPublicAccessBlock", "s3:PutBucketOwnershipControls",
            "s3:PutAccountPublicAccessBlock");
    /** Object writes, for "cannot write outside its prefixes". */
    private static final List<String> OBJECT_WRITE_ACTIONS = List.of("s3:PutObject", "s3:DeleteObject",
            "s3:DeleteObjectVersion", "s3:AbortMultipartUpload", "s3:PutObjectAcl", "s3:PutObjectTagging",
            "s3:RestoreObject", "s3:ReplicateObject");
    /** Object reads and writes, for "no access". */
    private static final List<String> OBJECT_ACTIONS = Stream.concat(OBJECT_WRITE_ACTIONS.stream(),
            Stream.of("s3:GetObject", "s3:GetObjectVersion", "s3:GetObjectAttributes", "s3:ListMultipartUploadParts"))
            .toList();

    private static Map<String, Object> template;
    private static Map<String, Object> resources;
    private static Resolver resolver;
    /** The template as {@code sam deploy} transforms it (scripts/sam-transform.py). */
    private static Map<String, Object> transformed;
    private static Map<String, Object> transformedResources;
    private static Resolver transformedResolver;
    private static List<String> datasets;

    /** X-Ray has no resource-level permissions: the only actions a role may grant on "*". */
    private static final Set<String> XRAY_WRITE_ACTIONS = Set.of("xray:PutTraceSegments", "xray:PutTelemetryRecords");
    /** Actions that take no resource ARN: granted on a scoped ARN they allow nothing. */
    private static final List<String> UNSCOPABLE_ACTIONS = List.of("dynamodb:ListStreams", "dynamodb:ListTables",
            "s3:ListAllMyBuckets", "lambda:ListFunctions", "sqs:ListQueues", "logs:DescribeLogGroups", "sns:ListTopics");
    /** A fresh account's Lambda memory quota (Lambda quotas: new accounts have reduced memory quotas). */
    private static final int FRESH_ACCOUNT_MEMORY_MB = 3008;

    @BeforeAll
    static void load() throws IOException {
        template = parseTemplate(TEMPLATE);
        resources = map(template.get("Resources"));
        resolver = new Resolver(template);
        transformed = transform();
        transformedResources = map(transformed.get("Resources"));
        transformedResolver = new Resolver(transformed);
        try (Stream<Path> files = Files.list(ROOT.resolve("datasets"))) {
            datasets = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json"))
                    .map(name -> name.substring(0, name.length() - ".json".length())).sorted().toList();
        }
        assertFalse(datasets.isEmpty(), "no contracts in datasets/");
    }

    /** Runs scripts/sam-transform.py (as .ci/run does) into a temporary file and reads its JSON. */
    private static Map<String, Object> transform() throws IOException {
        Path out = Files.createTempFile("template-transformed", ".json");
        try {
            Process process = new ProcessBuilder("python3", "scripts/sam-transform.py", "infra/template.yaml", out.toString())
                    .directory(ROOT.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit;
            try {
                exit = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while transforming the template", e);
            }
            assertEquals(0, exit, "python3 scripts/sam-transform.py infra/template.yaml failed (it needs cfn-lint 1.51+ with "
                    + "the SAM translator, as .ci/run does): " + output);
            return map(readJson(Files.readString(out)));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    // ---- functions ----------------------------------------------------------------------------------------------

    @Test
    void handlers_areClassesInTheSharedJarThatImplementRequestHandler() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run `mvn verify`, which packages it before this test");
        // the jar alone, as Lambda loads it: its own RequestHandler, nothing from the test classpath
        try (URLClassLoader jar = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> requestHandler = jar.loadClass("com.amazonaws.services.lambda.runtime.RequestHandler");
            for (String function : functions()) {
                String handler = (String) property(function, "Handler");
                assertNotNull(handler, function + " has no Handler");
                String[] parts = handler.split("::", 2);
                Class<?> type;
                try {
                    type = Class.forName(parts[0], false, jar); // not initialized: no environment is read
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(function + ": handler class " + parts[0] + " is not in " + JAR, e);
                }
                assertTrue(requestHandler.isAssignableFrom(type), function + ": " + parts[0] + " does not implement RequestHandler");
                assertTrue(Modifier.isPublic(type.getModifiers()), function + ": " + parts[0] + " is not public");
                type.getConstructor(); // the runtime's no-arg constructor
                String method = parts.length == 2 ? parts[1] : "handleRequest";
                assertTrue(Arrays.stream(type.getMethods()).map(Method::getName).anyMatch(method::equals),
                        function + ": " + parts[0] + " has no public method " + method);
            }
        }
    }

    @Test
    void handlers_areTheThreeFunctionsOfTheDesign() {
        Set<String> handlers = functions().stream().map(f -> ((String) property(f, "Handler")).split("::")[0])
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of(ValidateObjectHandler.class.getName(), CompletenessSweepHandler.class.getName(),
                RepairHandler.class.getName(), ConsumerReceiptHandler.class.getName())), handlers);
    }

    @Test
    void codeUri_isTheSharedJarForEveryFunction() throws IOException {
        for (String function : functions()) {
            Object codeUri = property(function, "CodeUri");
            assertTrue(codeUri instanceof String, function + ": CodeUri must be the local jar, not " + codeUri);
            Path artifact = TEMPLATE.getParent().resolve((String) codeUri).normalize();
            assertEquals(JAR.toAbsolutePath().normalize(), artifact.toAbsolutePath().normalize(), function + ": CodeUri");
        }
    }

    @Test
    void environment_setsEveryTemplateVariableForEveryFunctionAndNoEndpointOverride() {
        for (String function : functions()) {
            Map<String, Object> variables = environment(function);
            for (String variable : FunctionConfig.TEMPLATE_VARIABLES) {
                assertTrue(variables.containsKey(variable), function + " does not set " + variable);
                assertFalse(resolver.string(variables.get(variable)).isBlank(), function + ": " + variable + " is blank");
            }
            for (String variable : variables.keySet()) {
                assertFalse(variable.startsWith("LANDING_"), function + " sets " + variable
                        + ": endpoint overrides are for emulators, never for a deployed function");
            }
        }
    }

    @Test
    void runtime_isJava21OnArm64WithSnapStartOnPublishedVersions() {
        for (String function : functions()) {
            assertEquals("java21", property(function, "Runtime"), function + ": Runtime (java17 can no longer be created)");
            assertEquals(List.of("arm64"), property(function, "Architectures"), function + ": Architectures");
            assertEquals("PublishedVersions", resolver.string(map(property(function, "SnapStart")).get("ApplyOn")),
                    function + ": SnapStart by default (SnapStartApplyOn None only where the Region has none)");
            assertNotNull(property(function, "AutoPublishAlias"), function + ": SnapStart needs a published version (AutoPublishAlias)");
        }
    }

    // ---- tables -------------------------------------------------------------------------------------------------

    @Test
    void tables_haveTheKeySchemasOfLedgerTables() {
        assertTableMatches(FunctionConfig.LEDGER_TABLE, LedgerTables.ledger("x").build());
        assertTableMatches(FunctionConfig.LEDGER_HISTORY_TABLE, LedgerTables.ledgerHistory("x").build());
        // the receipt function and the sweep name the same Consumers table, retained like the ledger's
        assertTableMatches(ConsumerReceiptHandler.class, FunctionConfig.CONSUMERS_TABLE, ConsumersTable.definition("x").build());
        assertEquals(environment(function(ConsumerReceiptHandler.class)).get(FunctionConfig.CONSUMERS_TABLE),
                environment(function(CompletenessSweepHandler.class)).get(FunctionConfig.CONSUMERS_TABLE));
    }

    private static void assertTableMatches(String variable, CreateTableRequest expected) {
        assertTableMatches(ValidateObjectHandler.class, variable, expected);
    }

    private static void assertTableMatches(Class<?> handler, String variable, CreateTableRequest expected) {
        String table = referencedResource(environment(function(handler)).get(variable), variable);
        Map<String, Object> properties = properties(table);
        List<String> keySchema = list(properties.get("KeySchema")).stream().map(TemplateIT::map)
                .map(key -> key.get("AttributeName") + ":" + key.get("KeyType")).toList();
        assertEquals(expected.keySchema().stream().map(key -> key.attributeName() + ":" + key.keyTypeAsString()).toList(),
                keySchema, table + " KeySchema (LedgerTables is the definition)");
        Set<String> attributes = list(properties.get("AttributeDefinitions")).stream().map(TemplateIT::map)
                .map(a -> a.get("AttributeName") + ":" + a.get("AttributeType")).collect(Collectors.toSet());
        assertEquals(expected.attributeDefinitions().stream().map(a -> a.attributeName() + ":" + a.attributeTypeAsString())
                .collect(Collectors.toSet()), attributes, table + " AttributeDefinitions");
        assertEquals(expected.billingModeAsString(), properties.get("BillingMode"), table + " BillingMode");
        assertEquals(Map.of("PointInTimeRecoveryEnabled", true), properties.get("PointInTimeRecoverySpecification"),
                table + " point-in-time recovery");
        assertEquals(Map.of("Ref", "DeletionProtection"), properties.get("DeletionProtectionEnabled"),
                table + " deletion protection comes from the parameter");
    }

    // ---- IAM ----------------------------------------------------------------------------------------------------

    @Test
    void iam_noStatementAnywhereHasAWildcardActionOrResource() {
        List<Map<String, Object>> statements = new ArrayList<>();
        collectStatements(template, statements);
        assertTrue(statements.size() > 20, "found only " + statements.size() + " IAM statements");
        for (Map<String, Object> statement : statements) {
            assertFalse(statement.containsKey("NotAction"), "NotAction in " + statement);
            assertFalse(statement.containsKey("NotResource"), "NotResource in " + statement);
            for (Object action : values(statement.get("Action"))) {
                assertFalse("*".equals(action), "Action \"*\" in " + statement);
            }
            for (Object resource : values(statement.get("Resource"))) {
                boolean xrayOnly = values(statement.get("Action")).stream().allMatch(XRAY_WRITE_ACTIONS::contains);
                assertFalse("*".equals(resource) && !xrayOnly, "Resource \"*\" in " + statement
                        + " (only X-Ray's trace writes, which have no resource-level permissions, may use it)");
            }
        }
    }

    @Test
    void iam_transformedTemplateHasNoWildcardButXRayAndNoManagedPolicy() {
        List<Map<String, Object>> statements = new ArrayList<>();
        collectStatements(transformed, statements);
        for (Map<String, Object> statement : statements) {
            for (Object resource : values(statement.get("Resource"))) {
                boolean xrayOnly = values(statement.get("Action")).stream().allMatch(XRAY_WRITE_ACTIONS::contains);
                assertFalse("*".equals(resource) && !xrayOnly, "Resource \"*\" in the transformed template: " + statement);
            }
        }
        for (String role : transformedResourcesOfType("AWS::IAM::Role")) {
            assertFalse(transformedProperties(role).containsKey("ManagedPolicyArns"), role + ": "
                    + transformedProperties(role).get("ManagedPolicyArns"));
        }
        assertFalse(String.valueOf(transformed).contains("AWSLambdaBasicExecutionRole"), "AWSLambdaBasicExecutionRole in the transformed template");
    }

    @Test
    void iam_everyRoleStatementHasItsOwnSidAndNamesABucketPrefixOrATable() {
        for (Map.Entry<String, List<Statement>> role : roles().entrySet()) {
            Set<String> sids = new HashSet<>();
            for (Statement statement : role.getValue()) {
                assertNotNull(statement.sid(), role.getKey() + ": a statement without a Sid: " + statement);
                assertTrue(sids.add(statement.sid()), role.getKey() + ": Sid " + statement.sid() + " twice");
                if (statement.actions().stream().allMatch(XRAY_WRITE_ACTIONS::contains) && statement.resources().equals(List.of("*"))) {
                    continue; // X-Ray: no resource-level permissions (iam_functionsWriteOnlyTheirOwnLogsAndTraces)
                }
                for (String resource : statement.resources()) {
                    assertTrue(resource.startsWith("arn:aws:") && !resource.matches("arn:aws:[a-z0-9-]+:[^:]*:[^:]*:\\*"),
                            role.getKey() + " " + statement.sid() + ": resource " + resource + " is not scoped");
                    assertFalse(resource.contains("{"), role.getKey() + " " + statement.sid() + ": unresolved " + resource);
                }
            }
        }
    }

    @Test
    void iam_validatorCanRunTheIngestPath() {
        List<Statement> validator = role(ValidateObjectHandler.class);
        assertIngestPath("validator", validator);
    }

    @Test
    void iam_validatorCannotDeleteFromPublishedNorTouchReportsNorWriteOutsideItsPrefixes() {
        List<Statement> validator = role(ValidateObjectHandler.class);
        Lake lake = lake();
        for (String action : List.of("s3:DeleteObject", "s3:DeleteObjectVersion")) {
            assertFalse(allows(validator, action, lake.published()), "validator may " + action + " " + lake.published());
        }
        for (String action : OBJECT_ACTIONS) {
            assertFalse(allows(validator, action, lake.report()), "validator may " + action + " " + lake.report());
        }
        for (String action : OBJECT_WRITE_ACTIONS) {
            for (String object : List.of(lake.object("elsewhere/x.json"), lake.object("published.json"), inboxObject(datasets.get(0)))) {
                assertFalse(allows(validator, action, object), "validator may " + action + " " + object);
            }
        }
        assertFalse(allows(validator, "s3:GetObject", inboxObject("no_such_dataset")), "validator reads outside the dataset prefixes");
    }

    @Test
    void iam_sweepReadsAndWritesReportsButCannotWritePublished() {
        List<Statement> sweep = role(CompletenessSweepHandler.class);
        Lake lake = lake();
        assertTrue(allows(sweep, "s3:PutObject", lake.report()), "sweep cannot write " + lake.report());
        assertTrue(allows(sweep, "s3:PutObject", lake.object(LakeLayout.statusKey("progress_events"))), "sweep cannot write _status/");
        assertTrue(allows(sweep, "s3:ListBucketVersions", inboxBucketArn()), "sweep cannot ListObjectVersions the inbox");
        assertTrue(allows(sweep, "s3:ListBucket", lake.bucket()), "sweep cannot list the lake");
        assertTrue(allows(sweep, "s3:GetObject", lake.published()), "sweep cannot HEAD published/");
        // the sweep takes version ids and ETags from ListObjectVersions (CompletenessSweepIT: 0 HEADs on the inbox)
        for (String dataset : datasets) {
            for (String action : List.of("s3:GetObject", "s3:GetObjectVersion", "s3:GetObjectAttributes")) {
                assertFalse(allows(sweep, action, inboxObject(dataset)), "sweep may " + action + " " + inboxObject(dataset)
                        + ": it reads no inbox object, only the version listing");
            }
        }
        assertFalse(allows(sweep, "s3:ListBucket", inboxBucketArn()), "sweep may ListObjectsV2 the inbox: it lists versions only");
        assertTrue(allows(sweep, "dynamodb:GetItem", tableArn(FunctionConfig.LEDGER_TABLE)), "sweep cannot GetItem the ledger");
        assertTrue(allows(sweep, "dynamodb:Query", tableArn(FunctionConfig.LEDGER_TABLE)), "sweep cannot Query the ledger");
        for (String action : OBJECT_WRITE_ACTIONS) {
            assertFalse(allows(sweep, action, lake.published()), "sweep may " + action + " " + lake.published());
        }
    }

    @Test
    void iam_repairCanRunTheIngestPathAndListUnits() {
        List<Statement> repair = role(RepairHandler.class);
        assertIngestPath("repair", repair);
        assertTrue(allows(repair, "s3:ListBucket", inboxBucketArn()), "repair cannot list the inbox");
        assertTrue(allows(repair, "dynamodb:Query", tableArn(FunctionConfig.LEDGER_TABLE)), "repair cannot Query the ledger");
        assertFalse(allows(repair, "s3:DeleteObject", lake().published()), "repair may delete from published/");
    }

    @Test
    void iam_noRoleCanChangeBucketPolicies() {
        for (Map.Entry<String, List<Statement>> role : roles().entrySet()) {
            for (Statement statement : role.getValue()) {
                for (String action : BUCKET_GUARD_ACTIONS) {
                    assertFalse(statement.effect().equals("Allow") && statement.actions().stream().anyMatch(p -> globMatches(p, action, true)),
                            role.getKey() + " " + statement.sid() + " allows " + action);
                }
            }
        }
    }

    @Test
    void iam_historyIsAppendOnlyAndNothingScansOrDeletesLedgerItems() {
        String ledger = tableArn(FunctionConfig.LEDGER_TABLE);
        String history = tableArn(FunctionConfig.LEDGER_HISTORY_TABLE);
        for (Map.Entry<String, List<Statement>> role : roles().entrySet()) {
            List<Statement> statements = role.getValue();
            for (String action : List.of("dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem")) {
                assertFalse(allows(statements, action, history), role.getKey() + " may " + action + " history (immutable)");
            }
            for (String table : List.of(ledger, history)) {
                assertFalse(allows(statements, "dynamodb:Scan", table), role.getKey() + " may Scan " + table + " (Query only)");
                assertFalse(allows(statements, "dynamodb:DeleteTable", table), role.getKey() + " may delete " + table);
            }
            assertFalse(allows(statements, "dynamodb:DeleteItem", ledger), role.getKey() + " may delete ledger items");
        }
    }

    private static void assertIngestPath(String name, List<Statement> role) {
        Lake lake = lake();
        for (String dataset : datasets) {
            assertTrue(allows(role, "s3:GetObjectVersion", inboxObject(dataset)), name + " cannot read " + dataset + " inbox versions");
            // every inbox read names a version (the inbox is versioned): s3:GetObject, for the current version, is not needed
            assertFalse(allows(role, "s3:GetObject", inboxObject(dataset)), name + " may GET the " + dataset
                    + " inbox's current version: LeastPrivilegeIT finds no such call");
        }
        assertTrue(allows(role, "s3:ListBucket", inboxBucketArn()), name + ": a missing inbox object would be 403, not 404");
        assertTrue(allows(role, "s3:ListBucketVersions", inboxBucketArn()), name + " cannot ListObjectVersions the inbox (UnitInputs)");
        assertTrue(allows(role, "s3:ListBucket", lake.bucket()), name + ": a missing publish would be 403, not 404");
        for (String action : List.of("s3:PutObject", "s3:AbortMultipartUpload", "s3:GetObject", "s3:DeleteObject")) {
            assertTrue(allows(role, action, lake.staging()), name + " cannot " + action + " " + lake.staging());
        }
        assertTrue(allows(role, "s3:PutObject", lake.quarantine()), name + " cannot write quarantine");
        for (String action : List.of("s3:PutObject", "s3:AbortMultipartUpload", "s3:GetObject")) {
            assertTrue(allows(role, action, lake.published()), name + " cannot " + action + " " + lake.published());
        }
        for (String action : List.of("dynamodb:GetItem", "dynamodb:UpdateItem")) {
            assertTrue(allows(role, action, tableArn(FunctionConfig.LEDGER_TABLE)), name + " cannot " + action + " the ledger");
        }
        // TransactWriteItems is authorized as UpdateItem on the ledger plus PutItem on the history table
        assertTrue(allows(role, "dynamodb:PutItem", tableArn(FunctionConfig.LEDGER_HISTORY_TABLE)), name + " cannot append history");
    }

    // ---- buckets ------------------------------------------------------------------------------------------------

    @Test
    void lakeBucketPolicy_deniesAPublishWithoutIfNoneMatchOrIfMatchExceptMultipartParts() {
        Lake lake = lake();
        List<Statement> policy = bucketPolicy(FunctionConfig.LAKE_BUCKET);
        List<Statement> denies = policy.stream().filter(s -> s.effect().equals("Deny")
                && s.actions().stream().anyMatch(a -> globMatches(a, "s3:PutObject", true))
                && s.resources().stream().anyMatch(r -> globMatches(r, lake.published(), false))
                && s.condition().containsKey("Null")).toList();
        assertEquals(1, denies.size(), "one Deny of s3:PutObject on published/* with a Null condition: " + policy);
        Statement deny = denies.get(0);
        assertEquals("*", deny.principal(), "the deny applies to every principal");
        assertEquals(Map.of("s3:if-none-match", "true", "s3:if-match", "true"), deny.condition().get("Null"),
                "denied when neither conditional header is present");
        assertEquals(Map.of("s3:ObjectCreationOperation", "true"), deny.condition().get("Bool"),
                "CreateMultipartUpload, UploadPart and UploadPartCopy (ObjectCreationOperation false) are exempt");
        assertEquals(Set.of("Null", "Bool"), deny.condition().keySet());
        for (String other : List.of(lake.staging(), lake.quarantine(), lake.report())) {
            assertFalse(deny.resources().stream().anyMatch(r -> globMatches(r, other, false)),
                    "the conditional-write deny must not cover " + other + " (those writes carry no condition)");
        }
    }

    @Test
    void bucketPolicies_refuseInsecureTransportOnBothBuckets() {
        for (String variable : List.of(FunctionConfig.INBOX_BUCKET, FunctionConfig.LAKE_BUCKET)) {
            String bucket = "arn:aws:s3:::" + bucketName(variable);
            boolean found = bucketPolicy(variable).stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                    && Map.of("aws:SecureTransport", "false").equals(s.condition().get("Bool"))
                    && s.actions().stream().anyMatch(a -> globMatches(a, "s3:GetObject", true))
                    && s.actions().stream().anyMatch(a -> globMatches(a, "s3:PutObject", true))
                    && s.resources().stream().anyMatch(r -> globMatches(r, bucket, false))
                    && s.resources().stream().anyMatch(r -> globMatches(r, bucket + "/any/key", false)));
            assertTrue(found, variable + ": no Deny for aws:SecureTransport false on the bucket and its objects");
        }
    }

    @Test
    void buckets_blockPublicAccessAndEncryptByDefault() {
        for (String variable : List.of(FunctionConfig.INBOX_BUCKET, FunctionConfig.LAKE_BUCKET)) {
            Map<String, Object> bucket = properties(bucketResource(variable));
            assertEquals(Map.of("BlockPublicAcls", true, "BlockPublicPolicy", true, "IgnorePublicAcls", true,
                    "RestrictPublicBuckets", true), bucket.get("PublicAccessBlockConfiguration"), variable);
            assertNotNull(bucket.get("BucketEncryption"), variable + ": default encryption");
        }
        assertEquals(Map.of("Status", "Enabled"), properties(bucketResource(FunctionConfig.INBOX_BUCKET)).get("VersioningConfiguration"),
                "the inbox is versioned: events and repair read by version");
    }

    @Test
    void inbox_notifiesTheValidatorUnderEachDatasetPrefixAndNothingElse() {
        String inbox = bucketResource(FunctionConfig.INBOX_BUCKET);
        String validator = function(ValidateObjectHandler.class);
        for (String function : functions()) {
            for (Object event : map(properties(function).getOrDefault("Events", Map.of())).values()) {
                assertFalse("S3".equals(map(event).get("Type")), function + ": an S3 event source (SAM's permission for it has no "
                        + "SourceArn); write the notification on the bucket with an explicit AWS::Lambda::Permission");
            }
        }
        Map<String, Object> notifications = map(transformedProperties(inbox).get("NotificationConfiguration"));
        assertEquals(Set.of("LambdaConfigurations"), notifications.keySet(), "the inbox notifies Lambda only");
        List<String> prefixes = new ArrayList<>();
        for (Object configuration : values(notifications.get("LambdaConfigurations"))) {
            Map<String, Object> p = map(configuration);
            assertEquals(Map.of("Ref", alias(validator)), p.get("Function"), "the inbox notifies the validator's live alias");
            assertEquals("s3:ObjectCreated:*", p.get("Event"));
            List<Object> rules = list(map(map(p.get("Filter")).get("S3Key")).get("Rules"));
            assertEquals(1, rules.size(), "one prefix rule per event: " + rules);
            assertEquals("prefix", map(rules.get(0)).get("Name"));
            prefixes.add((String) map(rules.get(0)).get("Value"));
        }
        assertEquals(datasets.stream().map(d -> d + "/").toList(), prefixes.stream().sorted().toList(),
                "one S3 notification per datasets/*.json");
    }

    // ---- a real account: roles, trust, retention, quotas, retries (issue 13) -------------------------------------

    @Test
    void iam_eachFunctionHasItsOwnRoleAndWritesOnlyItsOwnLogsAndTraces() {
        Map<String, List<Statement>> roles = roles();
        for (String function : functions()) {
            List<Statement> role = roles.get(function);
            String logGroup = logGroupName(function);
            String ownStream = logGroupArn(logGroup) + ":log-stream:2026/03/01/[1]0123456789abcdef";
            for (String action : List.of("logs:CreateLogStream", "logs:PutLogEvents")) {
                assertTrue(allows(role, action, ownStream), function + " cannot " + action + " in its own log group " + logGroup);
            }
            for (String function2 : functions()) {
                if (!function2.equals(function)) {
                    String other = logGroupArn(logGroupName(function2)) + ":log-stream:x";
                    assertFalse(allows(role, "logs:PutLogEvents", other), function + " may write " + function2 + "'s logs");
                }
            }
            assertFalse(allows(role, "logs:PutLogEvents", logGroupArn("/aws/lambda/elsewhere") + ":log-stream:x"),
                    function + " may write another log group");
            for (Statement statement : role) {
                if (statement.actions().stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).startsWith("logs:"))) {
                    assertEquals(Set.of("logs:CreateLogStream", "logs:PutLogEvents"), new HashSet<>(statement.actions()),
                            function + " " + statement.sid() + ": logs actions (no CreateLogGroup: the template creates the group)");
                }
                if (statement.resources().contains("*")) {
                    assertEquals(XRAY_WRITE_ACTIONS, new HashSet<>(statement.actions()), function + " " + statement.sid() + " on \"*\"");
                }
            }
            if ("Active".equals(property(function, "Tracing"))) {
                for (String action : XRAY_WRITE_ACTIONS) {
                    assertTrue(allows(role, action, "*"), function + " traces (Tracing Active) but cannot " + action);
                }
            }
        }
    }

    @Test
    void iam_noGrantOfAnActionThatTakesNoResourceArn() {
        for (Map.Entry<String, List<Statement>> role : roles().entrySet()) {
            for (Statement statement : role.getValue()) {
                for (String action : UNSCOPABLE_ACTIONS) {
                    assertFalse(statement.actions().stream().anyMatch(a -> globMatches(a, action, true)) && !statement.resources().contains("*"),
                            role.getKey() + " " + statement.sid() + ": " + action + " takes no resource ARN, so a grant on "
                            + statement.resources() + " allows nothing");
                }
            }
        }
    }

    @Test
    void s3InvokePermissions_carryTheInboxArnSpelledOutAndTheAccount() {
        List<String> permissions = transformedResourcesOfType("AWS::Lambda::Permission");
        assertFalse(permissions.isEmpty(), "no AWS::Lambda::Permission");
        for (String permission : permissions) {
            Map<String, Object> p = transformedProperties(permission);
            assertEquals(Map.of("Ref", "AWS::AccountId"), p.get("SourceAccount"), permission + ": SourceAccount (confused deputy)");
            assertNotNull(p.get("SourceArn"), permission + ": SourceArn (confused deputy)");
            if ("s3.amazonaws.com".equals(p.get("Principal"))) {
                assertTrue(map(p.get("SourceArn")).containsKey("Fn::Sub"), permission
                        + ": spell the inbox ARN out with !Sub (a GetAtt of the bucket is a cycle): " + p.get("SourceArn"));
                assertEquals(inboxBucketArn(), transformedResolver.string(p.get("SourceArn")), permission + ": SourceArn");
                assertEquals(Map.of("Ref", alias(function(ValidateObjectHandler.class))), p.get("FunctionName"), permission);
            }
        }
    }

    @Test
    void serviceRoles_trustOnlyTheirSourceInThisAccount() {
        for (String role : transformedResourcesOfType("AWS::IAM::Role")) {
            for (Object trust : values(map(transformedProperties(role).get("AssumeRolePolicyDocument")).get("Statement"))) {
                Map<String, Object> statement = map(trust);
                List<String> services = values(map(statement.get("Principal")).get("Service")).stream().map(String::valueOf).toList();
                assertEquals(1, services.size(), role + ": one service per trust statement: " + statement);
                String service = services.get(0);
                if (service.equals("lambda.amazonaws.com")) {
                    continue; // a function's execution role: Lambda assumes it for that function only
                }
                Map<String, Object> equals = map(map(statement.getOrDefault("Condition", Map.of("StringEquals", Map.of())))
                        .getOrDefault("StringEquals", Map.of()));
                assertEquals(Map.of("Ref", "AWS::AccountId"), equals.get("aws:SourceAccount"), role + " (" + service + "): aws:SourceAccount");
                if (service.equals("scheduler.amazonaws.com")) {
                    // the Scheduler user guide: aws:SourceArn is the schedule group's ARN
                    List<String> groups = transformedResourcesOfType("AWS::Scheduler::Schedule").stream().map(TemplateIT::transformedProperties)
                            .filter(s -> Map.of("Fn::GetAtt", List.of(role, "Arn")).equals(map(s.get("Target")).get("RoleArn")))
                            .map(s -> transformedResolver.string(Map.of("Fn::GetAtt", List.of(referenced(s.get("GroupName"), "GroupName"), "Arn"))))
                            .distinct().toList();
                    assertEquals(1, groups.size(), role + ": schedules using it must share one schedule group: " + groups);
                    assertNotNull(equals.get("aws:SourceArn"), role + ": no aws:SourceArn (the schedule group's ARN) in its trust");
                    assertEquals(groups.get(0), transformedResolver.string(equals.get("aws:SourceArn")), role + ": aws:SourceArn");
                }
            }
        }
        assertTrue(transformedResourcesOfType("AWS::IAM::Role").stream().anyMatch(r -> String.valueOf(transformedProperties(r)
                .get("AssumeRolePolicyDocument")).contains("scheduler.amazonaws.com")), "no Scheduler role");
    }

    @Test
    void tables_areRetainedOnStackDeleteAndReplacement() {
        for (String variable : List.of(FunctionConfig.LEDGER_TABLE, FunctionConfig.LEDGER_HISTORY_TABLE)) {
            String table = referencedResource(environment(function(ValidateObjectHandler.class)).get(variable), variable);
            Map<String, Object> resource = map(transformedResources.get(table));
            assertEquals("Retain", resource.get("DeletionPolicy"), table + ": the system of record");
            assertEquals("Retain", resource.get("UpdateReplacePolicy"), table + ": a replacement would start empty");
        }
    }

    @Test
    void inbox_currentVersionsExpireAfterTheSweepsLookbackPlusARepairWindow() throws IOException {
        int lookbackDays = 0;
        for (String dataset : datasets) {
            Map<String, Object> unit = map(map(readJson(Files.readString(ROOT.resolve("datasets/" + dataset + ".json")))).get("unit"));
            int grace = ((Number) unit.getOrDefault("graceHours", 0)).intValue();
            lookbackDays = Math.max(lookbackDays, ((Number) unit.getOrDefault("lookbackDays", 35)).intValue() + (grace + 23) / 24);
        }
        Map<String, Object> parameter = map(map(template.get("Parameters")).get("InboxRetentionDays"));
        int retention = ((Number) parameter.get("Default")).intValue();
        assertTrue(retention >= lookbackDays + 14, "InboxRetentionDays " + retention + " < the sweep's lookback and grace ("
                + lookbackDays + " days) plus two weeks to repair");
        assertTrue(((Number) parameter.get("MinValue")).intValue() > lookbackDays, "InboxRetentionDays MinValue must exceed "
                + lookbackDays + " days, or the sweep sees inputs vanish while it still watches their units");
        List<Map<String, Object>> rules = list(map(properties(bucketResource(FunctionConfig.INBOX_BUCKET)).get("LifecycleConfiguration"))
                .get("Rules")).stream().map(TemplateIT::map).filter(r -> "Enabled".equals(r.get("Status"))).toList();
        assertTrue(rules.stream().anyMatch(r -> Map.of("Ref", "InboxRetentionDays").equals(r.get("ExpirationInDays"))
                && !r.containsKey("Prefix") && !r.containsKey("Filter")), "no whole-bucket rule expiring current versions: " + rules);
        assertTrue(rules.stream().anyMatch(r -> r.get("NoncurrentVersionExpiration") instanceof Map<?, ?> n
                && Map.of("Ref", "InboxNoncurrentVersionDays").equals(n.get("NoncurrentDays"))), "no noncurrent-version expiry: " + rules);
        assertTrue(rules.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("ExpiredObjectDeleteMarker"))), "expired delete markers stay");
    }

    @Test
    void memory_defaultsDeployOnAFreshAccount() {
        Map<String, Object> parameters = map(template.get("Parameters"));
        for (String function : transformedResourcesOfType("AWS::Lambda::Function")) {
            int memory = Integer.parseInt(transformedResolver.string(transformedProperties(function).get("MemorySize")));
            assertTrue(memory <= FRESH_ACCOUNT_MEMORY_MB, function + ": MemorySize " + memory + " by default; a fresh account's "
                    + "quota is " + FRESH_ACCOUNT_MEMORY_MB + " MB and the stack would roll back");
        }
        Map<String, Object> validatorMemory = map(parameters.get("ValidatorMemorySize"));
        int memory = ((Number) validatorMemory.get("Default")).intValue();
        assertTrue(((Number) validatorMemory.get("MinValue")).intValue() <= memory && memory <= FRESH_ACCOUNT_MEMORY_MB, "ValidatorMemorySize default");
        assertEquals(10240, ((Number) validatorMemory.get("MaxValue")).intValue(), "ValidatorMemorySize MaxValue: Lambda's 10,240 MB");
        int keyIndex = ((Number) map(parameters.get("KeyIndexMemoryMB")).get("Default")).intValue();
        assertTrue(2 * keyIndex <= memory, "KeyIndexMemoryMB default " + keyIndex + " is more than half of ValidatorMemorySize " + memory);
    }

    @Test
    void sweep_asynchronousInvocationsRetryOnceThenGoToAnAlarmedQueue() {
        Map<String, Object> config = eventInvokeConfig(function(CompletenessSweepHandler.class));
        assertTrue(((Number) config.get("MaximumRetryAttempts")).intValue() <= 1, "the sweep retries at most once: " + config);
        assertEquals("SweepFailureQueue", assertFailureDestination(function(CompletenessSweepHandler.class), config));
    }

    @Test
    void redrive_theValidatorsRetriesAndFailureQueueCoverTheAliasTheSweepAndS3Invoke() {
        String validator = function(ValidateObjectHandler.class);
        String sweep = function(CompletenessSweepHandler.class);
        String alias = alias(validator);
        Map<String, Object> config = eventInvokeConfig(validator);
        assertEquals(map(transformedResources.get(alias)).get("Properties") instanceof Map<?, ?> a ? a.get("Name") : null,
                config.get("Qualifier"), "the validator's EventInvokeConfig is on the alias the sweep and S3 invoke");
        assertEquals("ValidatorFailureQueue", assertFailureDestination(validator, config));
        Object target = map(map(transformedProperties(sweep).get("Environment")).get("Variables")).get(FunctionConfig.VALIDATOR_FUNCTION);
        assertEquals(Map.of("Ref", alias), target, "the sweep re-drives through the validator's live alias");
        assertTrue(allows(roles().get(sweep), "lambda:InvokeFunction", transformedResolver.string(Map.of("Ref", alias))),
                "the sweep cannot invoke " + transformedResolver.string(Map.of("Ref", alias)));
    }

    /** The function's one EventInvokeConfig in the transformed template. */
    private static Map<String, Object> eventInvokeConfig(String function) {
        List<Map<String, Object>> configs = transformedResourcesOfType("AWS::Lambda::EventInvokeConfig").stream()
                .map(TemplateIT::transformedProperties).filter(c -> Map.of("Ref", function).equals(c.get("FunctionName"))).toList();
        assertEquals(1, configs.size(), function + ": EventInvokeConfigs");
        return configs.get(0);
    }

    /** Checks the on-failure queue (encrypted, 14 days, alarmed, writable by the function's role); returns its id. */
    private static String assertFailureDestination(String function, Map<String, Object> config) {
        Object destination = map(map(map(config.get("DestinationConfig")).get("OnFailure"))).get("Destination");
        List<Object> att = list(map(destination).get("Fn::GetAtt"));
        String queue = (String) att.get(0);
        assertEquals("AWS::SQS::Queue", map(transformedResources.get(queue)).get("Type"), function + ": on-failure destination");
        Map<String, Object> q = transformedProperties(queue);
        assertEquals(true, q.get("SqsManagedSseEnabled"), queue + " is encrypted");
        assertEquals(1209600, ((Number) q.get("MessageRetentionPeriod")).intValue(), queue + " keeps 14 days");
        assertTrue(allows(roles().get(function), "sqs:SendMessage", transformedResolver.string(destination)), function
                + "'s role cannot send to " + queue + " (Lambda sends destination records with the function's role)");
        boolean alarmed = transformedResourcesOfType("AWS::CloudWatch::Alarm").stream().map(TemplateIT::transformedProperties)
                .anyMatch(a -> "AWS/SQS".equals(a.get("Namespace")) && "ApproximateNumberOfMessagesVisible".equals(a.get("MetricName"))
                        && values(a.get("Dimensions")).stream().map(TemplateIT::map).anyMatch(d -> "QueueName".equals(d.get("Name"))
                        && Map.of("Fn::GetAtt", List.of(queue, "QueueName")).equals(d.get("Value"))));
        assertTrue(alarmed, "no alarm on " + queue + "'s visible messages");
        return queue;
    }

    @Test
    void inboxBucketPolicy_refusesKmsAndCustomerKeyUploadsAndTheBucketEncryptsWithSseS3() {
        String object = inboxObject(datasets.get(0));
        List<Statement> policy = bucketPolicy(FunctionConfig.INBOX_BUCKET);
        boolean kms = policy.stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                && s.actions().stream().anyMatch(a -> globMatches(a, "s3:PutObject", true))
                && s.resources().stream().anyMatch(r -> globMatches(r, object, false))
                && s.condition().get("StringEquals") instanceof Map<?, ?> m
                && values(m.get("s3:x-amz-server-side-encryption")).containsAll(List.of("aws:kms", "aws:kms:dsse")));
        assertTrue(kms, "no Deny of s3:PutObject with s3:x-amz-server-side-encryption aws:kms / aws:kms:dsse on the inbox: " + policy);
        boolean sseC = policy.stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                && s.actions().stream().anyMatch(a -> globMatches(a, "s3:PutObject", true))
                && s.resources().stream().anyMatch(r -> globMatches(r, object, false))
                && Map.of("s3:x-amz-server-side-encryption-customer-algorithm", "false").equals(s.condition().get("Null")));
        assertTrue(sseC, "no Deny of SSE-C uploads on the inbox: " + policy);
        Object encryption = list(map(properties(bucketResource(FunctionConfig.INBOX_BUCKET)).get("BucketEncryption"))
                .get("ServerSideEncryptionConfiguration")).get(0);
        assertEquals(Map.of("SSEAlgorithm", "AES256"), map(encryption).get("ServerSideEncryptionByDefault"),
                "the inbox's default encryption stays SSE-S3 (the validator holds no kms:Decrypt)");
        for (List<Statement> role : roles().values()) {
            assertFalse(role.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).startsWith("kms:"))),
                    "a role grants kms:*; uploads under KMS are refused at the bucket instead");
        }
    }

    /** {@code AWS_MAX_ATTEMPTS=1 aws lambda invoke ... --cli-read-timeout N}, N above the repair function's timeout. */
    @Test
    void docs_everyDocumentedLambdaInvokeNeitherRetriesNorStopsReadingBeforeTheFunctionEnds() throws IOException {
        int timeout = Integer.parseInt(resolver.string(property(function(RepairHandler.class), "Timeout")));
        Pattern readTimeout = Pattern.compile("--cli-read-timeout[ =](\\d+)");
        List<String> unsafe = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(Files::isRegularFile).filter(f -> {
                String relative = ROOT.relativize(f).toString().replace('\\', '/');
                String name = f.getFileName().toString();
                return !relative.startsWith(".git/") && !relative.contains("/target/") && !relative.startsWith("target/")
                        && !relative.contains("/src/") && !relative.contains("node_modules/")
                        && (name.endsWith(".md") || relative.startsWith("events/") || relative.startsWith("docs/")
                        || relative.startsWith("infra/"));
            }).sorted().toList();
        }
        int seen = 0;
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                int first = i;
                StringBuilder logical = new StringBuilder(lines.get(i));
                while (logical.toString().endsWith("\\") && i + 1 < lines.size()) { // a shell continuation
                    logical.setLength(logical.length() - 1);
                    logical.append(' ').append(lines.get(++i));
                }
                String text = logical.toString();
                int at = text.indexOf("aws lambda invoke");
                while (at >= 0) {
                    seen++;
                    Matcher read = readTimeout.matcher(text);
                    boolean longEnough = read.find() && Integer.parseInt(read.group(1)) > timeout;
                    boolean noRetry = text.substring(0, at).contains("AWS_MAX_ATTEMPTS=1");
                    if (!longEnough || !noRetry) {
                        unsafe.add(ROOT.relativize(file) + ":" + (first + 1) + ": " + text.strip());
                    }
                    at = text.indexOf("aws lambda invoke", at + 1);
                }
            }
        }
        assertTrue(seen > 0, "no documented aws lambda invoke found (the README's repair commands)");
        assertTrue(unsafe.isEmpty(), "an aws lambda invoke that reads for 60 s and retries runs a long repair two or three times at "
                + "once; write AWS_MAX_ATTEMPTS=1 aws lambda invoke --cli-read-timeout " + (timeout + 10) + " ... on one line (or "
                + "continued with \\):\n" + String.join("\n", unsafe));
    }

    private static String logGroupName(String function) {
        String group = referencedResource(map(properties(function).get("LoggingConfig")).get("LogGroup"), function + " LoggingConfig.LogGroup");
        return resolver.string(properties(group).get("LogGroupName"));
    }

    private static String logGroupArn(String name) {
        return "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + name;
    }

    // ---- schedule, alarms, events, dashboard --------------------------------------------------------------------

    @Test
    void sweepSchedule_inputEqualsTheSweepScheduleEvent() throws IOException {
        Path event = ROOT.resolve("events/sweep-schedule.json");
        assumeTrue(Files.isRegularFile(event), "events/sweep-schedule.json does not exist yet");
        List<Map<String, Object>> schedules = map(property(function(CompletenessSweepHandler.class), "Events")).values().stream()
                .map(TemplateIT::map).filter(e -> "ScheduleV2".equals(e.get("Type"))).map(e -> map(e.get("Properties"))).toList();
        assertEquals(1, schedules.size(), "the sweep has one ScheduleV2 event");
        Object input = schedules.get(0).get("Input");
        assertTrue(input instanceof String, "the schedule's Input is a JSON string: " + input);
        assertEquals(readJson(Files.readString(event)), readJson((String) input), "schedule Input vs " + event);
        assertEquals(Map.of("Ref", "SweepSchedule"), schedules.get(0).get("ScheduleExpression"));
    }

    @Test
    void alarms_watchEveryDatasetsUnitsAndRefusals() {
        for (String dataset : datasets) {
            for (String metric : List.of("UnitsExpected", "FilesRefused")) {
                boolean found = resourcesOfType("AWS::CloudWatch::Alarm").stream().map(TemplateIT::properties)
                        .anyMatch(alarm -> alarmWatches(alarm, metric, dataset));
                assertTrue(found, "no alarm on LandingLedger " + metric + " for dataset " + dataset);
            }
        }
    }

    private static boolean alarmWatches(Map<String, Object> alarm, String metric, String dataset) {
        List<Map<String, Object>> metrics = new ArrayList<>();
        if (alarm.containsKey("MetricName")) {
            metrics.add(alarm);
        }
        for (Object query : values(alarm.get("Metrics"))) {
            Object stat = map(query).get("MetricStat");
            if (stat != null) {
                metrics.add(map(map(stat).get("Metric")));
            }
        }
        return metrics.stream().anyMatch(m -> DatasetMetrics.NAMESPACE.equals(m.get("Namespace")) && metric.equals(m.get("MetricName"))
                && values(m.get("Dimensions")).stream().map(TemplateIT::map)
                .anyMatch(d -> DatasetMetrics.DIMENSION.equals(d.get("Name")) && dataset.equals(d.get("Value"))));
    }

    @Test
    void pipes_emitTheEventsDocumentedInEventsFromTheLedgerStream() throws IOException {
        String ledger = referencedResource(environment(function(ValidateObjectHandler.class)).get(FunctionConfig.LEDGER_TABLE),
                FunctionConfig.LEDGER_TABLE);
        assertEquals(Map.of("StreamViewType", "NEW_IMAGE"), properties(ledger).get("StreamSpecification"));
        Set<String> detailTypes = new TreeSet<>();
        for (String pipe : resourcesOfType("AWS::Pipes::Pipe")) {
            Map<String, Object> p = properties(pipe);
            assertEquals(Map.of("Fn::GetAtt", List.of(ledger, "StreamArn")), p.get("Source"), pipe + " reads the ledger's stream");
            for (Object filter : values(map(map(p.get("SourceParameters")).get("FilterCriteria")).get("Filters"))) {
                Map<String, Object> pattern = map(readJson((String) map(filter).get("Pattern")));
                assertTrue(map(pattern.get("dynamodb")).containsKey("NewImage"), pipe + " filters on the item's new image: " + pattern);
            }
            Map<String, Object> target = map(p.get("TargetParameters"));
            String detailType = (String) map(target.get("EventBridgeEventBusParameters")).get("DetailType");
            detailTypes.add(detailType);
            String file = detailType.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT); // UnitPublished -> unit-published
            Map<String, Object> schema = map(readJson(Files.readString(ROOT.resolve("events/" + file + ".schema.json"))));
            Map<String, Object> sample = map(readJson(Files.readString(ROOT.resolve("events/" + file + ".json"))));
            Map<String, Object> schemaProperties = map(schema.get("properties"));
            assertEquals(Map.of("const", detailType), schemaProperties.get("detail-type"), file + ".schema.json detail-type");
            assertEquals(detailType, sample.get("detail-type"), file + ".json detail-type");
            assertEquals(map(schemaProperties.get("source")).get("const"), map(target.get("EventBridgeEventBusParameters")).get("Source"),
                    pipe + " Source");
            // the input template's fields are the schema's and the sample's
            String inputTemplate = resolver.string(target.get("InputTemplate")).replaceAll("<[^>]+>", "x");
            Set<String> fields = new TreeSet<>(map(readJson(inputTemplate)).keySet());
            Map<String, Object> detailSchema = map(schemaProperties.get("detail"));
            assertEquals(fields, new TreeSet<>(map(detailSchema.get("properties")).keySet()), pipe + " vs " + file + ".schema.json");
            assertEquals(fields, new TreeSet<>(values(detailSchema.get("required")).stream().map(String::valueOf).toList()),
                    file + ".schema.json required");
            assertEquals(fields, new TreeSet<>(map(sample.get("detail")).keySet()), pipe + " vs " + file + ".json");
        }
        assertEquals(Set.of("UnitPublished", "UnitRefused"), detailTypes);
    }

    // ---- readers (issue 15) --------------------------------------------------------------------------------------

    /** Every Glue table equals {@link ReaderTables}'s definition of datasets/: names, columns, types, projection, location. */
    @Test
    void readers_glueTablesAreReaderTablesOfDatasets() {
        List<DatasetContract> contracts = ContractLoader.loadDirectory(ROOT.resolve("datasets")).values().stream()
                .sorted(java.util.Comparator.comparing(DatasetContract::dataset)).toList();
        String bucket = resolver.string(Map.of("Ref", bucketResource("LAKE_BUCKET")));
        Map<String, ReaderTables.Table> expected = new LinkedHashMap<>();
        ReaderTables.all(contracts).forEach(t -> expected.put(t.name(), t));
        Map<String, Map<String, Object>> actual = new LinkedHashMap<>();
        for (String id : resourcesOfType("AWS::Glue::Table")) {
            Map<String, Object> input = map(properties(id).get("TableInput"));
            assertEquals(Map.of("Ref", "ReaderDatabase"), properties(id).get("DatabaseName"), id + ": DatabaseName");
            actual.put((String) input.get("Name"), input);
        }
        assertEquals(new TreeSet<>(expected.keySet()), new TreeSet<>(actual.keySet()),
                "Glue tables: one <dataset> and one <dataset>_status per datasets/*.json (ReaderTables.all)");
        for (ReaderTables.Table table : expected.values()) {
            Map<String, Object> input = actual.get(table.name());
            String name = table.name();
            assertEquals("EXTERNAL_TABLE", input.get("TableType"), name);
            Map<String, Object> storage = map(input.get("StorageDescriptor"));
            assertEquals(table.location(bucket), resolver.string(storage.get("Location")), name + ": Location");
            assertEquals(ReaderTables.INPUT_FORMAT, storage.get("InputFormat"), name);
            assertEquals(ReaderTables.OUTPUT_FORMAT, storage.get("OutputFormat"), name);
            assertEquals(ReaderTables.SERDE, map(storage.get("SerdeInfo")).get("SerializationLibrary"), name + ": SerDe");
            assertEquals(columns(table.columns()), values(storage.get("Columns")), name + ": columns (the contract's fields and types)");
            assertEquals(columns(table.partitions()), values(input.getOrDefault("PartitionKeys", List.of())), name + ": partition keys");
            Map<String, String> parameters = new java.util.TreeMap<>();
            map(input.getOrDefault("Parameters", Map.of())).forEach((k, v) -> parameters.put(k, resolver.string(v)));
            assertEquals(new java.util.TreeMap<>(table.parameters(bucket)), parameters, name + ": partition projection");
            if (!table.partitions().isEmpty()) {
                assertTrue(parameters.get("storage.location.template").endsWith("unit=${unit}/"), name);
            }
        }
    }

    private static List<Object> columns(List<ReaderTables.Column> columns) {
        return columns.stream().map(c -> (Object) Map.of("Name", c.name(), "Type", c.type())).toList();
    }

    @Test
    void readers_workGroupEnforcesItsResultsUnderTheLakesAthenaPrefixWhichExpires() {
        String bucket = resolver.string(Map.of("Ref", bucketResource("LAKE_BUCKET")));
        List<String> groups = resourcesOfType("AWS::Athena::WorkGroup");
        assertEquals(1, groups.size(), "Athena workgroups");
        Map<String, Object> configuration = map(properties(groups.get(0)).get("WorkGroupConfiguration"));
        assertEquals(Boolean.TRUE, configuration.get("EnforceWorkGroupConfiguration"), "the workgroup's settings override the client's");
        assertEquals("s3://" + bucket + "/" + LakeLayout.ATHENA_RESULTS_PREFIX,
                resolver.string(map(configuration.get("ResultConfiguration")).get("OutputLocation")));
        assertFalse(LakeLayout.ATHENA_RESULTS_PREFIX.startsWith(LakeLayout.PUBLISHED_PREFIX));
        List<Object> rules = values(map(properties(bucketResource("LAKE_BUCKET")).get("LifecycleConfiguration")).get("Rules"));
        assertTrue(rules.stream().map(TemplateIT::map).anyMatch(r -> LakeLayout.ATHENA_RESULTS_PREFIX.equals(r.get("Prefix"))
                && r.get("ExpirationInDays") instanceof Number), "no lifecycle expiry for " + LakeLayout.ATHENA_RESULTS_PREFIX);
    }

    @Test
    void readers_policyReadsPublishedAndStatusQueriesTheWorkGroupAndNothingElse() {
        List<Statement> reader = values(map(transformedProperties("ReaderPolicy").get("PolicyDocument")).get("Statement")).stream()
                .map(s -> statement(map(s))).toList();
        Lake lake = lake();
        String bucketArn = lake.bucket();
        for (String dataset : datasets) {
            assertTrue(allows(reader, "s3:GetObject", lake.published()), "reader cannot read " + lake.published());
            assertTrue(allows(reader, "s3:GetObject", bucketArn + "/" + LakeLayout.statusKey(dataset)), "reader cannot read _status/");
            for (String table : List.of(dataset, dataset + ReaderTables.STATUS_SUFFIX)) {
                String arn = "arn:aws:glue:" + REGION + ":" + ACCOUNT + ":table/" + resolver.string(Map.of("Ref", "ReaderDatabase")) + "/" + table;
                for (String action : List.of("glue:GetTable", "glue:GetPartitions")) {
                    assertTrue(allows(reader, action, arn), "reader cannot " + action + " " + arn);
                }
            }
        }
        String workGroup = "arn:aws:athena:" + REGION + ":" + ACCOUNT + ":workgroup/" + resolver.string(Map.of("Ref", "ReaderWorkGroup"));
        for (String action : List.of("athena:StartQueryExecution", "athena:GetQueryExecution", "athena:GetQueryResults")) {
            assertTrue(allows(reader, action, workGroup), "reader cannot " + action + " in " + workGroup);
        }
        assertFalse(allows(reader, "athena:StartQueryExecution", "arn:aws:athena:" + REGION + ":" + ACCOUNT + ":workgroup/primary"));
        assertTrue(allows(reader, "s3:PutObject", bucketArn + "/_athena/q.csv") && allows(reader, "s3:GetObject", bucketArn + "/_athena/q.csv"));
        for (String prefix : List.of(LakeLayout.STAGING_PREFIX, LakeLayout.QUARANTINE_PREFIX, LakeLayout.REPORTS_PREFIX)) {
            assertFalse(allows(reader, "s3:GetObject", bucketArn + "/" + prefix + "x"), "reader may read " + prefix);
        }
        for (String action : OBJECT_WRITE_ACTIONS) {
            assertFalse(allows(reader, action, lake.published()), "reader may " + action + " " + lake.published());
            assertFalse(allows(reader, action, bucketArn + "/" + LakeLayout.statusKey(datasets.get(0))), "reader may " + action + " _status/");
        }
        assertFalse(reader.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> a.startsWith("dynamodb:") || a.startsWith("lambda:"))));
    }

    @Test
    void dashboard_bodyIsJson() throws IOException {
        for (String dashboard : resourcesOfType("AWS::CloudWatch::Dashboard")) {
            Map<String, Object> body = map(readJson(resolver.string(properties(dashboard).get("DashboardBody"))));
            assertFalse(list(body.get("widgets")).isEmpty(), dashboard + " has no widgets");
        }
    }

    // ---- template model -----------------------------------------------------------------------------------------

    private static List<String> functions() {
        return resourcesOfType("AWS::Serverless::Function");
    }

    private static List<String> resourcesOfType(String type) {
        return resources.entrySet().stream().filter(e -> type.equals(map(e.getValue()).get("Type"))).map(Map.Entry::getKey).toList();
    }

    private static List<String> transformedResourcesOfType(String type) {
        return transformedResources.entrySet().stream().filter(e -> type.equals(map(e.getValue()).get("Type"))).map(Map.Entry::getKey).toList();
    }

    private static Map<String, Object> transformedProperties(String resource) {
        Object r = transformedResources.get(resource);
        assertNotNull(r, "no resource " + resource + " in the transformed template");
        return map(map(r).get("Properties"));
    }

    /** The logical id of the AWS::Lambda::Alias SAM made for a function's AutoPublishAlias. */
    private static String alias(String function) {
        String name = resolver.string(property(function, "AutoPublishAlias"));
        List<String> aliases = transformedResourcesOfType("AWS::Lambda::Alias").stream()
                .filter(a -> Map.of("Ref", function).equals(transformedProperties(a).get("FunctionName"))
                        && name.equals(transformedProperties(a).get("Name"))).toList();
        assertEquals(1, aliases.size(), function + ": aliases named " + name);
        return aliases.get(0);
    }

    /** The logical id a {@code Ref} names. */
    private static String referenced(Object value, String what) {
        assertTrue(value instanceof Map<?, ?> m && m.get("Ref") instanceof String, what + " is not a Ref: " + value);
        return (String) map(value).get("Ref");
    }

    private static Map<String, Object> properties(String resource) {
        Object r = resources.get(resource);
        assertNotNull(r, "no resource " + resource);
        return map(map(r).get("Properties"));
    }

    private static Map<String, Object> globalsFunction() {
        return map(map(template.getOrDefault("Globals", Map.of())).getOrDefault("Function", Map.of()));
    }

    /** A function's property, or the Globals' when the function does not set it. */
    private static Object property(String function, String name) {
        Object own = properties(function).get(name);
        return own != null ? own : globalsFunction().get(name);
    }

    /** Globals' variables, then the function's own (SAM merges them the same way). */
    private static Map<String, Object> environment(String function) {
        Map<String, Object> variables = new LinkedHashMap<>();
        for (Map<String, Object> level : List.of(globalsFunction(), properties(function))) {
            Object environment = level.get("Environment");
            if (environment != null) {
                variables.putAll(map(map(environment).getOrDefault("Variables", Map.of())));
            }
        }
        return variables;
    }

    private static String function(Class<?> handler) {
        List<String> matching = functions().stream()
                .filter(f -> ((String) property(f, "Handler")).split("::")[0].equals(handler.getName())).toList();
        assertEquals(1, matching.size(), "functions with handler " + handler.getName());
        return matching.get(0);
    }

    private static String referencedResource(Object value, String what) {
        assertTrue(value instanceof Map<?, ?> m && m.get("Ref") instanceof String, what + " is not a !Ref to a resource: " + value);
        String name = (String) map(value).get("Ref");
        assertTrue(resources.containsKey(name), what + " refers to " + name + ", not a resource");
        return name;
    }

    /** The bucket resource whose name is what the functions' {@code variable} holds. */
    private static String bucketResource(String variable) {
        String name = bucketName(variable);
        List<String> buckets = resourcesOfType("AWS::S3::Bucket").stream()
                .filter(b -> name.equals(resolver.string(Map.of("Ref", b)))).toList();
        assertEquals(1, buckets.size(), "buckets named " + name + " (" + variable + ")");
        return buckets.get(0);
    }

    private static String bucketName(String variable) {
        return resolver.string(environment(function(ValidateObjectHandler.class)).get(variable));
    }

    private static String inboxBucketArn() {
        return "arn:aws:s3:::" + bucketName(FunctionConfig.INBOX_BUCKET);
    }

    private static String inboxObject(String dataset) {
        return inboxBucketArn() + "/" + dataset + "/" + dataset + "-" + UNIT + ".jsonl";
    }

    private static String tableArn(String variable) {
        return resolver.string(Map.of("Fn::GetAtt", List.of(referencedResource(
                environment(function(ValidateObjectHandler.class)).get(variable), variable), "Arn")));
    }

    /** Object ARNs in the lake, built with the code's own layout. */
    private record Lake(String bucket) {
        String object(String key) {
            return bucket + "/" + key;
        }

        String published() {
            return object(LakeLayout.publishedKey("progress_events", UNIT));
        }

        String staging() {
            return object(LakeLayout.stagingKey("progress_events", UNIT, "run-1"));
        }

        String quarantine() {
            return object(LakeLayout.quarantineKey("progress_events", UNIT, "0".repeat(64), 1));
        }

        String report() {
            return object(CompletenessSweep.REPORTS_PREFIX + "progress_events/latest.json");
        }
    }

    private static Lake lake() {
        return new Lake("arn:aws:s3:::" + bucketName(FunctionConfig.LAKE_BUCKET));
    }

    private record Statement(String sid, String effect, Object principal, List<String> actions, List<String> resources,
                             Map<String, Object> condition) {
    }

    private static Statement statement(Map<String, Object> s) {
        return new Statement((String) s.get("Sid"), (String) s.get("Effect"), s.get("Principal"),
                values(s.get("Action")).stream().map(String::valueOf).toList(),
                values(s.get("Resource")).stream().map(transformedResolver::string).toList(),
                s.get("Condition") == null ? Map.of() : map(s.get("Condition")));
    }

    /**
     * Every role's permission statements in the transformed template: each function's (keyed by the function's logical
     * id, found through its Role) and every other AWS::IAM::Role's (keyed by the role's logical id).
     */
    private static Map<String, List<Statement>> roles() {
        Map<String, List<Statement>> roles = new LinkedHashMap<>();
        Set<String> functionRoles = new HashSet<>();
        for (String function : functions()) {
            String role = functionRole(function);
            assertTrue(functionRoles.add(role), function + " shares its role " + role + " with another function");
            roles.put(function, roleStatements(role));
        }
        for (String role : transformedResourcesOfType("AWS::IAM::Role")) {
            if (!functionRoles.contains(role)) {
                roles.put(role, roleStatements(role));
            }
        }
        assertTrue(transformedResourcesOfType("AWS::IAM::Policy").isEmpty(), "standalone IAM policies: keep permissions with their role");
        // the one managed policy is for consumers' own roles (readers_policy...): attached to nothing in the stack
        assertEquals(List.of("ReaderPolicy"), transformedResourcesOfType("AWS::IAM::ManagedPolicy"), "managed policies");
        for (String attachment : List.of("Roles", "Users", "Groups")) {
            assertFalse(transformedProperties("ReaderPolicy").containsKey(attachment), "ReaderPolicy is attached to " + attachment);
        }
        return roles;
    }

    /** The logical id of the AWS::IAM::Role a function runs with, in the transformed template. */
    private static String functionRole(String function) {
        Map<String, Object> lambda = transformedProperties(function);
        Object role = lambda.get("Role");
        assertTrue(role instanceof Map<?, ?> m && m.get("Fn::GetAtt") instanceof List<?> att && "Arn".equals(att.get(1)),
                function + ": Role must be the GetAtt Arn of an AWS::IAM::Role in the template, not " + role);
        String name = (String) list(map(role).get("Fn::GetAtt")).get(0);
        assertEquals("AWS::IAM::Role", map(transformedResources.get(name)).get("Type"), function + ": Role " + name);
        return name;
    }

    private static List<Statement> roleStatements(String role) {
        Map<String, Object> properties = transformedProperties(role);
        assertFalse(properties.containsKey("ManagedPolicyArns"), role + " carries managed policies " + properties.get("ManagedPolicyArns")
                + " (SAM adds AWSLambdaBasicExecutionRole to every role it generates: give the function an explicit Role)");
        List<Statement> statements = new ArrayList<>();
        for (Object policy : values(properties.get("Policies"))) {
            values(map(map(policy).get("PolicyDocument")).get("Statement")).forEach(s -> statements.add(statement(map(s))));
        }
        return statements;
    }

    private static List<Statement> role(Class<?> handler) {
        return roles().get(function(handler));
    }

    private static List<Statement> bucketPolicy(String variable) {
        String bucket = bucketResource(variable);
        List<String> policies = resourcesOfType("AWS::S3::BucketPolicy").stream()
                .filter(p -> Map.of("Ref", bucket).equals(properties(p).get("Bucket"))).toList();
        assertEquals(1, policies.size(), "bucket policies of " + bucket);
        return values(map(properties(policies.get(0)).get("PolicyDocument")).get("Statement")).stream()
                .map(s -> statement(map(s))).toList();
    }

    /** Whether an Allow statement grants {@code action} on {@code resource} (conditions ignored: an allow is an allow). */
    private static boolean allows(List<Statement> role, String action, String resource) {
        return role.stream().anyMatch(s -> s.effect().equals("Allow")
                && s.actions().stream().anyMatch(p -> globMatches(p, action, true))
                && s.resources().stream().anyMatch(p -> globMatches(p, resource, false)));
    }

    /** IAM's wildcards: {@code *} any run of characters (slashes included), {@code ?} one; actions ignore case. */
    static boolean globMatches(String pattern, String value, boolean ignoreCase) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(switch (c) {
                case '*' -> ".*";
                case '?' -> ".";
                default -> Pattern.quote(String.valueOf(c));
            });
        }
        return Pattern.compile(regex.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE : 0).matcher(value).matches();
    }

    private static void collectStatements(Object node, List<Map<String, Object>> into) {
        if (node instanceof Map<?, ?> m) {
            if (m.containsKey("Effect") && (m.containsKey("Action") || m.containsKey("NotAction"))) {
                into.add(map(m));
            }
            m.values().forEach(v -> collectStatements(v, into));
        } else if (node instanceof List<?> l) {
            l.forEach(v -> collectStatements(v, into));
        }
    }

    /**
     * Resolves Ref, Fn::GetAtt and Fn::Sub to strings for the template's default parameters, a fixed account and
     * region, and the names the resources declare. What it cannot resolve it renders as {@code {...}}, which the
     * scope test rejects, so an unresolvable ARN never passes a check by accident.
     */
    static final class Resolver {
        private static final Pattern VARIABLE = Pattern.compile("\\$\\{(!?)([^}]+)}");
        private final Map<String, Object> parameters;
        private final Map<String, Object> resources;

        Resolver(Map<String, Object> template) {
            this.parameters = map(template.getOrDefault("Parameters", Map.of()));
            this.resources = map(template.get("Resources"));
        }

        String string(Object value) {
            if (value instanceof String s) {
                return s;
            }
            if (value instanceof Number || value instanceof Boolean) {
                return String.valueOf(value);
            }
            Map<String, Object> m = map(value);
            if (m.size() == 1 && m.containsKey("Ref")) {
                return ref((String) m.get("Ref"));
            }
            if (m.size() == 1 && m.containsKey("Fn::GetAtt")) {
                List<Object> att = list(m.get("Fn::GetAtt"));
                return attribute((String) att.get(0), (String) att.get(1));
            }
            if (m.size() == 1 && m.containsKey("Fn::Join") && list(m.get("Fn::Join")).get(1) instanceof Map<?, ?> split
                    && split.containsKey("Fn::Split")) {
                // !Join [sep, !Split [by, text]]: replaces every `by` in text with sep (the reader database's name)
                List<Object> join = list(m.get("Fn::Join"));
                List<Object> parts = list(map(split).get("Fn::Split"));
                return string(parts.get(1)).replace((String) parts.get(0), (String) join.get(0));
            }
            if (m.size() == 1 && m.containsKey("Fn::Sub")) {
                Object sub = m.get("Fn::Sub");
                String text = sub instanceof List<?> l ? (String) l.get(0) : (String) sub;
                Map<String, Object> locals = sub instanceof List<?> l ? map(l.get(1)) : Map.of();
                Matcher matcher = VARIABLE.matcher(text);
                StringBuilder out = new StringBuilder();
                while (matcher.find()) {
                    String name = matcher.group(2);
                    String replacement;
                    if (!matcher.group(1).isEmpty()) {
                        replacement = "${" + name + "}"; // ${!Literal}
                    } else if (locals.containsKey(name)) {
                        replacement = string(locals.get(name));
                    } else if (name.contains(".") && !name.startsWith("AWS::")) {
                        replacement = attribute(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1));
                    } else {
                        replacement = ref(name);
                    }
                    matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
                }
                matcher.appendTail(out);
                return out.toString();
            }
            return "{" + value + "}";
        }

        private String ref(String name) {
            switch (name) {
                case "AWS::Region":
                    return REGION;
                case "AWS::AccountId":
                    return ACCOUNT;
                case "AWS::Partition":
                    return "aws";
                case "AWS::StackName":
                    return "landing-ledger";
                case "AWS::URLSuffix":
                    return "amazonaws.com";
                default:
                    break;
            }
            if (parameters.containsKey(name)) {
                return string(map(parameters.get(name)).get("Default"));
            }
            if (name.endsWith(".Alias")) {
                // SAM's reference to a function's AutoPublishAlias: the alias ARN
                String function = name.substring(0, name.length() - ".Alias".length());
                String alias = string(property(function, "AutoPublishAlias"));
                return "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:" + ref(function) + ":" + alias;
            }
            Map<String, Object> resource = map(resources.get(name));
            Map<String, Object> properties = map(resource.getOrDefault("Properties", Map.of()));
            Object declared = switch (String.valueOf(resource.get("Type"))) {
                case "AWS::S3::Bucket" -> properties.get("BucketName");
                case "AWS::DynamoDB::Table" -> properties.get("TableName");
                case "AWS::Serverless::Function", "AWS::Lambda::Function" -> properties.get("FunctionName");
                case "AWS::Events::EventBus", "AWS::Scheduler::ScheduleGroup" -> properties.get("Name");
                case "AWS::Logs::LogGroup" -> properties.get("LogGroupName");
                case "AWS::Glue::Database" -> map(properties.get("DatabaseInput")).get("Name");
                case "AWS::Glue::Table" -> map(properties.get("TableInput")).get("Name");
                case "AWS::Athena::WorkGroup" -> properties.get("Name");
                case "AWS::Lambda::Alias" -> "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:"
                        + string(properties.get("FunctionName")) + ":" + string(properties.get("Name"));
                default -> null;
            };
            return declared == null ? "{Ref " + name + "}" : string(declared);
        }

        private String attribute(String name, String attribute) {
            Map<String, Object> resource = map(resources.get(name));
            String type = String.valueOf(resource.get("Type"));
            String key = type + "." + attribute;
            Map<String, Object> properties = map(resource.getOrDefault("Properties", Map.of()));
            return switch (key) {
                case "AWS::S3::Bucket.Arn" -> "arn:aws:s3:::" + ref(name);
                case "AWS::DynamoDB::Table.Arn" -> "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + ref(name);
                case "AWS::DynamoDB::Table.StreamArn" -> "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + ref(name)
                        + "/stream/2026-01-01T00:00:00.000";
                case "AWS::SQS::Queue.Arn" -> "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + string(properties.get("QueueName"));
                case "AWS::SQS::Queue.QueueName" -> string(properties.get("QueueName"));
                case "AWS::Events::EventBus.Arn" -> "arn:aws:events:" + REGION + ":" + ACCOUNT + ":event-bus/" + ref(name);
                case "AWS::Scheduler::ScheduleGroup.Arn" -> "arn:aws:scheduler:" + REGION + ":" + ACCOUNT + ":schedule-group/" + ref(name);
                default -> "{GetAtt " + name + "." + attribute + "}";
            };
        }
    }

    // ---- parsing ------------------------------------------------------------------------------------------------

    /** YAML with CloudFormation's short tags, each read as its long form ({@code !Ref X} -> {@code {Ref: X}}). */
    public static Map<String, Object> parseTemplate(Path path) throws IOException {
        LoaderOptions options = new LoaderOptions();
        Yaml yaml = new Yaml(new CloudFormationConstructor(options));
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return map(yaml.load(reader));
        }
    }

    static final class CloudFormationConstructor extends SafeConstructor {
        private static final List<String> FUNCTIONS = List.of("And", "Base64", "Cidr", "Equals", "FindInMap", "GetAtt",
                "GetAZs", "If", "ImportValue", "Join", "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString",
                "Transform");

        CloudFormationConstructor(LoaderOptions options) {
            super(options);
            register("!Ref", "Ref");
            register("!Condition", "Condition");
            for (String function : FUNCTIONS) {
                register("!" + function, "Fn::" + function);
            }
        }

        private void register(String tag, String key) {
            yamlConstructors.put(new Tag(tag), new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    Object value;
                    if (node instanceof ScalarNode scalar) {
                        String text = constructScalar(scalar);
                        // !GetAtt Resource.Attribute is the short form of [Resource, Attribute]
                        value = key.equals("Fn::GetAtt") ? List.of(text.split("\\.", 2)) : text;
                    } else if (node instanceof SequenceNode sequence) {
                        value = constructSequence(sequence);
                    } else if (node instanceof MappingNode mapping) {
                        value = constructMapping(mapping);
                    } else {
                        throw new IllegalArgumentException("unexpected node for " + tag + ": " + node);
                    }
                    Map<String, Object> intrinsic = new LinkedHashMap<>();
                    intrinsic.put(key, value);
                    return intrinsic;
                }
            });
        }
    }

    /** Strict JSON (jackson-core's parser) into maps, lists, strings, numbers, booleans and nulls. */
    static Object readJson(String text) throws IOException {
        try (JsonParser parser = new JsonFactory().createParser(text)) {
            parser.nextToken();
            Object value = jsonValue(parser);
            assertEquals(null, parser.nextToken(), "trailing content after the JSON value");
            return value;
        }
    }

    private static Object jsonValue(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) {
            throw new IOException("no JSON value");
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                while (parser.nextToken() != JsonToken.END_OBJECT) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.put(name, jsonValue(parser));
                }
                return object;
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(jsonValue(parser));
                }
                return array;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return parser.getNumberValue();
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected JSON token " + token);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        if (!(value instanceof Map<?, ?>)) {
            fail("expected a mapping, found " + value);
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        if (!(value instanceof List<?>)) {
            fail("expected a list, found " + value);
        }
        return (List<Object>) value;
    }

    /** A value that IAM and CloudFormation accept as one item or a list of them, as a list. */
    private static List<Object> values(Object value) {
        if (value == null) {
            return List.of();
        }
        return value instanceof List<?> l ? new ArrayList<>(l) : List.of(value);
    }
}
