package io.landingledger.localcloud.deploy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Object tagging as the gateway answers it in S3Proxy's place: per version, with S3's limits and errors (docs/emulators.md,
 * "Object tagging"), so that nothing is accepted here that S3 refuses.
 */
class ObjectTaggingTest {
    /** The store holds version v1 (current) and v2 of inbox/a.jsonl. */
    private final ObjectTagging tagging = new ObjectTagging((bucketKey, version) -> bucketKey[1].equals("a.jsonl")
            ? version == null ? "v2" : version.equals("v1") || version.equals("v2") ? version : null : null);

    private static byte[] tags(Map<String, String> tags) {
        StringBuilder xml = new StringBuilder("<Tagging xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><TagSet>");
        tags.forEach((k, v) -> xml.append("<Tag><Key>").append(k).append("</Key><Value>").append(v).append("</Value></Tag>"));
        return xml.append("</TagSet></Tagging>").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String body(AwsGateway.Answer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    @Test
    void tagsAreKeptPerVersion_andTheCurrentVersionIsTheOneWithoutAVersionId() {
        assertEquals(200, tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("landing-decision", "refused"))).status());
        assertTrue(body(tagging.answer("GET", "inbox", "a.jsonl", "v1", null)).contains("<Key>landing-decision</Key><Value>refused</Value>"));
        assertTrue(!body(tagging.answer("GET", "inbox", "a.jsonl", null, null)).contains("landing-decision"), "v2 has none");
        assertEquals("v1", tagging.answer("GET", "inbox", "a.jsonl", "v1", null).headers().get("x-amz-version-id"));
        assertEquals(204, tagging.answer("DELETE", "inbox", "a.jsonl", "v1", null).status());
        assertTrue(!body(tagging.answer("GET", "inbox", "a.jsonl", "v1", null)).contains("landing-decision"));
    }

    @Test
    void whatS3Refuses_isRefusedWithS3sCode() {
        Map<String, String> eleven = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 11; i++) {
            eleven.put("k" + i, "v");
        }
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(eleven))).contains("<Code>BadRequest</Code>"));
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("k".repeat(129), "v")))).contains("<Code>InvalidTag</Code>"));
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("k", "v".repeat(257))))).contains("<Code>InvalidTag</Code>"));
        assertEquals(200, tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("k".repeat(128), "v".repeat(256)))).status());
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("k", "a;b")))).contains("<Code>InvalidTag</Code>"));
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", tags(Map.of("aws:k", "v")))).contains("<Code>InvalidTag</Code>"));
        byte[] twice = "<Tagging><TagSet><Tag><Key>k</Key><Value>1</Value></Tag><Tag><Key>k</Key><Value>2</Value></Tag></TagSet></Tagging>"
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", twice)).contains("multiple Tags with the same key"));
        assertTrue(body(tagging.answer("PUT", "inbox", "a.jsonl", "v1", "not xml".getBytes(StandardCharsets.UTF_8))).contains("MalformedXML"));
        assertEquals(404, tagging.answer("GET", "inbox", "a.jsonl", "v9", null).status());
        assertTrue(body(tagging.answer("GET", "inbox", "a.jsonl", "v9", null)).contains("NoSuchVersion"));
        assertTrue(body(tagging.answer("PUT", "inbox", "b.jsonl", null, tags(Map.of("k", "v")))).contains("NoSuchKey"));
    }
}
