package io.landingledger.lambda.testing;

import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.LedgerTables;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import io.landingledger.localcloud.aws.EmbeddedAws;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * JUnit 5 extension: S3 and DynamoDB for the tests, through the same {@link DependencyFactory} clients the
 * functions use.
 *
 * <p>By default it starts the emulators docs/emulators.md chose: S3Proxy in-process (transient, in-memory blob store,
 * credentials test/test) and {@code moto_server} as a child process, each on a free 127.0.0.1 port. They start once
 * per test run (kept in the root {@link ExtensionContext.Store}, so every test class in the JVM shares the pair) and
 * stop when the run ends. With {@value #ENDPOINT_VARIABLE} set (e.g. {@code http://localhost:4566} for LocalStack)
 * nothing is started and both services use that endpoint.
 *
 * <p>Tests never share state: {@link #freshResources()} makes uniquely named buckets and tables.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final AwsEmulators aws = new AwsEmulators();
 *
 * @Test
 * void publish_whenNew_thenPublished() {
 *     TestResources resources = aws.freshResources();
 *     ... resources.config() ... aws.s3() ...
 * }
 * }</pre>
 * or {@code @ExtendWith(AwsEmulators.class)} with an {@code AwsEmulators} test or lifecycle method parameter.
 *
 * <p>A constructor, test or lifecycle method parameter of type {@link PipelineFixture} gets a pipeline on fresh
 * resources, one per test (the constructor and the test's methods share it), closed when the test ends:
 *
 * <pre>{@code
 * @ExtendWith(AwsEmulators.class)
 * class SomeIT {
 *     private final PipelineFixture pipeline;
 *
 *     SomeIT(PipelineFixture pipeline) {
 *         this.pipeline = pipeline;
 *     }
 * }
 * }</pre>
 */
public final class AwsEmulators implements BeforeAllCallback, ParameterResolver {
    /** Set to an endpoint (LocalStack: {@code http://localhost:4566}) to use it instead of starting emulators. */
    public static final String ENDPOINT_VARIABLE = "LANDING_TEST_ENDPOINT";
    /** Region for {@value #ENDPOINT_VARIABLE}; default us-east-1. */
    public static final String REGION_VARIABLE = "LANDING_TEST_REGION";
    /** Credentials for {@value #ENDPOINT_VARIABLE}; default test/test. */
    public static final String ACCESS_KEY_VARIABLE = "LANDING_TEST_ACCESS_KEY_ID";
    public static final String SECRET_KEY_VARIABLE = "LANDING_TEST_SECRET_ACCESS_KEY";

    private static final Region DEFAULT_REGION = Region.US_EAST_1;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(AwsEmulators.class);

    private volatile Session session;

    @Override
    public void beforeAll(ExtensionContext context) {
        session = sharedSession(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == AwsEmulators.class || type == PipelineFixture.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (session == null) {
            session = sharedSession(context);
        }
        if (parameter.getParameter().getType() == PipelineFixture.class) {
            // The test's own store: JUnit closes an AutoCloseable value in it when the test ends.
            return context.getStore(NAMESPACE).computeIfAbsent(PipelineFixture.class,
                    key -> new PipelineFixture(this), PipelineFixture.class);
        }
        return this;
    }

    /** Constructor parameters are resolved in the test's context, so a constructor's fixture is that test's. */
    @Override
    public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
        return ExtensionContextScope.TEST_METHOD;
    }

    /** The S3 client, configured exactly as {@link DependencyFactory} configures a function's. */
    public S3Client s3() {
        return session().s3;
    }

    /** The DynamoDB client, configured exactly as {@link DependencyFactory} configures a function's. */
    public DynamoDbClient dynamoDb() {
        return session().dynamoDb;
    }

    /** Region, endpoints and credentials of the services in use, for a {@link FunctionConfig} or another client. */
    public AwsConnection connection() {
        return session().connection;
    }

    /** How long starting the emulators took (zero when {@value #ENDPOINT_VARIABLE} chose an endpoint). */
    public StartupTimes startupTimes() {
        return session().startupTimes;
    }

    /**
     * New, uniquely named resources: an inbox bucket with versioning on, a lake bucket, and the Ledger and
     * LedgerHistory tables from {@link LedgerTables}, ready to use.
     */
    public TestResources freshResources() {
        Session current = session();
        String suffix = Integer.toString(SEQUENCE.incrementAndGet()) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        TestResources resources = new TestResources(
                FunctionConfig.builder()
                        .inboxBucket("inbox-" + suffix)
                        .lakeBucket("lake-" + suffix)
                        .ledgerTable("Ledger-" + suffix)
                        .ledgerHistoryTable("LedgerHistory-" + suffix)
                        .aws(current.connection)
                        .build());
        S3Client s3 = current.s3;
        s3.createBucket(request -> request.bucket(resources.inboxBucket()));
        s3.putBucketVersioning(request -> request.bucket(resources.inboxBucket())
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        s3.createBucket(request -> request.bucket(resources.lakeBucket()));
        LedgerTables.create(current.dynamoDb, resources.ledgerTable(), resources.ledgerHistoryTable());
        io.landingledger.lambda.ConsumersTable.create(current.dynamoDb, resources.consumersTable());
        return resources;
    }

    private Session session() {
        Session current = session;
        if (current == null) {
            throw new IllegalStateException("AwsEmulators is not started: register it on a static field with "
                    + "@RegisterExtension, or with @ExtendWith on the class");
        }
        return current;
    }

    private static Session sharedSession(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .computeIfAbsent(Session.class, key -> Session.open(), Session.class);
    }

    /**
     * How long each emulator took to answer, measured from the start request. They start concurrently, so
     * {@code total} is about the slower of the two.
     */
    public record StartupTimes(Duration s3Proxy, Duration motoServer, Duration total) {
        /** Nothing was started: {@value #ENDPOINT_VARIABLE} chose the endpoint. */
        static final StartupTimes NONE = new StartupTimes(Duration.ZERO, Duration.ZERO, Duration.ZERO);

        @Override
        public String toString() {
            if (this.equals(NONE)) {
                return "no emulator started (" + ENDPOINT_VARIABLE + " is set)";
            }
            return String.format(Locale.ROOT, "S3Proxy %d ms, moto_server %d ms, both ready after %d ms",
                    s3Proxy.toMillis(), motoServer.toMillis(), total.toMillis());
        }
    }

    /** The emulators (or the chosen endpoint) and clients for one test run; closed by JUnit when the run ends. */
    private static final class Session implements AutoCloseable {
        private final AwsConnection connection;
        private final S3Client s3;
        private final DynamoDbClient dynamoDb;
        private final StartupTimes startupTimes;
        private final EmbeddedAws emulators;

        private Session(AwsConnection connection, StartupTimes startupTimes, EmbeddedAws emulators) {
            this.connection = connection;
            this.startupTimes = startupTimes;
            this.emulators = emulators;
            this.s3 = DependencyFactory.s3Client(connection);
            this.dynamoDb = DependencyFactory.dynamoDbClient(connection);
        }

        static Session open() {
            String endpoint = System.getenv(ENDPOINT_VARIABLE);
            if (endpoint != null && !endpoint.isBlank()) {
                return external(URI.create(endpoint.strip()));
            }
            try {
                return embedded();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("could not start the embedded AWS emulators: " + e.getMessage(), e);
            }
        }

        private static Session external(URI endpoint) {
            String region = System.getenv(REGION_VARIABLE);
            String accessKey = System.getenv(ACCESS_KEY_VARIABLE);
            String secretKey = System.getenv(SECRET_KEY_VARIABLE);
            var credentials = accessKey != null && secretKey != null
                    ? AwsBasicCredentials.create(accessKey, secretKey)
                    : AwsConnection.EMULATOR_CREDENTIALS;
            AwsConnection connection = new AwsConnection(
                    region == null || region.isBlank() ? DEFAULT_REGION : Region.of(region.strip()),
                    Optional.of(endpoint), Optional.of(endpoint),
                    Optional.of(credentials));
            System.err.println("AwsEmulators: using " + ENDPOINT_VARIABLE + "=" + endpoint
                    + " for S3 and DynamoDB; no emulator started");
            return new Session(connection, StartupTimes.NONE, null);
        }

        private static Session embedded() throws Exception {
            EmbeddedAws aws = EmbeddedAws.start();
            EmbeddedAws.StartupTimes started = aws.startupTimes();
            StartupTimes times = new StartupTimes(started.s3Proxy(), started.motoServer(), started.total());
            System.err.println("AwsEmulators: " + times + " (S3 " + aws.s3Endpoint() + ", DynamoDB " + aws.dynamoDbEndpoint()
                    + " pid " + aws.motoPid() + ")");
            return new Session(AwsConnection.endpoints(DEFAULT_REGION, aws.s3Endpoint(), aws.dynamoDbEndpoint()), times, aws);
        }

        @Override
        public void close() {
            s3.close();
            dynamoDb.close();
            if (emulators != null) {
                emulators.close();
            }
        }
    }
}
