package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The deploy's own calls to moto's JSON APIs (DynamoDB, SQS), as CloudFormation makes them with its service role: not
 * through the stack's gateway, whose roles are the functions'. moto reads the region from the credential scope and
 * checks no signature.
 */
final class MotoApi {
    private final URI endpoint;
    private final String region;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    MotoApi(URI endpoint, String region) {
        this.endpoint = endpoint;
        this.region = region;
    }

    /** One call of {@code target} (e.g. DynamoDB_20120810.CreateTable), the answer as a map. */
    Map<String, Object> call(String service, String target, Map<String, Object> body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/x-amz-json-1.0")
                    .header("X-Amz-Target", target)
                    .header("Authorization", "AWS4-HMAC-SHA256 Credential=cloudformation/20260101/" + region + "/" + service
                            + "/aws4_request, SignedHeaders=host, Signature=0")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.std.asString(body)))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            Map<String, Object> answer = response.body().isBlank() ? Map.of() : JSON.std.mapFrom(response.body());
            if (response.statusCode() >= 300) {
                throw new DeployException(target + " answered " + response.statusCode() + ": " + response.body());
            }
            return answer;
        } catch (IOException e) {
            throw new DeployException(target + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeployException("interrupted during " + target);
        }
    }
}
