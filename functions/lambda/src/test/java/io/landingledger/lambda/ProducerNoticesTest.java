package io.landingledger.lambda;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.InputDecision;
import io.landingledger.lambda.adapters.EventBridgeDecisionEvents;
import io.landingledger.lambda.adapters.S3DecisionTags;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Telling a producer never fails the decision: with EventBridge and S3 both unreachable, {@link ProducerNotices} returns
 * normally and counts what it could not tell, per dataset (DecisionEventsFailed, DecisionTagsFailed).
 */
class ProducerNoticesTest {

    @Test
    void anEventAndTagsThatCannotBeSent_areCountedAndNeverThrown() throws Exception {
        URI nowhere;
        try (ServerSocket closed = new ServerSocket(0)) {
            nowhere = URI.create("http://127.0.0.1:" + closed.getLocalPort()); // nothing listens there once closed
        }
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        ByteArrayOutputStream emf = new ByteArrayOutputStream();
        try (EventBridgeClient events = EventBridgeClient.builder().region(Region.US_EAST_1).endpointOverride(nowhere)
                .credentialsProvider(credentials).httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1))).build();
             S3Client s3 = DependencyFactory.forEmulator(S3Client.builder()).region(Region.US_EAST_1).endpointOverride(nowhere)
                     .credentialsProvider(credentials).httpClientBuilder(UrlConnectionHttpClient.builder())
                     .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1))).build()) {
            ProducerNotices notices = new ProducerNotices(new EventBridgeDecisionEvents(events, "ledger"), new S3DecisionTags(s3),
                    new DatasetMetrics(new PrintStream(emf, true, UTF_8), false), Clock.systemUTC());
            notices.decided(new InputDecision(InputDecision.Decision.REFUSED, "progress_events", "2026-03-05", "inbox",
                    "progress_events/progress-2026-03-05.jsonl", "v1", List.of("PROHIBITED_FIELD"), 0, 0, 0, "run-1", "INGEST", 1, null));
        }
        List<String> documents = emf.toString(UTF_8).lines().toList();
        assertEquals(1, documents.size(), documents.toString());
        Map<String, Object> document = JSON.std.mapFrom(documents.get(0));
        assertEquals(1, ((Number) document.get("DecisionEventsFailed")).intValue(), document.toString());
        assertEquals(1, ((Number) document.get("DecisionTagsFailed")).intValue(), document.toString());
        assertEquals(0, ((Number) document.get("DecisionTagsNoRoom")).intValue(), document.toString());
    }
}
