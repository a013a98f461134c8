package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class S3RequestActionsTest {
    static S3Request request(String method, String path, String query, String headers, boolean tls) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                parameters.put(eq < 0 ? pair : pair.substring(0, eq), List.of(eq < 0 ? "" : pair.substring(eq + 1)));
            }
        }
        Map<String, List<String>> headerMap = new LinkedHashMap<>();
        if (headers != null && !headers.isEmpty()) {
            for (String header : headers.split(";")) {
                int colon = header.indexOf(':');
                headerMap.put(header.substring(0, colon).strip(), List.of(header.substring(colon + 1).strip()));
            }
        }
        return S3Request.of(method, path, parameters, headerMap, tls);
    }

    private static String actions(RequestMapping mapping) {
        return mapping.requests().stream().map(r -> r.action() + " " + r.resource()).collect(Collectors.joining(", "));
    }

    @ParameterizedTest(name = "{0} {1}?{2} -> {5}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "GET|/lake/published/x|-|-|s3:GetObject arn:aws:s3:::lake/published/x|GetObject",
            "GET|/lake/published/x|versionId=v1|-|s3:GetObjectVersion arn:aws:s3:::lake/published/x|GetObject",
            "HEAD|/lake/published/x|-|-|s3:GetObject arn:aws:s3:::lake/published/x|HeadObject",
            "HEAD|/inbox/d/f.jsonl|versionId=v2|-|s3:GetObjectVersion arn:aws:s3:::inbox/d/f.jsonl|HeadObject",
            "GET|/lake/a%20b/c%2Bd+e%2F%C3%A9|x-id=GetObject|-|s3:GetObject arn:aws:s3:::lake/a b/c+d+e/é|GetObject",
            "PUT|/lake/published/x|-|-|s3:PutObject arn:aws:s3:::lake/published/x|PutObject",
            "POST|/lake/published/x|uploads|-|s3:PutObject arn:aws:s3:::lake/published/x|CreateMultipartUpload",
            "PUT|/lake/published/x|partNumber=1&uploadId=u|-|s3:PutObject arn:aws:s3:::lake/published/x|UploadPart",
            "PUT|/lake/published/x|partNumber=2&uploadId=u|x-amz-copy-source: lake/_staging/s.jsonl|"
                    + "s3:PutObject arn:aws:s3:::lake/published/x, s3:GetObject "
                    + "arn:aws:s3:::lake/_staging/s.jsonl|UploadPartCopy",
            "PUT|/lake/published/x|partNumber=2&uploadId=u|x-amz-copy-source: "
            + "/lake/_staging/s%3F.jsonl?versionId=v%2B1|"
                    + "s3:PutObject arn:aws:s3:::lake/published/x, s3:GetObjectVersion "
                    + "arn:aws:s3:::lake/_staging/s?.jsonl|UploadPartCopy",
            "PUT|/lake/published/x|-|x-amz-copy-source: /inbox/d/f|s3:PutObject arn:aws:s3:::lake/published/x, "
            + "s3:GetObject arn:aws:s3:::inbox/d/f|CopyObject",
            "POST|/lake/published/x|uploadId=u|-|s3:PutObject arn:aws:s3:::lake/published/x|CompleteMultipartUpload",
            "DELETE|/lake/published/x|uploadId=u|-|s3:AbortMultipartUpload "
            + "arn:aws:s3:::lake/published/x|AbortMultipartUpload",
            "GET|/lake/published/x|uploadId=u&max-parts=10|-|s3:ListMultipartUploadParts "
            + "arn:aws:s3:::lake/published/x|ListParts",
            "DELETE|/lake/_staging/s|-|-|s3:DeleteObject arn:aws:s3:::lake/_staging/s|DeleteObject",
            "DELETE|/inbox/d/f|versionId=v1|-|s3:DeleteObjectVersion arn:aws:s3:::inbox/d/f|DeleteObject",
            "GET|/lake|list-type=2&prefix=published/|-|s3:ListBucket arn:aws:s3:::lake|ListObjectsV2",
            "GET|/lake/|-|-|s3:ListBucket arn:aws:s3:::lake|ListObjects",
            "GET|/inbox|versions&prefix=d/|-|s3:ListBucketVersions arn:aws:s3:::inbox|ListObjectVersions",
            "GET|/lake|uploads|-|s3:ListBucketMultipartUploads arn:aws:s3:::lake|ListMultipartUploads",
            "HEAD|/lake|-|-|s3:ListBucket arn:aws:s3:::lake|HeadBucket",
            "GET|/|-|-|s3:ListAllMyBuckets *|ListBuckets",
            "PUT|/lake|-|-|s3:CreateBucket arn:aws:s3:::lake|CreateBucket",
            "DELETE|/lake|-|-|s3:DeleteBucket arn:aws:s3:::lake|DeleteBucket",
            "GET|/lake|versioning|-|s3:GetBucketVersioning arn:aws:s3:::lake|GetBucketVersioning",
            "PUT|/lake|versioning|-|s3:PutBucketVersioning arn:aws:s3:::lake|PutBucketVersioning",
            "GET|/lake|policy|-|s3:GetBucketPolicy arn:aws:s3:::lake|GetBucketPolicy",
            "PUT|/lake|policy|-|s3:PutBucketPolicy arn:aws:s3:::lake|PutBucketPolicy",
            "DELETE|/lake|policy|-|s3:DeleteBucketPolicy arn:aws:s3:::lake|DeleteBucketPolicy",
            "GET|/lake|lifecycle|-|s3:GetLifecycleConfiguration arn:aws:s3:::lake|GetBucketLifecycle",
            "PUT|/lake|lifecycle|-|s3:PutLifecycleConfiguration arn:aws:s3:::lake|PutBucketLifecycle",
            "DELETE|/lake|lifecycle|-|s3:PutLifecycleConfiguration arn:aws:s3:::lake|DeleteBucketLifecycle",
            "GET|/lake|encryption|-|s3:GetEncryptionConfiguration arn:aws:s3:::lake|GetBucketEncryption",
            "PUT|/lake|encryption|-|s3:PutEncryptionConfiguration arn:aws:s3:::lake|PutBucketEncryption",
            "GET|/lake|notification|-|s3:GetBucketNotification arn:aws:s3:::lake|GetBucketNotification",
            "PUT|/lake|notification|-|s3:PutBucketNotification arn:aws:s3:::lake|PutBucketNotification",
            "GET|/lake|ownershipControls|-|s3:GetBucketOwnershipControls arn:aws:s3:::lake|GetBucketOwnershipControls",
            "PUT|/lake|ownershipControls|-|s3:PutBucketOwnershipControls arn:aws:s3:::lake|PutBucketOwnershipControls",
            "GET|/lake|publicAccessBlock|-|s3:GetBucketPublicAccessBlock arn:aws:s3:::lake|GetBucketPublicAccessBlock",
            "PUT|/lake|publicAccessBlock|-|s3:PutBucketPublicAccessBlock arn:aws:s3:::lake|PutBucketPublicAccessBlock",
            "GET|/lake|tagging|-|s3:GetBucketTagging arn:aws:s3:::lake|GetBucketTagging",
            "PUT|/lake|tagging|-|s3:PutBucketTagging arn:aws:s3:::lake|PutBucketTagging",
            "GET|/lake|location|-|s3:GetBucketLocation arn:aws:s3:::lake|GetBucketLocation",
            "GET|/lake/published/x|tagging|-|s3:GetObjectTagging arn:aws:s3:::lake/published/x|GetObjectTagging",
            "GET|/lake/published/x|tagging&versionId=v|-|s3:GetObjectVersionTagging "
            + "arn:aws:s3:::lake/published/x|GetObjectTagging",
            "PUT|/lake/published/x|tagging|-|s3:PutObjectTagging arn:aws:s3:::lake/published/x|PutObjectTagging",
            "DELETE|/lake/published/x|tagging|-|s3:DeleteObjectTagging "
            + "arn:aws:s3:::lake/published/x|DeleteObjectTagging",
            "GET|/lake/published/x|legal-hold|-|s3:GetObjectLegalHold arn:aws:s3:::lake/published/x|GetObjectLegalHold",
            "GET|/lake/published/x|attributes&versionId=v|-|s3:GetObjectVersionAttributes "
            + "arn:aws:s3:::lake/published/x|GetObjectAttributes",
    })
    void operations(String method, String path, String query, String headers, String expected, String operation) {
        RequestMapping mapping = S3RequestActions.map(request(method, path, query, headers, true));
        assertTrue(mapping.mapped(), () -> "unmapped: " + mapping.unmappedReason());
        assertEquals(expected, actions(mapping));
        assertEquals(operation, mapping.operation());
        mapping.requests().forEach(r -> assertEquals("true", r.value("aws:SecureTransport")));
    }

    @ParameterizedTest(name = "{0} {1}?{2}: {4}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "PUT|/lake|replication|-|bucket sub-resource ?replication with PUT is not mapped",
            "GET|/lake/x|torrent|-|object sub-resource ?torrent is not mapped",
            "GET|/lake|tagging&policy|-|more than one sub-resource: [policy, tagging]",
            "POST|/lake|-|-|POST on a bucket without a sub-resource",
            "POST|/lake/x|select&select-type=2|-|more than one sub-resource",
            "PATCH|/lake/x|-|-|PATCH on an object is not mapped",
            "PUT|/lake/x|uploadId=u|-|PUT with uploadId but no partNumber",
            "PUT|/lake/x|-|x-amz-copy-source: nokey|x-amz-copy-source nokey is not bucket/key",
            "PUT|/lake/x|-|x-amz-copy-source: arn:aws:s3:us-east-1:1:accesspoint/ap/object/k|is not bucket/key",
            "GET|/lake/a%zz|-|-|a malformed percent-encoding",
            "POST|/lake|delete|-|DeleteObjects needs its body",
            "GET|lake/x|-|-|not a path-style request target",
    })
    void unrecognisedRequestsAreUnmappedWithTheirReason(String method, String path, String query, String headers,
            String reason) {
        RequestMapping mapping = S3RequestActions.map(request(method, path, query, headers, true));
        assertFalse(mapping.mapped());
        assertTrue(mapping.unmappedReason().contains(reason), mapping.unmappedReason());
        assertTrue(mapping.requests().isEmpty());
    }

    @Test
    void objectCreationOperationIsTrueOnlyForTheRequestsThatCreateTheObject() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("PutObject", "true");
        expected.put("CopyObject", "true");
        expected.put("CompleteMultipartUpload", "true");
        expected.put("CreateMultipartUpload", "false");
        expected.put("UploadPart", "false");
        expected.put("UploadPartCopy", "false");
        Map<String, S3Request> requests = Map.of(
                "PutObject", request("PUT", "/lake/published/x", null, null, true),
                "CopyObject", request("PUT", "/lake/published/x", null, "x-amz-copy-source: lake/s", true),
                "CompleteMultipartUpload", request("POST", "/lake/published/x", "uploadId=u", null, true),
                "CreateMultipartUpload", request("POST", "/lake/published/x", "uploads", null, true),
                "UploadPart", request("PUT", "/lake/published/x", "uploadId=u&partNumber=1", null, true),
                "UploadPartCopy",
                request("PUT", "/lake/published/x", "uploadId=u&partNumber=1", "x-amz-copy-source: lake/s", true));
        expected.forEach((operation, value) -> {
            RequestMapping mapping = S3RequestActions.map(requests.get(operation));
            assertEquals(operation, mapping.operation());
            assertEquals(value, mapping.requests().get(0).value("s3:ObjectCreationOperation"), operation);
            // the copy source's read is not an object creation
            mapping.requests().stream().skip(1).forEach(r -> assertNull(r.value("s3:ObjectCreationOperation")));
        });
        assertNull(S3RequestActions.map(request("GET", "/lake/published/x", null, null,
                true)).requests().get(0).value("s3:ObjectCreationOperation"));
    }

    @Test
    void conditionalHeadersBecomeKeysOnlyWhenSent() {
        AuthorizationRequest bare = S3RequestActions.map(request("POST", "/lake/published/x", "uploadId=u", null,
                true)).requests().get(0);
        assertNull(bare.value("s3:if-none-match"));
        assertNull(bare.value("s3:if-match"));
        AuthorizationRequest first = S3RequestActions.map(request("POST", "/lake/published/x", "uploadId=u",
                "If-None-Match: *", true)).requests().get(0);
        assertEquals("*", first.value("s3:if-none-match"));
        assertNull(first.value("s3:if-match"));
        AuthorizationRequest replace = S3RequestActions.map(request("PUT", "/lake/published/x", null,
                "if-match: \"etag\"", false)).requests().get(0);
        assertEquals("\"etag\"", replace.value("s3:if-match"));
        assertEquals("false", replace.value("aws:SecureTransport"));
    }

    @Test
    void encryptionHeadersBecomeKeysOnTheRequestsThatSetTheObjectsEncryption() {
        String headers = "x-amz-server-side-encryption: aws:kms;x-amz-server-side-encryption-aws-kms-key-id: k1;"
                + "x-amz-server-side-encryption-customer-algorithm: AES256;x-amz-storage-class: GLACIER;x-amz-acl: "
                + "private";
        for (S3Request r : List.of(request("PUT", "/inbox/d/f", null, headers, true),
                request("POST", "/inbox/d/f", "uploads", headers, true),
                request("PUT", "/inbox/d/f", null, headers + ";x-amz-copy-source: inbox/d/g", true))) {
            AuthorizationRequest put = S3RequestActions.map(r).requests().get(0);
            assertEquals("aws:kms", put.value("s3:x-amz-server-side-encryption"));
            assertEquals("k1", put.value("s3:x-amz-server-side-encryption-aws-kms-key-id"));
            assertEquals("AES256", put.value("s3:x-amz-server-side-encryption-customer-algorithm"));
            assertEquals("GLACIER", put.value("s3:x-amz-storage-class"));
            assertEquals("private", put.value("s3:x-amz-acl"));
        }
        AuthorizationRequest part = S3RequestActions.map(request("PUT", "/inbox/d/f", "uploadId=u&partNumber=1",
                headers, true)).requests().get(0);
        assertNull(part.value("s3:x-amz-server-side-encryption-customer-algorithm"));
    }

    @Test
    void listingsCarryTheirPrefixDelimiterAndMaxKeys() {
        AuthorizationRequest list = S3RequestActions.map(request("GET", "/lake",
                "list-type=2&prefix=published/d/&delimiter=/&max-keys=100", null, true))
                .requests().get(0);
        assertEquals("published/d/", list.value("s3:prefix"));
        assertEquals("/", list.value("s3:delimiter"));
        assertEquals("100", list.value("s3:max-keys"));
        AuthorizationRequest all = S3RequestActions.map(request("GET", "/lake", "list-type=2", null, true))
                .requests().get(0);
        assertNull(all.value("s3:prefix"));
        assertNull(all.value("s3:delimiter"));
        AuthorizationRequest root = S3RequestActions.map(request("GET", "/lake", "list-type=2&prefix=", null, true))
                .requests().get(0);
        assertEquals("", root.value("s3:prefix"));
        AuthorizationRequest head = S3RequestActions.map(request("HEAD", "/lake", null, null, true)).requests().get(0);
        assertNull(head.value("s3:prefix"));
    }

    @Test
    void versionedRequestsCarryTheVersionId() {
        assertEquals("v1",
                S3RequestActions.map(request("DELETE", "/inbox/d/f", "versionId=v1", null,
                true)).requests().get(0).value("s3:VersionId"));
        RequestMapping copy = S3RequestActions.map(request("PUT", "/lake/x", null,
                "x-amz-copy-source: inbox/d/f?versionId=v9", true));
        assertEquals("v9", copy.requests().get(1).value("s3:VersionId"));
        assertEquals("inbox/d/f?versionId=v9", copy.requests().get(0).value("s3:x-amz-copy-source"));
    }

    @Test
    void deleteObjectsNeedsEachKeyDeleted() {
        String body = """
                <?xml version="1.0" encoding="UTF-8"?>
                <Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>
                  <Object><Key>_staging/a</Key></Object>
                  <Object><Key>_staging/b &amp; c</Key><VersionId>v2</VersionId></Object>
                </Delete>""";
        RequestMapping mapping = S3RequestActions.map(request("POST", "/lake", "delete", null,
                true).withBody(body.getBytes(StandardCharsets.UTF_8)));
        assertEquals("DeleteObjects", mapping.operation());
        assertEquals("s3:DeleteObject arn:aws:s3:::lake/_staging/a, s3:DeleteObjectVersion "
                + "arn:aws:s3:::lake/_staging/b & c", actions(mapping));

        String doctype = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM "
                + "\"file:///etc/passwd\">]><Delete><Object><Key>&x;</Key></Object></Delete>";
        RequestMapping refused = S3RequestActions.map(request("POST", "/lake", "delete", null,
                true).withBody(doctype.getBytes(StandardCharsets.UTF_8)));
        assertFalse(refused.mapped());
        assertFalse(S3RequestActions.map(request("POST", "/lake", "delete", null,
                true).withBody("<Delete/>".getBytes(StandardCharsets.UTF_8))).mapped());
    }

    @Test
    void theGatewaysOwnKeysJoinEveryRequest() {
        RequestMapping copy = S3RequestActions.map(request("PUT", "/lake/x", null, "x-amz-copy-source: lake/y", true))
                .withContext(Map.of("aws:SourceAccount", List.of("123456789012")));
        copy.requests().forEach(r -> assertEquals("123456789012", r.value("aws:sourceaccount")));
    }
}
