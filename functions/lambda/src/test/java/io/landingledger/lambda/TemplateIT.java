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

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
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
 * <p>IAM is evaluated on the template's own statements, with their ARNs resolved for the template's default
 * parameters. SAM adds two managed policies to each function role (AWSLambdaBasicExecutionRole,
 * AWSXrayWriteOnlyAccess: logs and traces only) and the on-failure destination's sqs:SendMessage; those are not in
 * the template and are not checked here.
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
    private static List<String> datasets;

    @BeforeAll
    static void load() throws IOException {
        template = parseTemplate(TEMPLATE);
        resources = map(template.get("Resources"));
        resolver = new Resolver(template);
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
                RepairHandler.class.getName())), handlers);
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
            assertEquals(Map.of("ApplyOn", "PublishedVersions"), property(function, "SnapStart"), function + ": SnapStart");
            assertNotNull(property(function, "AutoPublishAlias"), function + ": SnapStart needs a published version (AutoPublishAlias)");
        }
    }

    // ---- tables -------------------------------------------------------------------------------------------------

    @Test
    void tables_haveTheKeySchemasOfLedgerTables() {
        assertTableMatches(FunctionConfig.LEDGER_TABLE, LedgerTables.ledger("x").build());
        assertTableMatches(FunctionConfig.LEDGER_HISTORY_TABLE, LedgerTables.ledgerHistory("x").build());
    }

    private static void assertTableMatches(String variable, CreateTableRequest expected) {
        String table = referencedResource(environment(function(ValidateObjectHandler.class)).get(variable), variable);
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
                assertFalse("*".equals(resource), "Resource \"*\" in " + statement);
            }
        }
    }

    @Test
    void iam_everyRoleStatementHasItsOwnSidAndNamesABucketPrefixOrATable() {
        for (Map.Entry<String, List<Statement>> role : roles().entrySet()) {
            Set<String> sids = new HashSet<>();
            for (Statement statement : role.getValue()) {
                assertNotNull(statement.sid(), role.getKey() + ": a statement without a Sid: " + statement);
                assertTrue(sids.add(statement.sid()), role.getKey() + ": Sid " + statement.sid() + " twice");
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
        assertTrue(allows(sweep, "s3:ListBucket", inboxBucketArn()), "sweep cannot list the inbox");
        assertTrue(allows(sweep, "s3:ListBucket", lake.bucket()), "sweep cannot list the lake");
        assertTrue(allows(sweep, "s3:GetObject", lake.published()), "sweep cannot HEAD published/");
        for (String dataset : datasets) {
            assertTrue(allows(sweep, "s3:GetObject", inboxObject(dataset)), "sweep cannot HEAD the " + dataset + " inbox");
        }
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
            assertTrue(allows(role, "s3:GetObject", inboxObject(dataset)), name + " cannot HEAD/GET the " + dataset + " inbox");
        }
        assertTrue(allows(role, "s3:ListBucket", inboxBucketArn()), name + ": a missing inbox object would be 403, not 404");
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
        List<String> prefixes = new ArrayList<>();
        for (Object event : map(property(function(ValidateObjectHandler.class), "Events")).values()) {
            Map<String, Object> e = map(event);
            if (!"S3".equals(e.get("Type"))) {
                continue;
            }
            Map<String, Object> p = map(e.get("Properties"));
            assertEquals(Map.of("Ref", inbox), p.get("Bucket"), "S3 event on another bucket");
            assertEquals("s3:ObjectCreated:*", p.get("Events"));
            List<Object> rules = list(map(map(p.get("Filter")).get("S3Key")).get("Rules"));
            assertEquals(1, rules.size(), "one prefix rule per event: " + rules);
            assertEquals("prefix", map(rules.get(0)).get("Name"));
            prefixes.add((String) map(rules.get(0)).get("Value"));
        }
        assertEquals(datasets.stream().map(d -> d + "/").toList(), prefixes.stream().sorted().toList(),
                "one S3 notification per datasets/*.json");
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
                values(s.get("Resource")).stream().map(resolver::string).toList(),
                s.get("Condition") == null ? Map.of() : map(s.get("Condition")));
    }

    /** Every role's permission statements: each function's Policies and each AWS::IAM::Role's inline policies. */
    private static Map<String, List<Statement>> roles() {
        Map<String, List<Statement>> roles = new LinkedHashMap<>();
        for (String function : functions()) {
            List<Statement> statements = new ArrayList<>();
            for (Object policy : values(properties(function).get("Policies"))) {
                assertTrue(policy instanceof Map<?, ?> m && m.containsKey("Statement"), function
                        + ": write policies as inline statements (not managed policy names or SAM policy templates) so they can be checked: "
                        + policy);
                values(map(policy).get("Statement")).forEach(s -> statements.add(statement(map(s))));
            }
            assertFalse(properties(function).containsKey("Role"), function + ": its role must be SAM's, from Policies");
            roles.put(function, statements);
        }
        for (String role : resourcesOfType("AWS::IAM::Role")) {
            List<Statement> statements = new ArrayList<>();
            for (Object policy : values(properties(role).get("Policies"))) {
                values(map(map(policy).get("PolicyDocument")).get("Statement")).forEach(s -> statements.add(statement(map(s))));
            }
            assertFalse(properties(role).containsKey("ManagedPolicyArns"), role + ": managed policies cannot be checked here");
            roles.put(role, statements);
        }
        assertTrue(resourcesOfType("AWS::IAM::Policy").isEmpty() && resourcesOfType("AWS::IAM::ManagedPolicy").isEmpty(),
                "standalone IAM policies: keep permissions with their role");
        return roles;
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
                case "AWS::Serverless::Function" -> properties.get("FunctionName");
                case "AWS::Events::EventBus" -> properties.get("Name");
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
