package io.landingledger.cli.stack;

import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepResult;
import com.fasterxml.jackson.jr.ob.JSON;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The repair and sweep functions invoked on a stub of Lambda's Invoke API: one invocation per page, no retry. */
class RemoteFunctionsTest {
    private static final String REPAIR_PATH = "/2015-03-31/functions/landing-ledger-dev-repair/invocations";

    private static LambdaClient client(StubAws lambda, Duration functionTimeout) {
        return RemoteFunction.lambdaClient(Region.EU_WEST_1, lambda.endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")), functionTimeout);
    }

    private static final RepairRequest REQUEST = new RepairRequest("progress_events", List.of("2026-03-01", "2026-03-02"), null, null,
            null, false, false, "lost event", null, null);

    private static RepairResult.UnitResult published(String unit) {
        return new RepairResult.UnitResult(unit, null, null, "published", null, null, null, null, null);
    }

    /** The function's first answer: one unit done, the other left for the continuation. */
    private static String firstPage(RepairRequest request) {
        return JsonCodec.writeString(first(request));
    }

    private static RepairResult first(RepairRequest request) {
        return new RepairResult(request, false, List.of(published("2026-03-01")), List.of("2026-03-02"));
    }

    private static String lastPage(RepairRequest request) {
        return JsonCodec.writeString(new RepairResult(first(request).continuation(), false, List.of(published("2026-03-02")), List.of()));
    }

    @Test
    void repair_followsTheContinuation_oneInvokePerPage_atTheLiveAlias() throws Exception {
        try (StubAws lambda = new StubAws().answer(200, Map.of(), firstPage(REQUEST)).answer(200, Map.of(), lastPage(REQUEST));
             LambdaClient client = client(lambda, RemoteRepair.FUNCTION_TIMEOUT);
             RemoteRepair repair = new RemoteRepair(client, "landing-ledger-dev-repair")) {
            RemoteRepair.Result result = repair.run(REQUEST);

            assertEquals(2, lambda.requests.size(), "one Invoke per page");
            for (StubAws.Request request : lambda.requests) {
                assertEquals("POST", request.method());
                assertEquals(REPAIR_PATH, request.path());
                assertEquals("Qualifier=live", request.query());
                assertEquals("RequestResponse", request.header("X-Amz-Invocation-Type"));
            }
            assertEquals(REQUEST, RepairRequest.fromJson(lambda.requests.get(0).body()), "the request as the function reads it");
            assertEquals(Map.of("dataset", "progress_events", "units", List.of("2026-03-02"), "mode", "targeted", "dryRun", false, "force", false,
                    "reason", "lost event", "inputVersion", "recorded", "action", "repair"), JSON.std.mapFrom(lambda.requests.get(1).body()),
                    "the second invocation sends the first answer's continuation");
            assertEquals(List.of("2026-03-01", "2026-03-02"), result.units().stream().map(RepairResult.UnitResult::unit).toList());
            assertTrue(result.succeeded());
            assertEquals(2, result.pages().size());
        }
    }

    @Test
    void aDryRunStaysADryRun_whenItsContinuationIsFollowed() throws Exception {
        RepairRequest plan = new RepairRequest("progress_events", List.of("2026-03-01", "2026-03-02"), null, null, null, true, false, "plan",
                null, null);
        try (StubAws lambda = new StubAws().answer(200, Map.of(), firstPage(plan)).answer(200, Map.of(), lastPage(plan));
             LambdaClient client = client(lambda, RemoteRepair.FUNCTION_TIMEOUT);
             RemoteRepair repair = new RemoteRepair(client, "landing-ledger-dev-repair")) {
            repair.run(plan);
            assertEquals(Boolean.TRUE, JSON.std.mapFrom(lambda.requests.get(1).body()).get("dryRun"));
        }
    }

    @Test
    void anAnswerThatIsNoRepairResult_isReportedNamingTheField() throws Exception {
        try (StubAws lambda = new StubAws().answer(200, Map.of(), "{\"dataset\":\"progress_events\",\"succeeded\":true}");
             LambdaClient client = client(lambda, RemoteRepair.FUNCTION_TIMEOUT);
             RemoteRepair repair = new RemoteRepair(client, "landing-ledger-dev-repair")) {
            RemoteFunctionException e = assertThrows(RemoteFunctionException.class, () -> repair.run(REQUEST));
            assertTrue(e.getMessage().contains("unknown field \"dataset\""), e.getMessage());
        }
    }

    @Test
    void a500_isNotRetried() throws Exception {
        try (StubAws lambda = new StubAws().answer(500, Map.of("Content-Type", "application/json", "x-amzn-ErrorType", "ServiceException"),
                        "{\"Type\":\"Service\",\"message\":\"internal\"}")
                .answer(200, Map.of(), lastPage(REQUEST));
             LambdaClient client = client(lambda, RemoteRepair.FUNCTION_TIMEOUT);
             RemoteRepair repair = new RemoteRepair(client, "landing-ledger-dev-repair")) {
            assertThrows(SdkServiceException.class, () -> repair.run(REQUEST));
            assertEquals(1, lambda.requests.size(), "no retry: a retried repair could run twice at once");
        }
    }

    @Test
    void aFunctionError_isReportedWithItsTypeAndMessage_andNotRetried() throws Exception {
        try (StubAws lambda = new StubAws().answer(200, Map.of("X-Amz-Function-Error", "Unhandled"),
                "{\"errorType\":\"java.lang.IllegalArgumentException\",\"errorMessage\":\"reason is required\"}");
             LambdaClient client = client(lambda, RemoteRepair.FUNCTION_TIMEOUT);
             RemoteRepair repair = new RemoteRepair(client, "landing-ledger-dev-repair")) {
            RemoteFunctionException e = assertThrows(RemoteFunctionException.class,
                    () -> repair.run(REQUEST));
            assertEquals("landing-ledger-dev-repair: the function failed (Unhandled): java.lang.IllegalArgumentException: reason is required",
                    e.getMessage());
            assertEquals(1, lambda.requests.size());
        }
    }

    @Test
    void sweep_isOneInvocationOfTheSweepFunction() throws Exception {
        String answer = "{\"as_of\":\"2026-12-01T00:00:00Z\",\"complete\":false,\"datasets\":[{\"dataset\":\"progress_events\",\"complete\":false}]}";
        try (StubAws lambda = new StubAws().answer(200, Map.of(), answer);
             LambdaClient client = client(lambda, RemoteSweep.FUNCTION_TIMEOUT);
             RemoteSweep sweep = new RemoteSweep(client, "landing-ledger-dev-sweep")) {
            SweepResult result = sweep.run(new SweepRequest.Payload(List.of("progress_events"), null, null));
            assertEquals(false, result.complete());
            assertEquals("2026-12-01T00:00:00Z", result.asOf());
            assertEquals(Map.of("datasets", List.of("progress_events")), JSON.std.mapFrom(lambda.requests.get(0).body()));
            assertEquals(1, lambda.requests.size());
            assertEquals("/2015-03-31/functions/landing-ledger-dev-sweep/invocations", lambda.requests.get(0).path());
            assertEquals("Qualifier=live", lambda.requests.get(0).query());
        }
    }

    @Test
    void theReadTimeouts_exceedTheTemplatesFunctionTimeouts() throws Exception {
        String template = Files.readString(Path.of("../infra/template.yaml"));
        assertEquals(RemoteRepair.FUNCTION_TIMEOUT.toSeconds(), timeout(template, "Globals:", "Function:"),
                "RepairFunction runs with the Globals' Timeout");
        assertFalse(section(template, "  RepairFunction:").contains("Timeout:"), "RepairFunction sets no Timeout of its own");
        assertEquals(RemoteSweep.FUNCTION_TIMEOUT.toSeconds(), timeout(section(template, "  CompletenessSweepFunction:"), "Properties:"));
        assertTrue(RemoteFunction.readTimeout(RemoteRepair.FUNCTION_TIMEOUT).compareTo(RemoteRepair.FUNCTION_TIMEOUT) > 0);
    }

    private static String section(String template, String header) {
        int start = template.indexOf("\n" + header + "\n");
        int end = template.indexOf("\n  ", start + header.length() + 2);
        while (end >= 0 && template.charAt(end + 3) == ' ') {
            end = template.indexOf("\n  ", end + 1);
        }
        return template.substring(start, end < 0 ? template.length() : end);
    }

    private static long timeout(String text, String... after) {
        int at = 0;
        for (String marker : after) {
            at = text.indexOf(marker, at);
        }
        Matcher m = Pattern.compile("\\n\\s+Timeout: (\\d+)").matcher(text);
        assertTrue(m.find(at), "no Timeout after " + String.join(" ", after));
        return Long.parseLong(m.group(1));
    }
}
