package io.landingledger.localcloud.deploy;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

/**
 * Object tagging (GetObjectTagging, PutObjectTagging, DeleteObjectTagging, each of a version with {@code versionId})
 * answered at the gateway: S3Proxy 4.1 answers every {@code ?tagging} request 501 NotImplemented (docs/emulators.md,
 * "Object tagging"). Tags are kept per version, as S3 keeps them, and checked as S3 checks them: at most 10 tags, keys
 * of 1 to 128 characters and values of at most 256, unique keys, letters, digits, spaces and {@code + - = . _ : / @}
 * only, no key starting {@code aws:}; a version the store does not hold is 404 NoSuchVersion (NoSuchKey without a
 * version id). Tagging creates no version and no notification. Authorization is the gateway's, as for every request.
 */
final class ObjectTagging {
    static final int MAX_TAGS = 10;
    static final int MAX_KEY = 128;
    static final int MAX_VALUE = 256;
    /** The characters S3 allows in tag keys and values ("Categorizing your storage using tags"). */
    private static final Pattern ALLOWED = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");
    private static final String XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";

    private final Map<String, Map<String, String>> tags = new ConcurrentHashMap<>();
    /** (bucket, key) and a version id or null to the version id the store holds, or null when it holds none. */
    private final BiFunction<String[], String, String> versions;

    /** {@code versions}: {bucket, key} and a version id (null: the current one) to the version the store holds, or null. */
    ObjectTagging(BiFunction<String[], String, String> versions) {
        this.versions = versions;
    }

    /** The answer to a {@code ?tagging} request on {@code bucket}/{@code key}. */
    AwsGateway.Answer answer(String method, String bucket, String key, String versionId, byte[] body) {
        String version = versions.apply(new String[] {bucket, key}, versionId);
        if (version == null) {
            return versionId == null ? AwsGateway.s3Error(404, "NoSuchKey", "The specified key does not exist.")
                    : AwsGateway.s3Error(404, "NoSuchVersion", "The specified version does not exist.");
        }
        String id = bucket + '\u0000' + key + '\u0000' + version;
        Map<String, String> headers = Map.of("x-amz-version-id", version, "Content-Type", "application/xml");
        switch (method) {
            case "GET" -> {
                StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Tagging xmlns=\"")
                        .append(XMLNS).append("\"><TagSet>");
                tags.getOrDefault(id, Map.of()).forEach((k, v) -> xml.append("<Tag><Key>").append(AwsGateway.xmlEscape(k))
                        .append("</Key><Value>").append(AwsGateway.xmlEscape(v)).append("</Value></Tag>"));
                xml.append("</TagSet></Tagging>");
                return new AwsGateway.Answer(200, headers, xml.toString().getBytes(StandardCharsets.UTF_8));
            }
            case "PUT" -> {
                Map<String, String> set = new LinkedHashMap<>();
                AwsGateway.Answer invalid = parse(body, set);
                if (invalid != null) {
                    return invalid;
                }
                tags.put(id, set);
                return new AwsGateway.Answer(200, Map.of("x-amz-version-id", version), new byte[0]);
            }
            case "DELETE" -> {
                tags.remove(id);
                return new AwsGateway.Answer(204, Map.of("x-amz-version-id", version), new byte[0]);
            }
            default -> {
                return AwsGateway.s3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
            }
        }
    }

    /** Reads the Tagging document into {@code set}; the error S3 answers when it is not one S3 stores, else null. */
    private static AwsGateway.Answer parse(byte[] body, Map<String, String> set) {
        NodeList list;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setNamespaceAware(true);
            Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(body == null ? new byte[0] : body));
            list = document.getElementsByTagNameNS("*", "Tag");
        } catch (Exception e) {
            return AwsGateway.s3Error(400, "MalformedXML",
                    "The XML you provided was not well-formed or did not validate against our published schema");
        }
        if (list.getLength() > MAX_TAGS) {
            return AwsGateway.s3Error(400, "BadRequest", "Object tags cannot be greater than 10");
        }
        for (int i = 0; i < list.getLength(); i++) {
            Element tag = (Element) list.item(i);
            String key = text(tag, "Key");
            String value = text(tag, "Value");
            if (key == null || value == null) {
                return AwsGateway.s3Error(400, "MalformedXML",
                        "The XML you provided was not well-formed or did not validate against our published schema");
            }
            if (key.isEmpty() || key.length() > MAX_KEY) {
                return AwsGateway.s3Error(400, "InvalidTag", "The TagKey you have provided is too long, max 128");
            }
            if (value.length() > MAX_VALUE) {
                return AwsGateway.s3Error(400, "InvalidTag", "The TagValue you have provided is too long, max 256");
            }
            if (!ALLOWED.matcher(key).matches()) {
                return AwsGateway.s3Error(400, "InvalidTag", "The TagKey you have provided is invalid");
            }
            if (!ALLOWED.matcher(value).matches()) {
                return AwsGateway.s3Error(400, "InvalidTag", "The TagValue you have provided is invalid");
            }
            if (key.startsWith("aws:")) {
                return AwsGateway.s3Error(400, "InvalidTag", "Your TagKey cannot be prefixed with aws:");
            }
            if (set.put(key, value) != null) {
                return AwsGateway.s3Error(400, "InvalidTag", "Cannot provide multiple Tags with the same key");
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        NodeList nodes = parent.getElementsByTagNameNS("*", name);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
    }
}
