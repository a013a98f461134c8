package io.landingledger.localcloud.iam;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.helpers.DefaultHandler;

/**
 * S3 REST requests (path-style, {@link S3Request}) to the IAM actions, resources and condition keys AWS authorizes them
 * with, from the Service Authorization Reference ("Actions, resources, and condition keys for Amazon S3") and each
 * operation's Permissions section in the S3 API reference:
 *
 * <ul>
 *   <li>GetObject and HeadObject: s3:GetObject on the object, s3:GetObjectVersion with a versionId (with
 *       s3:VersionId). ListParts: s3:ListMultipartUploadParts.</li>
 *   <li>PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload: s3:PutObject on the object. CopyObject
 *       and UploadPartCopy: s3:PutObject on the destination and s3:GetObject (s3:GetObjectVersion with a source
 *       versionId) on the x-amz-copy-source. AbortMultipartUpload: s3:AbortMultipartUpload. DeleteObject:
 *       s3:DeleteObject, s3:DeleteObjectVersion with a versionId. DeleteObjects: s3:DeleteObject (or
 *       s3:DeleteObjectVersion) per key of its body.</li>
 *   <li>ListObjects and ListObjectsV2: s3:ListBucket on the bucket with s3:prefix, s3:delimiter and s3:max-keys when
 *       the request sends them (no prefix parameter: no s3:prefix key, so a prefix condition without IfExists refuses
 *       the listing; {@code prefix=} is the key with the empty value);
 *       ListObjectVersions: s3:ListBucketVersions with the same keys; ListMultipartUploads:
 *       s3:ListBucketMultipartUploads; HeadBucket: s3:ListBucket (no s3:prefix); ListBuckets: s3:ListAllMyBuckets.</li>
 *   <li>Bucket sub-resources (versioning, policy, lifecycle, encryption, notification, ownershipControls,
 *       publicAccessBlock, tagging, location, acl, cors) to their Get/Put actions; their DELETEs to the Put action
 *       where AWS says so (DeleteBucketLifecycle is s3:PutLifecycleConfiguration) and to s3:DeleteBucketPolicy;
 *       CreateBucket, DeleteBucket. Object tagging and ACLs (their Version forms with a versionId), retention,
 *       legal hold, attributes, RestoreObject.</li>
 * </ul>
 *
 * Condition keys: aws:SecureTransport on every request (from the connection). On the s3:PutObject of an object
 * creation: s3:ObjectCreationOperation ("true" for PutObject, CopyObject and CompleteMultipartUpload, which create
 * the object; "false" for CreateMultipartUpload, UploadPart and UploadPartCopy: S3 user guide, "Enforce conditional
 * writes on Amazon S3 buckets"), s3:if-none-match and s3:if-match when the request carries If-None-Match or If-Match,
 * s3:x-amz-copy-source on a copy; on PutObject, CreateMultipartUpload and CopyObject the headers
 * x-amz-server-side-encryption, x-amz-server-side-encryption-aws-kms-key-id,
 * x-amz-server-side-encryption-customer-algorithm, x-amz-acl and x-amz-storage-class as s3:&lt;header&gt; keys. Not
 * set: s3:ExistingObjectTag, s3:RequestObjectTag, s3:authType, s3:signatureversion, s3:TlsVersion.
 *
 * <p>A request it does not recognise (virtual-host or access-point forms, an unknown or second sub-resource, POST
 * form uploads, SelectObjectContent) maps to {@link RequestMapping#unmapped} with the reason.
 */
public final class S3RequestActions {
    /** Query parameters that are arguments, not sub-resources naming another operation. */
    private static final Set<String> ARGUMENTS = Set.of("versionId", "uploadId", "partNumber", "list-type", "prefix",
            "delimiter", "max-keys", "continuation-token", "start-after", "fetch-owner", "encoding-type", "marker",
            "key-marker", "version-id-marker", "upload-id-marker", "max-uploads", "max-parts", "part-number-marker",
            "x-id", "max-buckets", "bucket-region", "response-content-type", "response-content-language",
            "response-expires", "response-cache-control", "response-content-disposition", "response-content-encoding",
            "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
            "X-Amz-Signature", "X-Amz-Security-Token", "X-Amz-Content-Sha256",
            "X-Amz-User-Agent");
    private static final List<String> CREATION_HEADERS = List.of("x-amz-server-side-encryption",
            "x-amz-server-side-encryption-aws-kms-key-id", "x-amz-server-side-encryption-customer-algorithm",
            "x-amz-acl",
            "x-amz-storage-class");

