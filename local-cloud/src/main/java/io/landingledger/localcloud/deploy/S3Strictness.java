package io.landingledger.localcloud.deploy;

import io.landingledger.localcloud.iam.S3Request;
import io.landingledger.localcloud.iam.S3RequestActions;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What S3 refuses and the local S3 emulator (S3Proxy 4.1, transient store) stores anyway, answered at the gateway as
 * S3 answers it, so that no test passes because the emulator forgives (docs/emulators.md, "Strictness", has each gap
 * measured):
 *
 * <ul>
 *   <li>{@code If-None-Match} on PutObject, CopyObject and CompleteMultipartUpload takes only {@code *}; S3 answers
 *       any other value 501 NotImplemented (header If-None-Match). S3Proxy reads it as an ETag to differ from and
 *       overwrites.</li>
 *   <li>A key longer than 1,024 bytes of UTF-8: 400 KeyTooLongError on the requests that create an object.</li>
 * </ul>
 *
 * And where S3 accepts what the emulator cannot do, the local stack refuses rather than pass it on to be lost:
 * <ul>
 *   <li>a conditional CopyObject ({@code If-None-Match: *} or {@code If-Match}): S3 evaluates the condition on the
 *       destination; S3Proxy ignores it and overwrites. Refused 501 NotImplemented (use the multipart copy that
 *       docs/emulators.md names).</li>
 *   <li>a body under a key ending in {@code /}: S3 stores it; S3Proxy stores an empty object and drops the bytes.
 *       PutObject with a body, CopyObject and CreateMultipartUpload to such a key are refused 501 NotImplemented; an
 *       empty "folder" marker passes.</li>
 * </ul>
 */
final class S3Strictness {
    /** S3's limit on a key: "The name for a key is a sequence of Unicode characters whose UTF-8 encoding is at most 1,024 bytes long." */
    static final int MAX_KEY_BYTES = 1024;
    static final String NOT_IMPLEMENTED = "A header you provided implies functionality that is not implemented";

    private S3Strictness() {
    }

    /**
     * The answer to {@code request} (on the object {@code key}, decoded; null or empty for a bucket-level request)
     * when S3 refuses it or the emulator would lose what S3 keeps; null to pass it on.
     */
    static AwsGateway.Answer refusal(AccessPolicy.Request request, String key) {
        if (key == null || key.isEmpty()) {
            return null;
        }
        String operation = operation(request);
        boolean creates = switch (operation) {
            case "PutObject", "CopyObject", "CreateMultipartUpload", "CompleteMultipartUpload" -> true;
            default -> false;
        };
        if (!creates) {
            return null;
        }
        int keyBytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (keyBytes > MAX_KEY_BYTES) {
            Map<String, String> sizes = new LinkedHashMap<>();
            sizes.put("Size", Integer.toString(keyBytes));
            sizes.put("MaxSizeAllowed", Integer.toString(MAX_KEY_BYTES));
            return AwsGateway.s3Error(400, "KeyTooLongError", "Your key is too long", sizes);
        }
        String ifNoneMatch = request.headers().get("if-none-match");
        boolean conditional = operation.equals("PutObject") || operation.equals("CopyObject")
                || operation.equals("CompleteMultipartUpload");
        if (conditional && ifNoneMatch != null && !ifNoneMatch.trim().equals("*")) {
            return AwsGateway.s3Error(501, "NotImplemented", NOT_IMPLEMENTED, Map.of("Header", "If-None-Match"));
        }
        if (operation.equals("CopyObject") && (ifNoneMatch != null || request.headers().get("if-match") != null)) {
            String header = ifNoneMatch != null ? "If-None-Match" : "If-Match";
            return AwsGateway.s3Error(501, "NotImplemented", NOT_IMPLEMENTED + " on the local stack: its S3 emulator "
                    + "ignores " + header + " on CopyObject and would overwrite; copy with UploadPartCopy and a "
                    + "conditional CompleteMultipartUpload instead", Map.of("Header", header));
        }
        if (key.endsWith("/") && losesBody(operation, request.headers())) {
            return AwsGateway.s3Error(501, "NotImplemented", "The local stack's S3 emulator stores an object whose key "
                    + "ends in '/' without its body (S3 keeps it): refused here rather than lose the data; an empty "
                    + "folder marker is accepted", Map.of());
        }
        return null;
    }

    /** Whether the emulator would store this request's object under a key ending in '/' without its bytes. */
    private static boolean losesBody(String operation, Map<String, String> headers) {
        if (!operation.equals("PutObject")) {
            // a copy or a multipart upload brings bytes the emulator would drop; CompleteMultipartUpload cannot
            // arrive here without the CreateMultipartUpload refused below it
            return !operation.equals("CompleteMultipartUpload");
        }
        String length = headers.get("x-amz-decoded-content-length");
        if (length == null) {
            length = headers.get("content-length");
        }
        return length == null || !length.trim().equals("0");
    }

    /** The S3 operation the request is, by the one mapping IAM authorizes it with. */
    private static String operation(AccessPolicy.Request request) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        request.query().forEach((name, value) -> query.put(name, List.of(value)));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        request.headers().forEach((name, value) -> headers.put(name, List.of(value)));
        String operation = S3RequestActions.map(S3Request.of(request.method(), request.rawPath(), query, headers,
                request.secure())).operation();
        return operation == null ? "" : operation;
    }
}
