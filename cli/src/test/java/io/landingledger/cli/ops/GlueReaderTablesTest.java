package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;
import com.sun.net.httpserver.HttpServer;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.reader.ReaderTables;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reader tables {@code landing dataset add} makes, against a stub of Glue's JSON API: each is {@link ReaderTables}'
 * definition of the contract (what TemplateIT checked of the template's tables when they were per dataset there),
 * created when absent and updated when present.
 */
class GlueReaderTablesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    @SuppressWarnings("unchecked")
    void createsBothTablesAsReaderTablesDefinesThem_thenUpdatesThem() throws Exception {
        List<Map<String, Object>> calls = new ArrayList<>();
        Set<String> existing = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            Map<String, Object> body = JSON.std.mapFrom(exchange.getRequestBody().readAllBytes());
            synchronized (calls) {
                calls.add(Map.of("target", target, "body", body));
            }
            String name = target.endsWith("GetTable") ? (String) body.get("Name") : (String) ((Map<String, Object>) body.get("TableInput")).get("Name");
            int status = 200;
            String answer = "{}";
            if (target.endsWith("GetTable")) {
                if (existing.contains(name)) {
                    answer = "{\"Table\":{\"Name\":\"" + name + "\",\"DatabaseName\":\"db\"}}";
                } else {
                    status = 400;
                    answer = "{\"__type\":\"EntityNotFoundException\",\"Message\":\"Table " + name + " not found.\"}";
                    exchange.getResponseHeaders().add("x-amzn-ErrorType", "EntityNotFoundException");
                }
            } else if (target.endsWith("CreateTable")) {
                existing.add(name);
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        DatasetContract contract = ContractLoader.load(ROOT.resolve("datasets/progress_events.json"));
        try (GlueClient glue = GlueClient.builder().region(Region.US_EAST_1).httpClientBuilder(UrlConnectionHttpClient.builder())
                .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"))).build()) {
            assertEquals(List.of("created landing_ledger_dev.progress_events", "created landing_ledger_dev.progress_events_status"),
                    GlueReaderTables.apply(glue, "landing_ledger_dev", "lake", contract));
            assertEquals(List.of("updated landing_ledger_dev.progress_events", "updated landing_ledger_dev.progress_events_status"),
                    GlueReaderTables.apply(glue, "landing_ledger_dev", "lake", contract));
        } finally {
            server.stop(0);
        }
        Map<String, Object> created = (Map<String, Object>) calls.get(1).get("body");
        assertEquals("AWSGlue.CreateTable", calls.get(1).get("target"));
        assertEquals("landing_ledger_dev", created.get("DatabaseName"));
        Map<String, Object> input = (Map<String, Object>) created.get("TableInput");
        ReaderTables.Table table = ReaderTables.published(contract);
        assertEquals("progress_events", input.get("Name"));
        assertEquals("EXTERNAL_TABLE", input.get("TableType"));
        assertEquals(new TreeMap<>(table.parameters("lake")), new TreeMap<>((Map<String, Object>) input.get("Parameters")));
        assertEquals(List.of(Map.of("Name", "unit", "Type", "string")), input.get("PartitionKeys"));
        Map<String, Object> storage = (Map<String, Object>) input.get("StorageDescriptor");
        assertEquals("s3://lake/published/progress_events/", storage.get("Location"));
        assertEquals(ReaderTables.SERDE, ((Map<String, Object>) storage.get("SerdeInfo")).get("SerializationLibrary"));
        assertEquals(table.columns().stream().map(c -> Map.of("Name", c.name(), "Type", c.type())).toList(), storage.get("Columns"));
        assertEquals("AWSGlue.UpdateTable", calls.get(calls.size() - 1).get("target"));
    }
}