    /** Bucket sub-resource -> (GET action, PUT action, DELETE action); null where S3 has no such operation. */
    private static final Map<String, List<String>> BUCKET_SUBRESOURCES = Map.ofEntries(
            Map.entry("versioning", actions("s3:GetBucketVersioning", "s3:PutBucketVersioning", null)),
            Map.entry("policy", actions("s3:GetBucketPolicy", "s3:PutBucketPolicy", "s3:DeleteBucketPolicy")),
            Map.entry("lifecycle",
                    actions("s3:GetLifecycleConfiguration", "s3:PutLifecycleConfiguration",
                    "s3:PutLifecycleConfiguration")),
            Map.entry("encryption",
                    actions("s3:GetEncryptionConfiguration", "s3:PutEncryptionConfiguration",
                    "s3:PutEncryptionConfiguration")),
            Map.entry("notification", actions("s3:GetBucketNotification", "s3:PutBucketNotification", null)),
            Map.entry("ownershipControls",
                    actions("s3:GetBucketOwnershipControls", "s3:PutBucketOwnershipControls",
                    "s3:PutBucketOwnershipControls")),
            Map.entry("publicAccessBlock",
                    actions("s3:GetBucketPublicAccessBlock", "s3:PutBucketPublicAccessBlock",
                    "s3:PutBucketPublicAccessBlock")),
            Map.entry("tagging", actions("s3:GetBucketTagging", "s3:PutBucketTagging", "s3:PutBucketTagging")),
            Map.entry("location", actions("s3:GetBucketLocation", null, null)),
            Map.entry("acl", actions("s3:GetBucketAcl", "s3:PutBucketAcl", null)),
            Map.entry("cors", actions("s3:GetBucketCORS", "s3:PutBucketCORS", "s3:PutBucketCORS")),
            Map.entry("policyStatus", actions("s3:GetBucketPolicyStatus", null, null)),
            Map.entry("object-lock",
                    actions("s3:GetBucketObjectLockConfiguration", "s3:PutBucketObjectLockConfiguration", null)));

    /** Object sub-resource -> (GET action, PUT action, DELETE action), each with its Version form after a '|'. */
    private static final Map<String, List<String>> OBJECT_SUBRESOURCES = Map.of(
            "tagging", actions("s3:GetObjectTagging|s3:GetObjectVersionTagging",
                    "s3:PutObjectTagging|s3:PutObjectVersionTagging",
                    "s3:DeleteObjectTagging|s3:DeleteObjectVersionTagging"),
            "acl", actions("s3:GetObjectAcl|s3:GetObjectVersionAcl", "s3:PutObjectAcl|s3:PutObjectVersionAcl", null),
            "attributes", actions("s3:GetObjectAttributes|s3:GetObjectVersionAttributes", null, null),
            "retention", actions("s3:GetObjectRetention|s3:GetObjectRetention",
                    "s3:PutObjectRetention|s3:PutObjectRetention", null),
            "legal-hold", actions("s3:GetObjectLegalHold|s3:GetObjectLegalHold",
                    "s3:PutObjectLegalHold|s3:PutObjectLegalHold", null));

    private S3RequestActions() {
    }

    private static List<String> actions(String get, String put, String delete) {
        List<String> list = new ArrayList<>();
        list.add(get);
        list.add(put);
        list.add(delete);
        return list;
    }

