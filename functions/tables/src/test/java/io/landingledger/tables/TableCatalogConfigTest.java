package io.landingledger.tables;

import io.landingledger.lambda.AwsConnection;

import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import software.amazon.awssdk.regions.Region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableCatalogConfigTest {
    private static final Map<String, String> S3_TABLES = Map.of(
            "TABLE_CATALOG_URI", "https://s3tables.eu-west-1.amazonaws.com/iceberg",
            "TABLE_WAREHOUSE", "arn:aws:s3tables:eu-west-1:123456789012:bucket/landing-prod-tables",
            "TABLE_NAMESPACE", "landing_prod",
            "TABLE_CATALOG_SIGV4", "true");

    @Test
    void onAws_signsCatalogRequestsForS3TablesAndUsesTheExecutionRole() {
        TableCatalogConfig config = TableCatalogConfig.fromEnvironment(S3_TABLES, AwsConnection.aws(Region.EU_WEST_1));

        assertEquals(Namespace.of("landing_prod"), config.namespace());
        assertEquals(Map.of(
                "uri", "https://s3tables.eu-west-1.amazonaws.com/iceberg",
                "warehouse", "arn:aws:s3tables:eu-west-1:123456789012:bucket/landing-prod-tables",
                "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                "client.region", "eu-west-1",
                "http-client.type", "urlconnection",
                "rest-metrics-reporting-enabled", "false",
                "rest.auth.type", "sigv4",
                "rest.auth.sigv4.delegate-auth-type", "none",
                "rest.signing-name", "s3tables",
                "rest.signing-region", "eu-west-1"), config.catalogProperties());
    }

    @Test
    void locally_pointsS3FileIoAtTheEmulatorWithItsKeysAndSignsNothing() {
        Map<String, String> local = Map.of(
                "TABLE_CATALOG_URI", "http://127.0.0.1:4599/iceberg",
                "TABLE_WAREHOUSE", "s3://landing-dev-tables/",
                "TABLE_NAMESPACE", "landing_dev");
        AwsConnection emulator = AwsConnection.endpoints(Region.US_EAST_1, URI.create("http://127.0.0.1:4566"),
                URI.create("http://127.0.0.1:5000"));

        Map<String, String> properties = TableCatalogConfig.fromEnvironment(local, emulator).catalogProperties();

        assertEquals("http://127.0.0.1:4566", properties.get("s3.endpoint"));
        assertEquals("true", properties.get("s3.path-style-access"));
        assertEquals("false", properties.get("s3.chunked-encoding-enabled"));
        assertEquals("test", properties.get("s3.access-key-id"));
        assertEquals("test", properties.get("s3.secret-access-key"));
        assertFalse(properties.containsKey("rest.auth.type"));
        assertFalse(properties.containsKey("rest.access-key-id"));
    }

    @Test
    void connect_signsItsFirstCatalogRequestWithSigV4ForS3Tables() throws Exception {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] body = "{\"defaults\":{},\"overrides\":{}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            Map<String, String> environment = new HashMap<>(S3_TABLES);
            environment.put("TABLE_CATALOG_URI", endpoint + "/iceberg");
            TableCatalogConfig config = TableCatalogConfig.fromEnvironment(environment,
                    AwsConnection.endpoints(Region.EU_WEST_1, endpoint, endpoint));

            try (var catalog = config.connect()) {
                assertEquals(1, authorizations.size(), "GET /v1/config");
                assertTrue(authorizations.get(0).matches("AWS4-HMAC-SHA256 Credential=test/\\d{8}/eu-west-1/s3tables/"
                        + "aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}"), authorizations.get(0));
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void refusesAMissingOrMalformedVariableByName() {
        AwsConnection aws = AwsConnection.aws(Region.US_EAST_1);
        for (String name : new String[] {"TABLE_CATALOG_URI", "TABLE_WAREHOUSE", "TABLE_NAMESPACE"}) {
            Map<String, String> missing = new java.util.HashMap<>(S3_TABLES);
            missing.remove(name);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> TableCatalogConfig.fromEnvironment(missing, aws));
            assertTrue(e.getMessage().startsWith(name + " is not set"), e.getMessage());
        }
        Map<String, String> badFlag = new java.util.HashMap<>(S3_TABLES);
        badFlag.put("TABLE_CATALOG_SIGV4", "yes");
        assertTrue(assertThrows(IllegalStateException.class, () -> TableCatalogConfig.fromEnvironment(badFlag, aws))
                .getMessage().startsWith("TABLE_CATALOG_SIGV4 is 'yes'"));
        Map<String, String> badUri = new java.util.HashMap<>(S3_TABLES);
        badUri.put("TABLE_CATALOG_URI", "s3tables.eu-west-1.amazonaws.com");
        assertTrue(assertThrows(IllegalStateException.class, () -> TableCatalogConfig.fromEnvironment(badUri, aws))
                .getMessage().startsWith("TABLE_CATALOG_URI is"));
    }
}
