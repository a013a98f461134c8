package io.landingledger.lambda;

import static io.landingledger.lambda.testing.TemplateModel.ACCOUNT;
import static io.landingledger.lambda.testing.TemplateModel.REGION;
import static io.landingledger.lambda.testing.TemplateModel.allows;
import static io.landingledger.lambda.testing.TemplateModel.collectStatements;
import static io.landingledger.lambda.testing.TemplateModel.list;
import static io.landingledger.lambda.testing.TemplateModel.map;
import static io.landingledger.lambda.testing.TemplateModel.readJson;
import static io.landingledger.lambda.testing.TemplateModel.referenced;
import static io.landingledger.lambda.testing.TemplateModel.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;


import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.reader.ReaderTables;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.ConsumerReceiptHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.TableEnqueueHandler;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.lambda.handlers.ValidateObjectHandler;
import io.landingledger.lambda.testing.TemplateModel;
import io.landingledger.lambda.testing.TemplateModel.Lake;
import io.landingledger.localcloud.iam.Wildcard;
import io.landingledger.lambda.testing.TemplateModel.Statement;

import java.io.IOException;
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
import java.util.List;
import java.util.LinkedHashMap;
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
    /**
     * The table writer's own artifact (functions/tables, docs/design.md section 12): Iceberg and Parquet stay out of the
     * shared jar. It is packaged after this module's tests run, so its classes are checked in its own module.
     */
    private static final Path TABLES_JAR = ROOT.resolve("functions/tables/target/landing-tables.jar");
    private static final String TABLE_WRITER = "io.landingledger.tables.TableWriterHandler";

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

    private static TemplateModel model;
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
        model = TemplateModel.load(ROOT);
        try (Stream<Path> files = Files.list(ROOT.resolve("datasets"))) {
            datasets = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json"))
                    .map(name -> name.substring(0, name.length() - ".json".length())).sorted().toList();
        }
        assertFalse(datasets.isEmpty(), "no contracts in datasets/");
    }

    // ---- functions ----------------------------------------------------------------------------------------------

    @Test
    void handlers_areClassesInTheSharedJarThatImplementRequestHandler() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run `mvn verify`, which packages it before this test");
        // the jar alone, as Lambda loads it: its own RequestStreamHandler (TypedHandler), nothing from the test classpath
        try (URLClassLoader jar = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> requestHandler = jar.loadClass("com.amazonaws.services.lambda.runtime.RequestStreamHandler");
            for (String function : model.functions()) {
                String handler = (String) model.property(function, "Handler");
                assertNotNull(handler, function + " has no Handler");
                String[] parts = handler.split("::", 2);
                if (parts[0].equals(TABLE_WRITER)) {
                    continue; // in the table writer's jar (codeUri_isTheSharedJarForEveryFunctionButTheTableWriter)
                }
                Class<?> type;
                try {
                    type = Class.forName(parts[0], false, jar); // not initialized: no environment is read
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(function + ": handler class " + parts[0] + " is not in " + JAR, e);
                }
                assertTrue(requestHandler.isAssignableFrom(type), function + ": " + parts[0] + " does not implement RequestStreamHandler");
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
        Set<String> handlers = model.functions().stream().map(f -> ((String) model.property(f, "Handler")).split("::")[0])
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of(ValidateObjectHandler.class.getName(), CompletenessSweepHandler.class.getName(),
                RepairHandler.class.getName(), ConsumerReceiptHandler.class.getName(),
                // the sharded sweep (issue 26): planner, worker, change recorder
                "io.landingledger.lambda.handlers.SweepPlannerHandler", "io.landingledger.lambda.handlers.SweepShardHandler",
                "io.landingledger.lambda.handlers.SweepChangeHandler",
                // the analyst's tables (issue 31): the ledger stream's enqueue, and the writer in its own artifact
                "io.landingledger.lambda.handlers.TableEnqueueHandler", TABLE_WRITER)), handlers);
    }

    @Test
    void codeUri_isTheSharedJarForEveryFunctionButTheTableWriter() throws IOException {
        for (String function : model.functions()) {
            Object codeUri = model.property(function, "CodeUri");
            assertTrue(codeUri instanceof String, function + ": CodeUri must be the local jar, not " + codeUri);
            Path artifact = TEMPLATE.getParent().resolve((String) codeUri).normalize();
            boolean writer = ((String) model.property(function, "Handler")).startsWith(TABLE_WRITER + "::");
            Path expected = writer ? TABLES_JAR : JAR;
            assertEquals(expected.toAbsolutePath().normalize(), artifact.toAbsolutePath().normalize(), function + ": CodeUri");
        }
    }

    @Test
    void environment_setsEveryTemplateVariableForEveryFunctionAndNoEndpointOverride() {
        for (String function : model.functions()) {
            Map<String, Object> variables = model.environment(function);
            for (String variable : FunctionConfig.TEMPLATE_VARIABLES) {
                assertTrue(variables.containsKey(variable), function + " does not set " + variable);
                assertFalse(model.string(variables.get(variable)).isBlank(), function + ": " + variable + " is blank");
            }
            for (String variable : variables.keySet()) {
                assertFalse(variable.startsWith("LANDING_"), function + " sets " + variable
                        + ": endpoint overrides are for emulators, never for a deployed function");
            }
        }
    }

    @Test
    void runtime_isJava21OnArm64WithSnapStartOnPublishedVersions() {
        for (String function : model.functions()) {
            assertEquals("java21", model.property(function, "Runtime"), function + ": Runtime (java17 can no longer be created)");
            assertEquals(List.of("arm64"), model.property(function, "Architectures"), function + ": Architectures");
            // the table writer runs behind a queue with no SnapStart: a snapshot would freeze its catalog client
            String snapStart = function.equals(tableWriter()) ? "None" : "PublishedVersions";
            assertEquals(snapStart, model.string(map(model.property(function, "SnapStart")).get("ApplyOn")),
                    function + ": SnapStart by default (SnapStartApplyOn None only where the Region has none)");
            assertNotNull(model.property(function, "AutoPublishAlias"), function + ": SnapStart needs a published version (AutoPublishAlias)");
        }
    }

    // ---- tables -------------------------------------------------------------------------------------------------

    @Test
    void tables_haveTheKeySchemasOfLedgerTables() {
        assertTableMatches(FunctionConfig.LEDGER_TABLE, LedgerTables.ledger("x").build());
        assertTableMatches(FunctionConfig.LEDGER_HISTORY_TABLE, LedgerTables.ledgerHistory("x").build());
        // the receipt function and the sweep name the same Consumers table, retained like the ledger's
        assertTableMatches(ConsumerReceiptHandler.class, FunctionConfig.CONSUMERS_TABLE, ConsumersTable.definition("x").build());
        assertEquals(model.environment(model.function(ConsumerReceiptHandler.class)).get(FunctionConfig.CONSUMERS_TABLE),
                model.environment(model.function(CompletenessSweepHandler.class)).get(FunctionConfig.CONSUMERS_TABLE));
    }

    private static void assertTableMatches(String variable, CreateTableRequest expected) {
        assertTableMatches(ValidateObjectHandler.class, variable, expected);
    }

    private static void assertTableMatches(Class<?> handler, String variable, CreateTableRequest expected) {
        String table = model.referencedResource(model.environment(model.function(handler)).get(variable), variable);
        Map<String, Object> properties = model.properties(table);
        List<String> keySchema = list(properties.get("KeySchema")).stream().map(TemplateModel::map)
                .map(key -> key.get("AttributeName") + ":" + key.get("KeyType")).toList();
        assertEquals(expected.keySchema().stream().map(key -> key.attributeName() + ":" + key.keyTypeAsString()).toList(),
                keySchema, table + " KeySchema (LedgerTables is the definition)");
        Set<String> attributes = list(properties.get("AttributeDefinitions")).stream().map(TemplateModel::map)
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
        collectStatements(model.transformed, statements);
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
        collectStatements(model.transformed, statements);
        for (Map<String, Object> statement : statements) {
            for (Object resource : values(statement.get("Resource"))) {
                boolean xrayOnly = values(statement.get("Action")).stream().allMatch(XRAY_WRITE_ACTIONS::contains);
                assertFalse("*".equals(resource) && !xrayOnly, "Resource \"*\" in the transformed template: " + statement);
            }
        }
        for (String role : model.transformedResourcesOfType("AWS::IAM::Role")) {
            assertFalse(model.transformedProperties(role).containsKey("ManagedPolicyArns"), role + ": "
                    + model.transformedProperties(role).get("ManagedPolicyArns"));
        }
        assertFalse(String.valueOf(model.transformed).contains("AWSLambdaBasicExecutionRole"), "AWSLambdaBasicExecutionRole in the transformed template");
    }

    @Test
    void iam_everyRoleStatementHasItsOwnSidAndNamesABucketPrefixOrATable() {
        for (Map.Entry<String, List<Statement>> role : model.roles().entrySet()) {
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
        List<Statement> validator = model.role(ValidateObjectHandler.class);
        assertIngestPath("validator", validator);
    }

    @Test
    void iam_validatorCannotDeleteFromPublishedNorTouchReportsNorWriteOutsideItsPrefixes() {
        List<Statement> validator = model.role(ValidateObjectHandler.class);
        Lake lake = model.lake();
        for (String action : List.of("s3:DeleteObject", "s3:DeleteObjectVersion")) {
            assertFalse(allows(validator, action, lake.published()), "validator may " + action + " " + lake.published());
        }
        for (String action : OBJECT_ACTIONS) {
            assertFalse(allows(validator, action, lake.report()), "validator may " + action + " " + lake.report());
        }
        for (String action : OBJECT_WRITE_ACTIONS) {
            for (String object : List.of(lake.object("elsewhere/x.json"), lake.object("published.json"), model.inboxObject(datasets.get(0)))) {
                assertFalse(allows(validator, action, object), "validator may " + action + " " + object);
            }
        }
        // datasets are registered at run time: the validator reads versions of any inbox object, never the current one
        assertTrue(allows(validator, "s3:GetObjectVersion", model.inboxObject("registered_later")), "validator cannot read a new dataset's inbox");
        assertFalse(allows(validator, "s3:GetObject", model.inboxObject("registered_later")), "validator GETs current inbox versions");
    }

    /** The contract store (the lake's _contracts/): every function that routes or sweeps reads it, none writes it. */
    @Test
    void iam_everyFunctionReadsTheContractStoreAndNoneWritesIt() {
        Lake lake = model.lake();
        String contract = lake.object(S3ContractStore.key("registered_later", 3));
        Map<String, List<Statement>> roles = model.roles();
        for (String function : model.functions()) {
            if (function.equals("SweepChangeFunction") || function.equals("TableEnqueueFunction")) {
                // the change recorder routes nothing: a key's first segment names the dataset whose marker it writes;
                // the table enqueue passes names from the ledger's stream on
                assertFalse(allows(roles.get(function), "s3:GetObject", contract), function + " reads contracts it never uses");
                continue;
            }
            assertTrue(allows(roles.get(function), "s3:GetObject", contract), function + " cannot read the contract store");
        }
        for (Map.Entry<String, List<Statement>> role : roles.entrySet()) {
            for (String action : OBJECT_WRITE_ACTIONS) {
                assertFalse(allows(role.getValue(), action, contract), role.getKey() + " may " + action + " the contract store");
            }
        }
    }

    /** The operator's policy for `landing dataset`: write contract versions and create reader tables, nothing else in the lake. */
    @Test
    void iam_theContractAdminPolicyWritesContractVersionsAndReaderTablesOnly() {
        List<Statement> admin = model.managedPolicy("ContractAdminPolicy");
        Lake lake = model.lake();
        assertTrue(allows(admin, "s3:PutObject", lake.object(S3ContractStore.key("orders", 1))), "the operator cannot write a contract version");
        assertTrue(allows(admin, "s3:GetObject", lake.object(S3ContractStore.key("orders", 1))), "the operator cannot read a contract version");
        for (String object : List.of(lake.published(), lake.report(), lake.staging(), lake.object(LakeLayout.statusKey("orders")))) {
            for (String action : OBJECT_ACTIONS) {
                assertFalse(allows(admin, action, object), "the operator's policy may " + action + " " + object);
            }
        }
        for (String action : List.of("glue:CreateTable", "glue:UpdateTable", "glue:GetTable")) {
            assertTrue(admin.stream().anyMatch(st -> st.actions().contains(action)), "the operator's policy lacks " + action);
        }
    }

    @Test
    void iam_sweepReadsAndWritesReportsButCannotWritePublished() {
        List<Statement> sweep = model.role(CompletenessSweepHandler.class);
        Lake lake = model.lake();
        assertTrue(allows(sweep, "s3:PutObject", lake.report()), "sweep cannot write " + lake.report());
        assertTrue(allows(sweep, "s3:PutObject", lake.object(LakeLayout.statusKey("progress_events"))), "sweep cannot write _status/");
        assertTrue(allows(sweep, "s3:ListBucketVersions", model.inboxBucketArn()), "sweep cannot ListObjectVersions the inbox");
        assertTrue(allows(sweep, "s3:ListBucket", lake.bucket()), "sweep cannot list the lake");
        assertTrue(allows(sweep, "s3:GetObject", lake.published()), "sweep cannot HEAD published/");
        // the sweep takes version ids and ETags from ListObjectVersions (CompletenessSweepIT: 0 HEADs on the inbox)
        for (String dataset : datasets) {
            for (String action : List.of("s3:GetObject", "s3:GetObjectVersion", "s3:GetObjectAttributes")) {
                assertFalse(allows(sweep, action, model.inboxObject(dataset)), "sweep may " + action + " " + model.inboxObject(dataset)
                        + ": it reads no inbox object, only the version listing");
            }
        }
        assertFalse(allows(sweep, "s3:ListBucket", model.inboxBucketArn()), "sweep may ListObjectsV2 the inbox: it lists versions only");
        assertTrue(allows(sweep, "dynamodb:GetItem", model.tableArn(FunctionConfig.LEDGER_TABLE)), "sweep cannot GetItem the ledger");
        assertTrue(allows(sweep, "dynamodb:Query", model.tableArn(FunctionConfig.LEDGER_TABLE)), "sweep cannot Query the ledger");
        for (String action : OBJECT_WRITE_ACTIONS) {
            assertFalse(allows(sweep, action, lake.published()), "sweep may " + action + " " + lake.published());
        }
    }

    @Test
    void iam_repairCanRunTheIngestPathAndListUnits() {
        List<Statement> repair = model.role(RepairHandler.class);
        assertIngestPath("repair", repair);
        assertTrue(allows(repair, "s3:ListBucket", model.inboxBucketArn()), "repair cannot list the inbox");
        assertTrue(allows(repair, "dynamodb:Query", model.tableArn(FunctionConfig.LEDGER_TABLE)), "repair cannot Query the ledger");
        assertFalse(allows(repair, "s3:DeleteObject", model.lake().published()), "repair may delete from published/");
    }

    @Test
    void iam_noRoleCanChangeBucketPolicies() {
        for (Map.Entry<String, List<Statement>> role : model.roles().entrySet()) {
            for (Statement statement : role.getValue()) {
                for (String action : BUCKET_GUARD_ACTIONS) {
                    assertFalse(statement.effect().equals("Allow") && statement.actions().stream().anyMatch(p -> Wildcard.matchesIgnoreCase(p, action)),
                            role.getKey() + " " + statement.sid() + " allows " + action);
                }
            }
        }
    }

    @Test
    void iam_historyIsAppendOnlyAndNothingScansOrDeletesLedgerItems() {
        String ledger = model.tableArn(FunctionConfig.LEDGER_TABLE);
        String history = model.tableArn(FunctionConfig.LEDGER_HISTORY_TABLE);
        for (Map.Entry<String, List<Statement>> role : model.roles().entrySet()) {
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
        Lake lake = model.lake();
        for (String dataset : Stream.concat(datasets.stream(), Stream.of("registered_later")).toList()) {
            assertTrue(allows(role, "s3:GetObjectVersion", model.inboxObject(dataset)), name + " cannot read " + dataset + " inbox versions");
            // every inbox read names a version (the inbox is versioned): s3:GetObject, for the current version, is not needed
            assertFalse(allows(role, "s3:GetObject", model.inboxObject(dataset)), name + " may GET the " + dataset
                    + " inbox's current version: LeastPrivilegeIT finds no such call");
        }
        assertTrue(allows(role, "s3:ListBucket", model.inboxBucketArn()), name + ": a missing inbox object would be 403, not 404");
        assertTrue(allows(role, "s3:ListBucketVersions", model.inboxBucketArn()), name + " cannot ListObjectVersions the inbox (UnitInputs)");
        assertTrue(allows(role, "s3:ListBucket", lake.bucket()), name + ": a missing publish would be 403, not 404");
        for (String action : List.of("s3:PutObject", "s3:AbortMultipartUpload", "s3:GetObject", "s3:DeleteObject")) {
            assertTrue(allows(role, action, lake.staging()), name + " cannot " + action + " " + lake.staging());
        }
        assertTrue(allows(role, "s3:PutObject", lake.quarantine()), name + " cannot write quarantine");
        for (String action : List.of("s3:PutObject", "s3:AbortMultipartUpload", "s3:GetObject")) {
            assertTrue(allows(role, action, lake.published()), name + " cannot " + action + " " + lake.published());
        }
        for (String action : List.of("dynamodb:GetItem", "dynamodb:UpdateItem")) {
            assertTrue(allows(role, action, model.tableArn(FunctionConfig.LEDGER_TABLE)), name + " cannot " + action + " the ledger");
        }
        // TransactWriteItems is authorized as UpdateItem on the ledger plus PutItem on the history table
        assertTrue(allows(role, "dynamodb:PutItem", model.tableArn(FunctionConfig.LEDGER_HISTORY_TABLE)), name + " cannot append history");
    }

    // ---- buckets ------------------------------------------------------------------------------------------------

    @Test
    void lakeBucketPolicy_deniesAPublishWithoutIfNoneMatchOrIfMatchExceptMultipartParts() {
        Lake lake = model.lake();
        List<Statement> policy = model.bucketPolicy(FunctionConfig.LAKE_BUCKET);
        List<Statement> denies = policy.stream().filter(s -> s.effect().equals("Deny")
                && s.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, "s3:PutObject"))
                && s.resources().stream().anyMatch(r -> Wildcard.matches(r, lake.published()))
                && s.condition().containsKey("Null") && !s.condition().containsKey("StringNotEquals")).toList();
        assertEquals(1, denies.size(), "one Deny of s3:PutObject on published/* with a Null condition: " + policy);
        // and an If-None-Match other than "*" (S3 answers 501 to it) is refused, but only when the header is present
        assertTrue(policy.stream().anyMatch(s -> s.effect().equals("Deny") && s.actions().contains("s3:PutObject")
                && s.resources().stream().anyMatch(r -> Wildcard.matches(r, lake.published()))
                && Map.of("s3:if-none-match", "false").equals(s.condition().get("Null"))
                && Map.of("s3:if-none-match", "*").equals(s.condition().get("StringNotEquals"))), "no Deny of a bogus If-None-Match: " + policy);
        Statement deny = denies.get(0);
        assertEquals("*", deny.principal(), "the deny applies to every principal");
        assertEquals(Map.of("s3:if-none-match", "true", "s3:if-match", "true"), deny.condition().get("Null"),
                "denied when neither conditional header is present");
        assertEquals(Map.of("s3:ObjectCreationOperation", "true"), deny.condition().get("Bool"),
                "CreateMultipartUpload, UploadPart and UploadPartCopy (ObjectCreationOperation false) are exempt");
        assertEquals(Set.of("Null", "Bool"), deny.condition().keySet());
        for (String other : List.of(lake.staging(), lake.quarantine(), lake.report())) {
            assertFalse(deny.resources().stream().anyMatch(r -> Wildcard.matches(r, other)),
                    "the conditional-write deny must not cover " + other + " (those writes carry no condition)");
        }
    }

    /** Issue 30, finding 3: under _contracts/ only a create is a write, for everyone; the operator's grant is a create. */
    @Test
    void lakeBucketPolicy_finding3_refusesEveryContractWriteThatIsNotACreate_andEveryDelete() {
        Lake lake = model.lake();
        String version = lake.object(S3ContractStore.key("orders", 1));
        String record = lake.object(S3ContractStore.sealKey("orders", 1));
        List<Statement> denies = model.bucketPolicy(FunctionConfig.LAKE_BUCKET).stream()
                .filter(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                        && s.resources().stream().anyMatch(r -> Wildcard.matches(r, version) && Wildcard.matches(r, record))).toList();
        assertTrue(denies.stream().anyMatch(s -> s.actions().contains("s3:PutObject")
                && Map.of("s3:if-none-match", "true").equals(s.condition().get("Null"))
                && Map.of("s3:ObjectCreationOperation", "true").equals(s.condition().get("Bool"))), "no Deny of a put without If-None-Match: " + denies);
        assertTrue(denies.stream().anyMatch(s -> s.actions().contains("s3:PutObject")
                && Map.of("s3:if-none-match", "*").equals(s.condition().get("StringNotEquals"))), "no Deny of If-None-Match other than *: " + denies);
        assertTrue(denies.stream().anyMatch(s -> s.actions().containsAll(List.of("s3:DeleteObject", "s3:DeleteObjectVersion"))
                && s.condition().isEmpty()), "no unconditional Deny of DeleteObject: " + denies);
        for (Statement st : model.managedPolicy("ContractAdminPolicy")) {
            if (st.actions().contains("s3:PutObject")) {
                assertEquals(Map.of("StringEquals", Map.of("s3:if-none-match", "*")), st.condition(), st.sid() + " allows more than a create");
            }
        }
    }

    @Test
    void bucketPolicies_refuseInsecureTransportOnBothBuckets() {
        for (String variable : List.of(FunctionConfig.INBOX_BUCKET, FunctionConfig.LAKE_BUCKET)) {
            String bucket = "arn:aws:s3:::" + model.bucketName(variable);
            boolean found = model.bucketPolicy(variable).stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                    && Map.of("aws:SecureTransport", "false").equals(s.condition().get("Bool"))
                    && s.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, "s3:GetObject"))
                    && s.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, "s3:PutObject"))
                    && s.resources().stream().anyMatch(r -> Wildcard.matches(r, bucket))
                    && s.resources().stream().anyMatch(r -> Wildcard.matches(r, bucket + "/any/key")));
            assertTrue(found, variable + ": no Deny for aws:SecureTransport false on the bucket and its objects");
        }
    }

    @Test
    void buckets_blockPublicAccessAndEncryptByDefault() {
        for (String variable : List.of(FunctionConfig.INBOX_BUCKET, FunctionConfig.LAKE_BUCKET)) {
            Map<String, Object> bucket = model.properties(model.bucketResource(variable));
            assertEquals(Map.of("BlockPublicAcls", true, "BlockPublicPolicy", true, "IgnorePublicAcls", true,
                    "RestrictPublicBuckets", true), bucket.get("PublicAccessBlockConfiguration"), variable);
            assertNotNull(bucket.get("BucketEncryption"), variable + ": default encryption");
        }
        assertEquals(Map.of("Status", "Enabled"), model.properties(model.bucketResource(FunctionConfig.INBOX_BUCKET)).get("VersioningConfiguration"),
                "the inbox is versioned: events and repair read by version");
    }

    @Test
    void inbox_notifiesTheValidatorOfEveryCreatedObjectOnce() {
        String inbox = model.bucketResource(FunctionConfig.INBOX_BUCKET);
        String validator = model.function(ValidateObjectHandler.class);
        for (String function : model.functions()) {
            for (Object event : map(model.properties(function).getOrDefault("Events", Map.of())).values()) {
                assertFalse("S3".equals(map(event).get("Type")), function + ": an S3 event source (SAM's permission for it has no "
                        + "SourceArn); write the notification on the bucket with an explicit AWS::Lambda::Permission");
            }
        }
        Map<String, Object> notifications = map(model.transformedProperties(inbox).get("NotificationConfiguration"));
        // Lambda (the validator) and EventBridge (the incremental sweep's change recorder, issue 26)
        assertEquals(Set.of("LambdaConfigurations", "EventBridgeConfiguration"), notifications.keySet(),
                "the inbox notifies Lambda and EventBridge only");
        assertEquals(Map.of("EventBridgeEnabled", true), notifications.get("EventBridgeConfiguration"));
        // one configuration, no filter: a dataset registered at run time reaches the validator without a deploy
        List<Object> configurations = values(notifications.get("LambdaConfigurations"));
        assertEquals(1, configurations.size(), "one notification for the whole inbox: " + configurations);
        Map<String, Object> p = map(configurations.get(0));
        assertEquals(Map.of("Ref", model.alias(validator)), p.get("Function"), "the inbox notifies the validator's live alias");
        assertEquals("s3:ObjectCreated:*", p.get("Event"));
        assertFalse(p.containsKey("Filter"), "no prefix filter: datasets are registered at run time");
    }

    // ---- a real account: roles, trust, retention, quotas, retries (issue 13) -------------------------------------

    @Test
    void iam_eachFunctionHasItsOwnRoleAndWritesOnlyItsOwnLogsAndTraces() {
        Map<String, List<Statement>> roles = model.roles();
        for (String function : model.functions()) {
            List<Statement> role = roles.get(function);
            String logGroup = logGroupName(function);
            String ownStream = logGroupArn(logGroup) + ":log-stream:2026/03/01/[1]0123456789abcdef";
            for (String action : List.of("logs:CreateLogStream", "logs:PutLogEvents")) {
                assertTrue(allows(role, action, ownStream), function + " cannot " + action + " in its own log group " + logGroup);
            }
            for (String function2 : model.functions()) {
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
            if ("Active".equals(model.property(function, "Tracing"))) {
                for (String action : XRAY_WRITE_ACTIONS) {
                    assertTrue(allows(role, action, "*"), function + " traces (Tracing Active) but cannot " + action);
                }
            }
        }
    }

    @Test
    void iam_noGrantOfAnActionThatTakesNoResourceArn() {
        for (Map.Entry<String, List<Statement>> role : model.roles().entrySet()) {
            for (Statement statement : role.getValue()) {
                for (String action : UNSCOPABLE_ACTIONS) {
                    assertFalse(statement.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, action)) && !statement.resources().contains("*"),
                            role.getKey() + " " + statement.sid() + ": " + action + " takes no resource ARN, so a grant on "
                            + statement.resources() + " allows nothing");
                }
            }
        }
    }

    @Test
    void s3InvokePermissions_carryTheInboxArnSpelledOutAndTheAccount() {
        List<String> permissions = model.transformedResourcesOfType("AWS::Lambda::Permission");
        assertFalse(permissions.isEmpty(), "no AWS::Lambda::Permission");
        for (String permission : permissions) {
            Map<String, Object> p = model.transformedProperties(permission);
            assertEquals(Map.of("Ref", "AWS::AccountId"), p.get("SourceAccount"), permission + ": SourceAccount (confused deputy)");
            assertNotNull(p.get("SourceArn"), permission + ": SourceArn (confused deputy)");
            if ("s3.amazonaws.com".equals(p.get("Principal"))) {
                assertTrue(map(p.get("SourceArn")).containsKey("Fn::Sub"), permission
                        + ": spell the inbox ARN out with !Sub (a GetAtt of the bucket is a cycle): " + p.get("SourceArn"));
                assertEquals(model.inboxBucketArn(), model.string(p.get("SourceArn")), permission + ": SourceArn");
                assertEquals(Map.of("Ref", model.alias(model.function(ValidateObjectHandler.class))), p.get("FunctionName"), permission);
            }
        }
    }

    @Test
    void serviceRoles_trustOnlyTheirSourceInThisAccount() {
        for (String role : model.transformedResourcesOfType("AWS::IAM::Role")) {
            for (Object trust : values(map(model.transformedProperties(role).get("AssumeRolePolicyDocument")).get("Statement"))) {
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
                    List<String> groups = model.transformedResourcesOfType("AWS::Scheduler::Schedule").stream().map(model::transformedProperties)
                            .filter(s -> Map.of("Fn::GetAtt", List.of(role, "Arn")).equals(map(s.get("Target")).get("RoleArn")))
                            .map(s -> model.string(Map.of("Fn::GetAtt", List.of(referenced(s.get("GroupName"), "GroupName"), "Arn"))))
                            .distinct().toList();
                    assertEquals(1, groups.size(), role + ": schedules using it must share one schedule group: " + groups);
                    assertNotNull(equals.get("aws:SourceArn"), role + ": no aws:SourceArn (the schedule group's ARN) in its trust");
                    assertEquals(groups.get(0), model.string(equals.get("aws:SourceArn")), role + ": aws:SourceArn");
                }
            }
        }
        assertTrue(model.transformedResourcesOfType("AWS::IAM::Role").stream().anyMatch(r -> String.valueOf(model.transformedProperties(r)
                .get("AssumeRolePolicyDocument")).contains("scheduler.amazonaws.com")), "no Scheduler role");
    }

    @Test
    void tables_areRetainedOnStackDeleteAndReplacement() {
        for (String variable : List.of(FunctionConfig.LEDGER_TABLE, FunctionConfig.LEDGER_HISTORY_TABLE)) {
            String table = model.referencedResource(model.environment(model.function(ValidateObjectHandler.class)).get(variable), variable);
            Map<String, Object> resource = map(model.transformedResources.get(table));
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
        Map<String, Object> parameter = map(map(model.transformed.get("Parameters")).get("InboxRetentionDays"));
        int retention = ((Number) parameter.get("Default")).intValue();
        assertTrue(retention >= lookbackDays + 14, "InboxRetentionDays " + retention + " < the sweep's lookback and grace ("
                + lookbackDays + " days) plus two weeks to repair");
        assertTrue(((Number) parameter.get("MinValue")).intValue() > lookbackDays, "InboxRetentionDays MinValue must exceed "
                + lookbackDays + " days, or the sweep sees inputs vanish while it still watches their units");
        List<Map<String, Object>> rules = list(map(model.properties(model.bucketResource(FunctionConfig.INBOX_BUCKET)).get("LifecycleConfiguration"))
                .get("Rules")).stream().map(TemplateModel::map).filter(r -> "Enabled".equals(r.get("Status"))).toList();
        assertTrue(rules.stream().anyMatch(r -> Map.of("Ref", "InboxRetentionDays").equals(r.get("ExpirationInDays"))
                && !r.containsKey("Prefix") && !r.containsKey("Filter")), "no whole-bucket rule expiring current versions: " + rules);
        assertTrue(rules.stream().anyMatch(r -> r.get("NoncurrentVersionExpiration") instanceof Map<?, ?> n
                && Map.of("Ref", "InboxNoncurrentVersionDays").equals(n.get("NoncurrentDays"))), "no noncurrent-version expiry: " + rules);
        assertTrue(rules.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("ExpiredObjectDeleteMarker"))), "expired delete markers stay");
    }

    @Test
    void memory_defaultsDeployOnAFreshAccount() {
        Map<String, Object> parameters = map(model.transformed.get("Parameters"));
        for (String function : model.transformedResourcesOfType("AWS::Lambda::Function")) {
            int memory = Integer.parseInt(model.string(model.transformedProperties(function).get("MemorySize")));
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
        Map<String, Object> config = eventInvokeConfig(model.function(CompletenessSweepHandler.class));
        assertTrue(((Number) config.get("MaximumRetryAttempts")).intValue() <= 1, "the sweep retries at most once: " + config);
        assertEquals("SweepFailureQueue", assertFailureDestination(model.function(CompletenessSweepHandler.class), config));
    }

    @Test
    void redrive_theValidatorsRetriesAndFailureQueueCoverTheAliasTheSweepAndS3Invoke() {
        String validator = model.function(ValidateObjectHandler.class);
        String sweep = model.function(CompletenessSweepHandler.class);
        String alias = model.alias(validator);
        Map<String, Object> config = eventInvokeConfig(validator);
        assertEquals(map(model.transformedResources.get(alias)).get("Properties") instanceof Map<?, ?> a ? a.get("Name") : null,
                config.get("Qualifier"), "the validator's EventInvokeConfig is on the alias the sweep and S3 invoke");
        assertEquals("ValidatorFailureQueue", assertFailureDestination(validator, config));
        Object target = map(map(model.transformedProperties(sweep).get("Environment")).get("Variables")).get(FunctionConfig.VALIDATOR_FUNCTION);
        assertEquals(Map.of("Ref", alias), target, "the sweep re-drives through the validator's live alias");
        assertTrue(allows(model.roles().get(sweep), "lambda:InvokeFunction", model.string(Map.of("Ref", alias))),
                "the sweep cannot invoke " + model.string(Map.of("Ref", alias)));
    }

    /** The function's one EventInvokeConfig in the transformed template. */
    private static Map<String, Object> eventInvokeConfig(String function) {
        List<Map<String, Object>> configs = model.transformedResourcesOfType("AWS::Lambda::EventInvokeConfig").stream()
                .map(model::transformedProperties).filter(c -> Map.of("Ref", function).equals(c.get("FunctionName"))).toList();
        assertEquals(1, configs.size(), function + ": EventInvokeConfigs");
        return configs.get(0);
    }

    /** Checks the on-failure queue (encrypted, 14 days, alarmed, writable by the function's role); returns its id. */
    private static String assertFailureDestination(String function, Map<String, Object> config) {
        Object destination = map(map(map(config.get("DestinationConfig")).get("OnFailure"))).get("Destination");
        List<Object> att = list(map(destination).get("Fn::GetAtt"));
        String queue = (String) att.get(0);
        assertEquals("AWS::SQS::Queue", map(model.transformedResources.get(queue)).get("Type"), function + ": on-failure destination");
        Map<String, Object> q = model.transformedProperties(queue);
        assertEquals(true, q.get("SqsManagedSseEnabled"), queue + " is encrypted");
        assertEquals(1209600, ((Number) q.get("MessageRetentionPeriod")).intValue(), queue + " keeps 14 days");
        assertTrue(allows(model.roles().get(function), "sqs:SendMessage", model.string(destination)), function
                + "'s role cannot send to " + queue + " (Lambda sends destination records with the function's role)");
        boolean alarmed = model.transformedResourcesOfType("AWS::CloudWatch::Alarm").stream().map(model::transformedProperties)
                .anyMatch(a -> "AWS/SQS".equals(a.get("Namespace")) && "ApproximateNumberOfMessagesVisible".equals(a.get("MetricName"))
                        && values(a.get("Dimensions")).stream().map(TemplateModel::map).anyMatch(d -> "QueueName".equals(d.get("Name"))
                        && Map.of("Fn::GetAtt", List.of(queue, "QueueName")).equals(d.get("Value"))));
        assertTrue(alarmed, "no alarm on " + queue + "'s visible messages");
        return queue;
    }

    @Test
    void inboxBucketPolicy_refusesKmsAndCustomerKeyUploadsAndTheBucketEncryptsWithSseS3() {
        String object = model.inboxObject(datasets.get(0));
        List<Statement> policy = model.bucketPolicy(FunctionConfig.INBOX_BUCKET);
        boolean kms = policy.stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                && s.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, "s3:PutObject"))
                && s.resources().stream().anyMatch(r -> Wildcard.matches(r, object))
                && s.condition().get("StringEquals") instanceof Map<?, ?> m
                && values(m.get("s3:x-amz-server-side-encryption")).containsAll(List.of("aws:kms", "aws:kms:dsse")));
        assertTrue(kms, "no Deny of s3:PutObject with s3:x-amz-server-side-encryption aws:kms / aws:kms:dsse on the inbox: " + policy);
        boolean sseC = policy.stream().anyMatch(s -> s.effect().equals("Deny") && "*".equals(s.principal())
                && s.actions().stream().anyMatch(a -> Wildcard.matchesIgnoreCase(a, "s3:PutObject"))
                && s.resources().stream().anyMatch(r -> Wildcard.matches(r, object))
                && Map.of("s3:x-amz-server-side-encryption-customer-algorithm", "false").equals(s.condition().get("Null")));
        assertTrue(sseC, "no Deny of SSE-C uploads on the inbox: " + policy);
        Object encryption = list(map(model.properties(model.bucketResource(FunctionConfig.INBOX_BUCKET)).get("BucketEncryption"))
                .get("ServerSideEncryptionConfiguration")).get(0);
        assertEquals(Map.of("SSEAlgorithm", "AES256"), map(encryption).get("ServerSideEncryptionByDefault"),
                "the inbox's default encryption stays SSE-S3 (the validator holds no kms:Decrypt)");
        for (List<Statement> role : model.roles().values()) {
            assertFalse(role.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).startsWith("kms:"))),
                    "a role grants kms:*; uploads under KMS are refused at the bucket instead");
        }
    }

    /** {@code AWS_MAX_ATTEMPTS=1 aws lambda invoke ... --cli-read-timeout N}, N above the repair function's timeout. */
    @Test
    void docs_everyDocumentedLambdaInvokeNeitherRetriesNorStopsReadingBeforeTheFunctionEnds() throws IOException {
        int timeout = Integer.parseInt(model.string(model.property(model.function(RepairHandler.class), "Timeout")));
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
        String group = model.referencedResource(map(model.properties(function).get("LoggingConfig")).get("LogGroup"), function + " LoggingConfig.LogGroup");
        return model.string(model.properties(group).get("LogGroupName"));
    }

    private static String logGroupArn(String name) {
        return "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + name;
    }

    // ---- schedule, alarms, events, dashboard --------------------------------------------------------------------

    @Test
    void sweepSchedule_inputEqualsTheSweepScheduleEvent() throws IOException {
        Path event = ROOT.resolve("events/sweep-schedule.json");
        assumeTrue(Files.isRegularFile(event), "events/sweep-schedule.json does not exist yet");
        List<Map<String, Object>> schedules = map(model.property(model.function(CompletenessSweepHandler.class), "Events")).values().stream()
                .map(TemplateModel::map).filter(e -> "ScheduleV2".equals(e.get("Type"))).map(e -> map(e.get("Properties"))).toList();
        assertEquals(1, schedules.size(), "the sweep has one ScheduleV2 event");
        Object input = schedules.get(0).get("Input");
        assertTrue(input instanceof String, "the schedule's Input is a JSON string: " + input);
        assertEquals(readJson(Files.readString(event)), readJson((String) input), "schedule Input vs " + event);
        assertEquals(Map.of("Ref", "SweepSchedule"), schedules.get(0).get("ScheduleExpression"));
    }

    /**
     * Datasets are registered at run time, so the alarms watch the fleet: each metric without the dataset dimension
     * (DatasetMetrics emits both), and none names a dataset.
     */
    @Test
    void alarms_watchTheFleetsUnitsRefusalsAndConsumersWithoutNamingADataset() {
        List<Map<String, Object>> alarms = model.resourcesOfType("AWS::CloudWatch::Alarm").stream().map(model::properties).toList();
        for (String metric : List.of("UnitsExpected", "UnitsOk", "FilesRefused", "UnitsBehindConsumers")) {
            assertTrue(alarms.stream().anyMatch(alarm -> alarmMetrics(alarm).stream().anyMatch(m -> metric.equals(m.get("MetricName")))),
                    "no alarm on LandingLedger " + metric);
        }
        for (Map<String, Object> alarm : alarms) {
            for (Map<String, Object> m : alarmMetrics(alarm)) {
                assertEquals(List.of(), values(m.get("Dimensions")), alarm.get("AlarmName") + ": a LandingLedger alarm names a dimension");
            }
        }
    }

    /**
     * The fleet's alarm on units that fail completeness follows the sweep's own rule: UnitsExpected minus the count of
     * every status that does not fail ({@link UnitStatus#failsCompleteness()}), and nothing else, so a status that is
     * closed (OMITTED, RESTATED, EMPTY_ACCEPTED) can never keep it in alarm and a failing one always raises it.
     */
    @Test
    void unitsAlarm_subtractsExactlyTheStatusesThatDoNotFailCompleteness() {
        Set<String> complete = Arrays.stream(UnitStatus.values()).filter(s -> !s.failsCompleteness()).map(UnitStatus::metricName)
                .collect(Collectors.toCollection(TreeSet::new));
        List<Map<String, Object>> alarms = model.resourcesOfType("AWS::CloudWatch::Alarm").stream().map(model::properties)
                .filter(alarm -> alarm.get("Metrics") != null && values(alarm.get("Metrics")).stream()
                        .anyMatch(q -> map(q).get("MetricStat") != null
                                && "UnitsExpected".equals(map(map(map(q).get("MetricStat")).get("Metric")).get("MetricName"))))
                .toList();
        assertEquals(1, alarms.size(), "one units alarm for the fleet");
        Map<String, String> idToMetric = new LinkedHashMap<>();
        String expression = null;
        for (Object query : values(alarms.get(0).get("Metrics"))) {
            Map<String, Object> q = map(query);
            if (q.get("Expression") != null) {
                expression = (String) q.get("Expression");
            } else {
                idToMetric.put((String) q.get("Id"), (String) map(map(q.get("MetricStat")).get("Metric")).get("MetricName"));
            }
        }
        assertNotNull(expression);
        List<String> terms = Arrays.stream(expression.split("-")).map(String::strip).toList();
        assertEquals("UnitsExpected", idToMetric.get(terms.get(0)), expression);
        Set<String> subtracted = terms.subList(1, terms.size()).stream().map(idToMetric::get)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(complete, subtracted, expression);
    }

    private static List<Map<String, Object>> alarmMetrics(Map<String, Object> alarm) {
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
        return metrics.stream().filter(m -> DatasetMetrics.NAMESPACE.equals(m.get("Namespace"))).toList();
    }

    @Test
    void pipes_emitTheEventsDocumentedInEventsFromTheLedgerStream() throws IOException {
        String ledger = model.referencedResource(model.environment(model.function(ValidateObjectHandler.class)).get(FunctionConfig.LEDGER_TABLE),
                FunctionConfig.LEDGER_TABLE);
        assertEquals(Map.of("StreamViewType", "NEW_IMAGE"), model.properties(ledger).get("StreamSpecification"));
        Set<String> detailTypes = new TreeSet<>();
        for (String pipe : model.resourcesOfType("AWS::Pipes::Pipe")) {
            Map<String, Object> p = model.properties(pipe);
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
            String inputTemplate = model.string(target.get("InputTemplate")).replaceAll("<[^>]+>", "x");
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

    /**
     * The template holds the reader database, not its tables: `landing dataset add` creates each dataset's two tables
     * (the CLI's GlueReaderTablesTest checks them against ReaderTables). Readers may read every table of the database.
     */
    @Test
    void readers_theTemplateHoldsTheDatabaseAndNoDatasetsTable() {
        assertEquals(List.of(), model.resourcesOfType("AWS::Glue::Table"), "a dataset's tables are created at registration");
        assertEquals(1, model.resourcesOfType("AWS::Glue::Database").size());
        List<Statement> reader = model.managedPolicy("ReaderPolicy");
        String table = "arn:aws:glue:" + REGION + ":" + ACCOUNT + ":table/" + model.string(Map.of("Ref", "ReaderDatabase")) + "/registered_later";
        for (String action : List.of("glue:GetTable", "glue:GetPartitions")) {
            assertTrue(allows(reader, action, table), "reader cannot " + action + " " + table);
        }
    }

    @Test
    void readers_workGroupEnforcesItsResultsUnderTheLakesAthenaPrefixWhichExpires() {
        String bucket = model.string(Map.of("Ref", model.bucketResource("LAKE_BUCKET")));
        List<String> groups = model.resourcesOfType("AWS::Athena::WorkGroup");
        assertEquals(1, groups.size(), "Athena workgroups");
        Map<String, Object> configuration = map(model.properties(groups.get(0)).get("WorkGroupConfiguration"));
        assertEquals(Boolean.TRUE, configuration.get("EnforceWorkGroupConfiguration"), "the workgroup's settings override the client's");
        assertEquals("s3://" + bucket + "/" + LakeLayout.ATHENA_RESULTS_PREFIX,
                model.string(map(configuration.get("ResultConfiguration")).get("OutputLocation")));
        assertFalse(LakeLayout.ATHENA_RESULTS_PREFIX.startsWith(LakeLayout.PUBLISHED_PREFIX));
        List<Object> rules = values(map(model.properties(model.bucketResource("LAKE_BUCKET")).get("LifecycleConfiguration")).get("Rules"));
        assertTrue(rules.stream().map(TemplateModel::map).anyMatch(r -> LakeLayout.ATHENA_RESULTS_PREFIX.equals(r.get("Prefix"))
                && r.get("ExpirationInDays") instanceof Number), "no lifecycle expiry for " + LakeLayout.ATHENA_RESULTS_PREFIX);
    }

    @Test
    void readers_policyReadsPublishedAndStatusQueriesTheWorkGroupAndNothingElse() {
        List<Statement> reader = values(map(model.transformedProperties("ReaderPolicy").get("PolicyDocument")).get("Statement")).stream()
                .map(s -> model.statement(map(s))).toList();
        Lake lake = model.lake();
        String bucketArn = lake.bucket();
        for (String dataset : datasets) {
            assertTrue(allows(reader, "s3:GetObject", lake.published()), "reader cannot read " + lake.published());
            assertTrue(allows(reader, "s3:GetObject", bucketArn + "/" + LakeLayout.statusKey(dataset)), "reader cannot read _status/");
            for (String table : List.of(dataset, dataset + ReaderTables.STATUS_SUFFIX)) {
                String arn = "arn:aws:glue:" + REGION + ":" + ACCOUNT + ":table/" + model.string(Map.of("Ref", "ReaderDatabase")) + "/" + table;
                for (String action : List.of("glue:GetTable", "glue:GetPartitions")) {
                    assertTrue(allows(reader, action, arn), "reader cannot " + action + " " + arn);
                }
            }
        }
        String workGroup = "arn:aws:athena:" + REGION + ":" + ACCOUNT + ":workgroup/" + model.string(Map.of("Ref", "ReaderWorkGroup"));
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
        assertFalse(allows(reader, "s3:GetObject", lake.object(S3ContractStore.key(datasets.get(0), 1))), "reader may read the contract store");
        assertFalse(reader.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> a.startsWith("dynamodb:") || a.startsWith("lambda:"))));
    }

    @Test
    void dashboard_bodyIsJson() throws IOException {
        for (String dashboard : model.resourcesOfType("AWS::CloudWatch::Dashboard")) {
            Map<String, Object> body = map(readJson(model.string(model.properties(dashboard).get("DashboardBody"))));
            assertFalse(list(body.get("widgets")).isEmpty(), dashboard + " has no widgets");
        }
    }

    // ---- the analyst's tables (issue 31) ------------------------------------------------------------------------

    /**
     * Only the table writer commits: the table bucket's policy denies every table write to any principal but the
     * writer's role, the writer's role holds those writes, no other role (nor the reader policy) holds one, and the
     * readers' policy reads the tables.
     */
    @Test
    void tableBucket_onlyTheTableWriterCommitsAndReadersRead() {
        String bucket = model.string(Map.of("Fn::GetAtt", List.of("LakeTableBucket", "TableBucketARN")));
        String table = bucket + "/table/" + model.string(model.properties("LakeTableNamespace").get("Namespace")) + "/transactions";
        String writer = tableWriter();
        List<String> commits = List.of("s3tables:UpdateTableMetadataLocation", "s3tables:PutTableData");
        List<Statement> policy = TemplateModel.values(TemplateModel.map(model.properties("LakeTableBucketPolicy").get("ResourcePolicy"))
                .get("Statement")).stream().map(st -> model.statement(TemplateModel.map(st))).toList();
        List<Statement> denies = policy.stream().filter(st -> st.effect().equals("Deny")).toList();
        assertEquals(1, denies.size(), "one deny: " + policy);
        Statement deny = denies.get(0);
        assertEquals("*", deny.principal());
        for (String action : List.of("s3tables:UpdateTableMetadataLocation", "s3tables:PutTableData", "s3tables:CreateTable")) {
            assertTrue(deny.actions().contains(action), "the table bucket's policy does not deny " + action);
        }
        assertTrue(deny.resources().contains(bucket + "/table/*") && deny.resources().contains(bucket), deny.resources().toString());
        String writerRole = "arn:aws:iam::" + ACCOUNT + ":role/" + TemplateModel.referenced(
                Map.of("Ref", TemplateModel.values(TemplateModel.map(model.transformedProperties(writer).get("Role")).get("Fn::GetAtt"))
                        .get(0)), "Role");
        Object exempt = TemplateModel.map(deny.condition().get("ArnNotEquals")).get("aws:PrincipalArn");
        assertEquals(writerRole, model.string(exempt), "the deny exempts the writer's role only");
        Map<String, List<Statement>> roles = model.roles();
        for (String action : commits) {
            assertTrue(allows(roles.get(writer), action, table), "the table writer cannot " + action);
            roles.forEach((role, statements) -> assertTrue(role.equals(writer) || !allows(statements, action, table),
                    role + " may " + action));
            assertFalse(allows(model.managedPolicy("ReaderPolicy"), action, table), "readers may " + action);
        }
        for (String action : List.of("s3tables:GetTableMetadataLocation", "s3tables:GetTableData")) {
            assertTrue(allows(model.managedPolicy("ReaderPolicy"), action, table), "readers cannot " + action);
        }
    }

    /**
     * One committer per table: the commit queue is FIFO, its sender names each message's deduplication id, a message is
     * hidden longer than six writer timeouts (Lambda's advice for an SQS source), repeated failures go to a dead-letter
     * queue that is alarmed; the enqueue reads the ledger stream's PUBLISHED units only and reports partial failures.
     */
    @Test
    void tableCommitQueue_isFifoPerDatasetAndOutlastsTheWriter() {
        Map<String, Object> queue = model.properties("TableCommitQueue");
        assertEquals(Boolean.TRUE, queue.get("FifoQueue"));
        assertEquals(Boolean.FALSE, queue.get("ContentBasedDeduplication"), "the sender names the deduplication id (TableMessage)");
        int writerTimeout = Integer.parseInt(model.string(model.property(tableWriter(), "Timeout")));
        assertTrue(Integer.parseInt(model.string(queue.get("VisibilityTimeout"))) >= 6 * writerTimeout, "visibility vs writer timeout");
        String deadLetters = TemplateModel.referenced(Map.of("Ref", TemplateModel.values(TemplateModel.map(TemplateModel.map(
                queue.get("RedrivePolicy")).get("deadLetterTargetArn")).get("Fn::GetAtt")).get(0)), "deadLetterTargetArn");
        assertTrue(model.resourcesOfType("AWS::CloudWatch::Alarm").stream().anyMatch(alarm -> String.valueOf(
                model.properties(alarm).get("Dimensions")).contains(deadLetters)), deadLetters + " has no alarm");
        Map<String, Object> events = TemplateModel.map(model.property(model.function(TableEnqueueHandler.class), "Events"));
        Map<String, Object> stream = TemplateModel.map(TemplateModel.map(events.values().iterator().next()).get("Properties"));
        assertEquals(List.of("ReportBatchItemFailures"), stream.get("FunctionResponseTypes"));
        assertTrue(stream.get("FilterCriteria").toString().contains("\"status\": {\"S\": [\"PUBLISHED\"]}"), stream.toString());
        Map<String, Object> writerEvents = TemplateModel.map(model.property(tableWriter(), "Events"));
        Map<String, Object> commits = TemplateModel.map(TemplateModel.map(writerEvents.values().iterator().next()).get("Properties"));
        assertEquals(List.of("ReportBatchItemFailures"), commits.get("FunctionResponseTypes"));
    }

    /** The table writer's function (its handler is in the table writer's jar, not on this classpath). */
    private static String tableWriter() {
        List<String> writers = model.functions().stream()
                .filter(f -> ((String) model.property(f, "Handler")).startsWith(TABLE_WRITER + "::")).toList();
        assertEquals(1, writers.size(), "functions with handler " + TABLE_WRITER);
        return writers.get(0);
    }
}