    /** The IAM actions {@code request} needs, or why it is unmapped. */
    public static RequestMapping map(S3Request request) {
        String path = request.rawPath();
        String where = request.method() + " " + path;
        if (path == null || !path.startsWith("/")) {
            return RequestMapping.unmapped(where, "not a path-style request target");
        }
        List<String> subresources = request.query().keySet().stream()
                .filter(k -> !ARGUMENTS.contains(k)).sorted().toList();
        if (subresources.size() > 1) {
            return RequestMapping.unmapped(where, "more than one sub-resource: " + subresources);
        }
        String subresource = subresources.isEmpty() ? null : subresources.get(0);
        String rest = path.substring(1);
        int slash = rest.indexOf('/');
        String bucket;
        String key;
        try {
            bucket = decode(slash < 0 ? rest : rest.substring(0, slash));
            key = slash < 0 ? "" : decode(rest.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            return RequestMapping.unmapped(where, e.getMessage());
        }
        AuthorizationRequest base = AuthorizationRequest.of("", "").with("aws:SecureTransport",
                String.valueOf(request.tls()));
        if (bucket.isEmpty()) {
            return request.method().equals("GET") && subresource == null
                    ? RequestMapping.of("ListBuckets", request("s3:ListAllMyBuckets", "*", base))
                    : RequestMapping.unmapped(where, "no bucket in the path");
        }
        return key.isEmpty() ? bucketLevel(request, where, bucket, subresource, base)
                : objectLevel(request, where, bucket, key, subresource, base);
    }

    // ---- bucket -------------------------------------------------------------------------------------------------

    private static RequestMapping bucketLevel(S3Request request, String where, String bucket, String subresource,
            AuthorizationRequest base) {
        String arn = "arn:aws:s3:::" + bucket;
        String method = request.method();
        if (subresource == null) {
            return switch (method) {
                case "GET" -> RequestMapping.of(request.parameter("list-type") != null ? "ListObjectsV2"
                        : "ListObjects",
                        listing(request, request("s3:ListBucket", arn, base)));
                case "HEAD" -> RequestMapping.of("HeadBucket", request("s3:ListBucket", arn, base));
                case "PUT" -> RequestMapping.of("CreateBucket", request("s3:CreateBucket", arn, base));
                case "DELETE" -> RequestMapping.of("DeleteBucket", request("s3:DeleteBucket", arn, base));
                default -> RequestMapping.unmapped(where, method
                        + " on a bucket without a sub-resource (a browser form upload?) is not mapped");
            };
        }
        switch (subresource) {
            case "versions" -> {
                AuthorizationRequest list = listing(request, request("s3:ListBucketVersions", arn, base));
                return method.equals("GET") ? RequestMapping.of("ListObjectVersions", list)
                        : RequestMapping.unmapped(where, method + " ?versions");
            }
            case "uploads" -> {
                return method.equals("GET")
                        ? RequestMapping.of("ListMultipartUploads", request("s3:ListBucketMultipartUploads", arn, base))
                        : RequestMapping.unmapped(where, method + " ?uploads on a bucket");
            }
            case "delete" -> {
                return method.equals("POST") ? deleteObjects(request, where, bucket, base)
                        : RequestMapping.unmapped(where, method + " ?delete");
            }
            default -> {
            }
        }
        List<String> actions = BUCKET_SUBRESOURCES.get(subresource);
        int index = switch (method) {
            case "GET", "HEAD" -> 0;
            case "PUT" -> 1;
            case "DELETE" -> 2;
            default -> -1;
        };
        if (actions == null || index < 0 || actions.get(index) == null) {
            return RequestMapping.unmapped(where, "bucket sub-resource ?" + subresource + " with " + method
                    + " is not mapped");
        }
        String action = actions.get(index);
        String verb = index == 0 ? "Get" : index == 1 ? "Put" : "Delete";
        return RequestMapping.of(verb + "Bucket" + Character.toUpperCase(subresource.charAt(0))
                + subresource.substring(1),
                request(action, arn, base));
    }

    private static AuthorizationRequest listing(S3Request request, AuthorizationRequest list) {
        String prefix = request.parameter("prefix");
        AuthorizationRequest out = prefix == null ? list : list.with("s3:prefix", prefix);
        if (request.parameter("delimiter") != null) {
            out = out.with("s3:delimiter", request.parameter("delimiter"));
        }
        String maxKeys = request.parameter("max-keys");
        return maxKeys == null ? out : out.with("s3:max-keys", maxKeys);
    }

    private static RequestMapping deleteObjects(S3Request request, String where, String bucket,
            AuthorizationRequest base) {
        if (request.body() == null) {
            return RequestMapping.unmapped(where,
                    "DeleteObjects needs its body to name the keys (pass it with S3Request.withBody)");
        }
        List<AuthorizationRequest> deletes = new ArrayList<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setNamespaceAware(true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // throws on fatal errors without printing them to stderr
            Document document = builder.parse(new ByteArrayInputStream(request.body()));
            NodeList objects = document.getDocumentElement().getChildNodes();
            for (int i = 0; i < objects.getLength(); i++) {
                if (objects.item(i) instanceof Element object && "Object".equals(object.getLocalName())) {
                    String key = child(object, "Key");
                    if (key == null || key.isEmpty()) {
                        return RequestMapping.unmapped(where, "DeleteObjects: an Object without a Key");
                    }
                    deletes.add(objectAction("s3:DeleteObject", "s3:DeleteObjectVersion", bucket, key,
                            child(object, "VersionId"), base));
                }
            }
        } catch (Exception e) {
            return RequestMapping.unmapped(where, "DeleteObjects: the body is not a Delete document: "
                    + e.getMessage());
        }
        return deletes.isEmpty() ? RequestMapping.unmapped(where, "DeleteObjects names no object")
                : RequestMapping.of("DeleteObjects", deletes);
    }

    private static String child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element e && name.equals(e.getLocalName())) {
                return e.getTextContent();
            }
        }
        return null;
    }

    // ---- object -------------------------------------------------------------------------------------------------

    private static RequestMapping objectLevel(S3Request request, String where, String bucket, String key,
            String subresource,
                                              AuthorizationRequest base) {
        String method = request.method();
        String versionId = request.parameter("versionId");
        boolean upload = request.parameter("uploadId") != null;
        if (subresource != null && OBJECT_SUBRESOURCES.containsKey(subresource)) {
            int index = switch (method) {
                case "GET", "HEAD" -> 0;
                case "PUT" -> 1;
                case "DELETE" -> 2;
                default -> -1;
            };
            String actions = index < 0 ? null : OBJECT_SUBRESOURCES.get(subresource).get(index);
            if (actions == null) {
                return RequestMapping.unmapped(where, "object sub-resource ?" + subresource + " with " + method
                        + " is not mapped");
            }
            String[] plainAndVersion = actions.split("\\|");
            String verb = index == 0 ? "Get" : index == 1 ? "Put" : "Delete";
            return RequestMapping.of(verb + "Object" + Character.toUpperCase(subresource.charAt(0))
                    + subresource.substring(1).replace("-h", "H"),
                    objectAction(plainAndVersion[0], plainAndVersion[1], bucket, key, versionId, base));
        }
        if (subresource != null && !subresource.equals("uploads") && !subresource.equals("restore")) {
            return RequestMapping.unmapped(where, "object sub-resource ?" + subresource + " is not mapped");
        }
        String copySource = request.header("x-amz-copy-source");
        switch (method) {
            case "GET", "HEAD" -> {
                if (subresource != null) {
                    break;
                }
                if (upload && method.equals("GET")) {
                    return RequestMapping.of("ListParts", objectAction("s3:ListMultipartUploadParts",
                            "s3:ListMultipartUploadParts", bucket, key, null, base));
                }
                return RequestMapping.of(method.equals("GET") ? "GetObject" : "HeadObject",
                        objectAction("s3:GetObject", "s3:GetObjectVersion", bucket, key, versionId, base));
            }
            case "PUT" -> {
                if (subresource != null) {
                    break;
                }
                boolean part = upload && request.parameter("partNumber") != null;
                if (upload && !part) {
                    return RequestMapping.unmapped(where, "PUT with uploadId but no partNumber");
                }
                String operation = part ? (copySource != null ? "UploadPartCopy" : "UploadPart")
                        : copySource != null ? "CopyObject" : "PutObject";
                boolean creates = !part;
                AuthorizationRequest put = creation(request, request("s3:PutObject", objectArn(bucket, key), base),
                        creates, creates);
                if (copySource == null) {
                    return RequestMapping.of(operation, put);
                }
                AuthorizationRequest source = copySource(copySource, base);
                if (source == null) {
                    return RequestMapping.unmapped(where,
                            "x-amz-copy-source " + copySource + " is not bucket/key[?versionId=...]");
                }
                return RequestMapping.of(operation, List.of(put.with("s3:x-amz-copy-source", copySource), source));
            }
            case "POST" -> {
                if ("uploads".equals(subresource)) {
                    return RequestMapping.of("CreateMultipartUpload",
                            creation(request, request("s3:PutObject", objectArn(bucket, key), base), false, true));
                }
                if ("restore".equals(subresource)) {
                    return RequestMapping.of("RestoreObject",
                            objectAction("s3:RestoreObject", "s3:RestoreObject", bucket, key, null, base));
                }
                if (upload) {
                    return RequestMapping.of("CompleteMultipartUpload",
                            creation(request, request("s3:PutObject", objectArn(bucket, key), base), true, false));
                }
            }
            case "DELETE" -> {
                if (subresource != null) {
                    break;
                }
                if (upload) {
                    return RequestMapping.of("AbortMultipartUpload", objectAction("s3:AbortMultipartUpload",
                            "s3:AbortMultipartUpload", bucket, key, null, base));
                }
                return RequestMapping.of("DeleteObject",
                        objectAction("s3:DeleteObject", "s3:DeleteObjectVersion", bucket, key, versionId, base));
            }
            default -> {
            }
        }
        return RequestMapping.unmapped(where, method + " on an object"
                + (subresource == null ? "" : " with ?" + subresource) + " is not mapped");
    }

    /**
     * The condition keys of an object creation's s3:PutObject. {@code creates}: the request creates the object
     * (s3:ObjectCreationOperation); {@code encryptionHeaders}: it is one that carries the object's encryption, ACL and
     * storage class (PutObject, CreateMultipartUpload, CopyObject).
     */
    private static AuthorizationRequest creation(S3Request request, AuthorizationRequest put, boolean creates,
            boolean encryptionHeaders) {
        AuthorizationRequest out = put.with("s3:ObjectCreationOperation", String.valueOf(creates));
        if (request.header("If-None-Match") != null) {
            out = out.with("s3:if-none-match", request.header("If-None-Match"));
        }
        if (request.header("If-Match") != null) {
            out = out.with("s3:if-match", request.header("If-Match"));
        }
        if (encryptionHeaders) {
            for (String header : CREATION_HEADERS) {
                if (request.header(header) != null) {
                    out = out.with("s3:" + header, request.header(header));
                }
            }
        }
        return out;
    }

    /** The s3:GetObject(Version) a copy needs on its source, or null when the header is not bucket/key. */
    private static AuthorizationRequest copySource(String header, AuthorizationRequest base) {
        try {
            return copySourceOrThrow(header, base);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static AuthorizationRequest copySourceOrThrow(String header, AuthorizationRequest base) {
        String source = header.startsWith("/") ? header.substring(1) : header;
        String versionId = null;
        int query = source.indexOf('?');
        if (query >= 0) {
            String parameters = source.substring(query + 1);
            source = source.substring(0, query);
            if (!parameters.startsWith("versionId=")) {
                return null;
            }
            versionId = decode(parameters.substring("versionId=".length()));
        }
        int slash = source.indexOf('/');
        if (slash <= 0 || slash == source.length() - 1 || source.startsWith("arn:")) {
            return null;
        }
        return objectAction("s3:GetObject", "s3:GetObjectVersion", decode(source.substring(0, slash)),
                decode(source.substring(slash + 1)),
                versionId, base);
    }

    private static AuthorizationRequest objectAction(String action, String versionAction, String bucket, String key,
            String versionId,
                                                     AuthorizationRequest base) {
        if (versionId == null || versionId.isEmpty()) {
            return request(action, objectArn(bucket, key), base);
        }
        return request(versionAction, objectArn(bucket, key), base).with("s3:VersionId", versionId);
    }

    private static String objectArn(String bucket, String key) {
        return "arn:aws:s3:::" + bucket + "/" + key;
    }

    private static AuthorizationRequest request(String action, String resource, AuthorizationRequest base) {
        return new AuthorizationRequest(action, resource, base.context());
    }

    /** Percent-decoding as S3 reads a path: UTF-8, and '+' is a plus. */
    static String decode(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length() || Character.digit(text.charAt(i + 1), 16) < 0
                        || Character.digit(text.charAt(i + 2), 16) < 0) {
                    throw new IllegalArgumentException("a malformed percent-encoding in " + text);
                }
                bytes.write(Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16));
                i += 2;
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
                    encoded = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.write(encoded, 0, encoded.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
