package io.landingledger.cli.stack;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

/**
 * CloudFormation's {@code DescribeStackResources} through its Query API (form-encoded POST, XML answer), signed with
 * the SDK's SigV4 signer and the credentials given (by default the SDK's default chain). The SDK's own cloudformation
 * module is not in this build's offline repository; this one call is all {@code --stack} needs.
 */
public final class CloudFormationQuery implements AutoCloseable {
    static final String API_VERSION = "2010-05-15";

    private final URI endpoint;
    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final SdkHttpClient http;

    public CloudFormationQuery(URI endpoint, Region region, AwsCredentialsProvider credentials) {
        this.endpoint = endpoint;
        this.region = region;
        this.credentials = credentials;
        this.http = UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(30)).build();
    }

    /** The regional endpoint (https://cloudformation.REGION.amazonaws.com, or the partition's suffix) and the default credentials chain. */
    public static CloudFormationQuery create(Region region) {
        String suffix = "amazonaws.com";
        try {
            PartitionMetadata partition = PartitionMetadata.of(region);
            if (partition != null && partition.dnsSuffix() != null) {
                suffix = partition.dnsSuffix();
            }
        } catch (RuntimeException unknownRegion) {
            // keep amazonaws.com
        }
        return new CloudFormationQuery(URI.create("https://cloudformation." + region.id() + "." + suffix + "/"), region,
                DefaultCredentialsProvider.builder().build());
    }

    /** The stack's resources: logical id to physical id (DescribeStackResources, which returns up to 100; the template has fewer). */
    public Map<String, String> describeStackResources(String stackName) {
        String body = "Action=DescribeStackResources&Version=" + API_VERSION + "&StackName=" + URLEncoder.encode(stackName, StandardCharsets.UTF_8);
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(endpoint)
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8").build();
        ContentStreamProvider payload = ContentStreamProvider.fromUtf8String(body);
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials()).request(request).payload(payload)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "cloudformation")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(payload)).build()).call();
            byte[] xml;
            try (InputStream in = response.responseBody().map(s -> (InputStream) s).orElse(InputStream.nullInputStream())) {
                xml = in.readAllBytes();
            }
            Document document = parse(xml);
            int status = response.httpResponse().statusCode();
            if (status != 200) {
                throw new StackResolutionException("CloudFormation refused DescribeStackResources for stack '" + stackName + "' (HTTP "
                        + status + " " + text(document, "Code") + ": " + text(document, "Message") + ")");
            }
            Map<String, String> resources = new LinkedHashMap<>();
            NodeList members = document.getElementsByTagNameNS("*", "member");
            for (int i = 0; i < members.getLength(); i++) {
                Element member = (Element) members.item(i);
                String logical = child(member, "LogicalResourceId");
                String physical = child(member, "PhysicalResourceId");
                if (logical != null && physical != null) {
                    resources.put(logical, physical);
                }
            }
            return resources;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach CloudFormation at " + endpoint + ": " + e.getMessage(), e);
        }
    }

    private static Document parse(byte[] xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (Exception e) {
            throw new StackResolutionException("CloudFormation's answer is not XML: " + e.getMessage());
        }
    }

    private static String child(Element parent, String name) {
        NodeList nodes = parent.getElementsByTagNameNS("*", name);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().strip();
    }

    private static String text(Document document, String name) {
        NodeList nodes = document.getElementsByTagNameNS("*", name);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().strip();
    }

    @Override
    public void close() {
        http.close();
    }
}
