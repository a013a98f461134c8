package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.testing.EventSchemas;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.localcloud.deploy.StackConnection;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Producers hear back (issue 32), end to end on the stack as deployed, every role enforced: a producer holding only
 * the template's ProducerPolicy puts, with boto3, a file that is refused and one with rejected lines; a rule on the
 * ledger bus (made with boto3 as docs/producers.md makes it) sends the validator's InputDecision events to an SQS
 * queue whose policy lets that rule send; boto3 reads the events from the queue, each valid under
 * events/input-decision.schema.json, and the producer reads each file's decision from its version's tags. A queue
 * whose policy does not let EventBridge send receives nothing, as on AWS.
 */
class ProducerHearsBackIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    static LocalDeployment stack;

    private static final String SCRIPT = String.join("\n",
            "import boto3, json, sys",
            "phase, endpoint = sys.argv[1], sys.argv[2]",
            "def client(service, key='test', secret='test'):",
            "    return boto3.client(service, endpoint_url=endpoint, region_name='us-east-1', aws_access_key_id=key,",
            "                        aws_secret_access_key=secret)",
            "if phase == 'rule':",
            "    bus, name, queue, with_policy = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6] == 'yes'",
            "    sqs, events = client('sqs'), client('events')",
            "    url = sqs.create_queue(QueueName=queue)['QueueUrl']",
            "    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=['QueueArn'])['Attributes']['QueueArn']",
            "    pattern = {'source': ['landing-ledger'], 'detail-type': ['InputDecision'], 'detail': {'dataset': ['progress_events']}}",
            "    rule = events.put_rule(Name=name, EventBusName=bus, EventPattern=json.dumps(pattern))['RuleArn']",
            "    if with_policy:",
            "        policy = {'Version': '2012-10-17', 'Statement': [{'Sid': 'FromTheLedgerBusRule', 'Effect': 'Allow',",
            "            'Principal': {'Service': 'events.amazonaws.com'}, 'Action': 'sqs:SendMessage', 'Resource': arn,",
            "            'Condition': {'ArnEquals': {'aws:SourceArn': rule}}}]}",
            "        sqs.set_queue_attributes(QueueUrl=url, Attributes={'Policy': json.dumps(policy)})",
            "    r = events.put_targets(Rule=name, EventBusName=bus, Targets=[{'Id': 'producer-queue', 'Arn': arn}])",
            "    print(json.dumps({'queue': url, 'failed': r['FailedEntryCount']}))",
            "elif phase == 'put':",
            "    inbox, key, path, access_key, secret = sys.argv[3:8]",
            "    with open(path, 'rb') as f:",
            "        answer = client('s3', access_key, secret).put_object(Bucket=inbox, Key=key, Body=f.read())",
            "    print(json.dumps({'version': answer['VersionId']}))",
            "elif phase == 'read':",
            "    url, inbox, access_key, secret = sys.argv[3:7]",
            "    sqs, s3 = client('sqs'), client('s3', access_key, secret)",
            "    events = []",
            "    while True:",
            "        messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1).get('Messages', [])",
            "        if not messages:",
            "            break",
            "        for m in messages:",
            "            events.append(m['Body'])",
            "            sqs.delete_message(QueueUrl=url, ReceiptHandle=m['ReceiptHandle'])",
            "    tags = {}",
            "    for pair in sys.argv[7:]:",
            "        key, version = pair.split('=', 1)",
            "        tagged = s3.get_object_tagging(Bucket=inbox, Key=key, VersionId=version)",
            "        tags[key] = {t['Key']: t['Value'] for t in tagged['TagSet']}",
            "        # without a version id: the current version's, as `aws s3api get-object-tagging` reads by default",
            "        current = s3.get_object_tagging(Bucket=inbox, Key=key)",
            "        tags[key + '#current'] = {t['Key']: t['Value'] for t in current['TagSet']}",
            "    print(json.dumps({'events': events, 'tags': tags}))");

    @BeforeAll
    static void deploy() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, Files.createTempDirectory("producer-events")),
                new LandingRuntime());
    }

    @AfterAll
    static void close() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aProducersRefusedFile_andOneWithRejectedLines_reachItsQueueAsEvents_andItsTagsSayWhy() throws Exception {
        String endpoint = stack.endpoint().toString();
        String bus = stack.physicalId("LedgerEventBus");
        String inbox = stack.physicalId("InboxBucket");
        Map<String, Object> rule = json(LocalDeploymentIT.python(SCRIPT, "rule", endpoint, bus, "producer-progress-events",
                "producer-decisions", "yes"));
        assertEquals(0, ((Number) rule.get("failed")).intValue(), rule.toString());
        Map<String, Object> unsent = json(LocalDeploymentIT.python(SCRIPT, "rule", endpoint, bus, "producer-no-policy",
                "producer-no-policy", "no"));

        StackConnection producer = stack.managedPolicyConnection("ProducerPolicy");
        String accessKey = producer.credentials().accessKeyId();
        String secret = producer.credentials().secretAccessKey();
        String refusedKey = "progress_events/progress-2026-03-05.jsonl";
        String rejectsKey = "progress_events/progress-2026-03-03.jsonl";
        String refusedVersion = put(endpoint, inbox, refusedKey, "progress-2026-03-05.jsonl", accessKey, secret);
        String rejectsVersion = put(endpoint, inbox, rejectsKey, "progress-2026-03-03.jsonl", accessKey, secret);
        stack.awaitIdle(Duration.ofMinutes(2));

        Map<String, Object> read = json(LocalDeploymentIT.python(SCRIPT, "read", endpoint, String.valueOf(rule.get("queue")), inbox,
                accessKey, secret, refusedKey + "=" + refusedVersion, rejectsKey + "=" + rejectsVersion));
        List<Map<String, Object>> details = new ArrayList<>();
        for (Object body : (List<Object>) read.get("events")) {
            assertEquals(List.of(), EventSchemas.errors(REPOSITORY, "input-decision", String.valueOf(body)), String.valueOf(body));
            details.add((Map<String, Object>) json(String.valueOf(body)).get("detail"));
        }
        Map<String, Object> refused = only(details, refusedKey, refusedVersion);
        assertEquals("refused", refused.get("decision"));
        assertEquals(List.of("PROHIBITED_FIELD"), refused.get("reasons"));
        Map<String, Object> rejects = only(details, rejectsKey, rejectsVersion);
        assertEquals("published_with_rejects", rejects.get("decision"));
        long rejected = ((Number) rejects.get("rejected")).longValue();
        assertTrue(rejected > 0 && !((List<?>) rejects.get("reasons")).isEmpty(), rejects.toString());

        Map<String, Map<String, String>> tags = (Map<String, Map<String, String>>) read.get("tags");
        assertEquals(Map.of("landing-decision", "refused", "landing-reason", "PROHIBITED_FIELD", "landing-run", refused.get("run_id"),
                "landing-counts", "accepted=" + refused.get("accepted") + " rejected=" + refused.get("rejected") + " duplicates="
                        + refused.get("duplicates")), tags.get(refusedKey));
        assertEquals("published_with_rejects", tags.get(rejectsKey).get("landing-decision"));
        assertEquals(String.join(" ", (List<String>) rejects.get("reasons")), tags.get(rejectsKey).get("landing-reason"));
        assertTrue(tags.get(rejectsKey).get("landing-counts").contains("rejected=" + rejected), tags.toString());
        assertEquals(tags.get(refusedKey), tags.get(refusedKey + "#current"));

        // the queue whose policy does not let the rule send receives nothing, and the stack says why
        Map<String, Object> nothing = json(LocalDeploymentIT.python(SCRIPT, "read", endpoint, String.valueOf(unsent.get("queue")), inbox,
                accessKey, secret));
        assertEquals(List.of(), nothing.get("events"));
        assertTrue(stack.undeliverable().stream().anyMatch(u -> u.contains("producer-no-policy")), stack.undeliverable().toString());
    }

    private static String put(String endpoint, String inbox, String key, String example, String accessKey, String secret)
            throws Exception {
        Path file = REPOSITORY.resolve("examples/inbox/progress_events/" + example);
        return String.valueOf(json(LocalDeploymentIT.python(SCRIPT, "put", endpoint, inbox, key, file.toString(), accessKey, secret))
                .get("version"));
    }

    private static Map<String, Object> only(List<Map<String, Object>> details, String key, String version) {
        List<Map<String, Object>> matching = details.stream()
                .filter(d -> key.equals(d.get("input_key")) && version.equals(d.get("input_version_id"))).toList();
        assertEquals(1, matching.size(), "one decision about " + key + " " + version + ": " + details);
        return matching.get(0);
    }

    /** The script's answer: its last line (boto3 may warn on the lines before it). */
    private static Map<String, Object> json(String text) throws Exception {
        List<String> lines = text.strip().lines().toList();
        return JSON.std.mapFrom(lines.get(lines.size() - 1));
    }
}
