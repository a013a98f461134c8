package io.landingledger.localcloud.deploy;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one endpoint of the locally deployed stack, as AWS's endpoints are to a deployed one: every request is signed
 * (SigV4), its access key says which principal sent it, and {@link AccessPolicy} decides before any service sees it.
 * S3 requests then go to S3Proxy byte for byte (S3Proxy verifies each signature with the key's secret), DynamoDB and
 * SQS to moto; Lambda, CloudFormation and EventBridge are answered here from the deployment. An object created in a
 * bucket is announced to {@link ObjectCreatedListener} after S3 answered, as S3 sends its notifications. What S3 refuses
 * and S3Proxy would accept (or accept and lose) is answered here as S3 answers it ({@link S3Strictness}).
 *
 * <p>One request per connection (the answer carries {@code Connection: close}), on a virtual thread each: the SDKs
 * open a new connection per request, and a streamed S3 body needs no framing of ours.
 */
public final class AwsGateway implements AutoCloseable {
    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/]+)/[^/]+/([^/]+)/([^/]+)/aws4_request");
    private static final Pattern PRESIGNED = Pattern.compile("^([^/]+)/[^/]+/([^/]+)/([^/]+)/aws4_request$");
    private static final int MAX_API_BODY = 16 << 20;

    /** A request answered here rather than forwarded: Lambda, CloudFormation, EventBridge. */
    public interface LocalService {
        Answer handle(Principal principal, HttpHead head, byte[] body) throws IOException;
    }

    /** An answer of a local service. */
    public record Answer(int status, Map<String, String> headers, byte[] body) {
        public static Answer json(int status, String json) {
            return new Answer(status, Map.of("Content-Type", "application/x-amz-json-1.1"), json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A test's fault: an answer for a request the service would otherwise get (null: pass it on). */
    public interface Fault {
        Answer inject(Principal principal, AccessPolicy.Request request);
    }

    /** After S3 created an object (PUT, CompleteMultipartUpload, CopyObject answered 200), or deleted one (204). */
    public interface ObjectCreatedListener {
        void created(Principal principal, String bucket, String key, String versionId, String eventName);

        /** {@code deleteMarker}: the DELETE put a delete marker (versioned bucket) rather than removing a version. */
        default void deleted(Principal principal, String bucket, String key, String versionId, boolean deleteMarker) {
        }
    }

    private final ServerSocket server;
    private final ExecutorService connections = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Principal> principals = new ConcurrentHashMap<>();
    private final Map<String, LocalService> localServices = new ConcurrentHashMap<>();
    private final URI s3;
    private final URI moto;
    private volatile AccessPolicy policy = AccessPolicy.ALLOW_ALL;
    private volatile Fault fault = (principal, request) -> null;
    private volatile java.util.function.BiConsumer<Principal, String> denials = (principal, message) -> { };
    private volatile ObjectCreatedListener objectCreated = (principal, bucket, key, version, event) -> { };
    private final ObjectTagging tagging = new ObjectTagging(this::storedVersion);
    /** The gateway's own reads of the S3 emulator (which versions it holds), made when first needed. */
    private volatile software.amazon.awssdk.services.s3.S3Client backendS3;

    private AwsGateway(ServerSocket server, URI s3, URI moto) {
        this.server = server;
        this.s3 = s3;
        this.moto = moto;
    }

    /** Listens on a free loopback port; requests for S3 go to {@code s3}, for DynamoDB and SQS to {@code moto}. */
    public static AwsGateway start(URI s3, URI moto) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        AwsGateway gateway = new AwsGateway(socket, s3, moto);
        Thread acceptor = new Thread(gateway::accept, "aws-gateway");
        acceptor.setDaemon(true);
        acceptor.start();
        return gateway;
    }

    /**
     * The version id of {@code bucketKey}'s version {@code versionId} (null: its current version) when the S3 emulator
     * holds it, else null: one HeadObject with the emulator's own credentials.
     */
    private String storedVersion(String[] bucketKey, String versionId) {
        if (backendS3 == null) {
            synchronized (this) {
                if (backendS3 == null) {
                    backendS3 = software.amazon.awssdk.services.s3.S3Client.builder()
                            .endpointOverride(s3).forcePathStyle(true)
                            .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                            .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                                            io.landingledger.localcloud.aws.EmbeddedAws.ACCESS_KEY,
                                            io.landingledger.localcloud.aws.EmbeddedAws.SECRET_KEY)))
                            .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder())
                            .build();
                }
            }
        }
        try {
            var head = backendS3.headObject(r -> r.bucket(bucketKey[0]).key(bucketKey[1]).versionId(versionId));
            return head.versionId() != null ? head.versionId() : versionId == null ? "null" : versionId;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            if (e.statusCode() == 404 || e.statusCode() == 400) {
                return null;
            }
            throw e;
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    public void principal(Principal principal) {
        principals.put(principal.accessKeyId(), principal);
    }

    public void policy(AccessPolicy value) {
        this.policy = value;
    }

    /** Every request refused AccessDenied, with who sent it and why (what CloudTrail records of such a request). */
    public void denials(java.util.function.BiConsumer<Principal, String> listener) {
        this.denials = listener;
    }

    public void fault(Fault value) {
        this.fault = value;
    }

    public void objectCreated(ObjectCreatedListener listener) {
        this.objectCreated = listener;
    }

    public void localService(String signingName, LocalService service) {
        localServices.put(signingName, service);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                connections.execute(() -> serve(client));
            } catch (IOException | java.util.concurrent.RejectedExecutionException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = new BufferedInputStream(client.getInputStream(), 64 * 1024);
            OutputStream out = client.getOutputStream();
            HttpHead head = HttpHead.read(in);
            if (head == null) {
                return;
            }
            String[] signer = signer(head);
            if (signer == null) {
                // anonymous: both buckets block public access, and no other API here answers without a signature
                write(out, s3Error(403, "AccessDenied", "Anonymous access is not allowed on the local stack: sign the request"));
                return;
            }
            Principal principal = principals.get(signer[0]);
            String service = signer[2];
            if (principal == null) {
                write(out, error(service, 403, "InvalidAccessKeyId", "The AWS access key id " + signer[0]
                        + " does not exist in the local stack's records."));
                return;
            }
            if (service.equals("s3")) {
                s3(principal, head, in, out);
                return;
            }
            String length = head.header("Content-Length");
            if (service.equals("lambda") && length != null && Long.parseLong(length.trim()) > MAX_API_BODY) {
                // more than this gateway reads whole, and far more than any invocation Lambda accepts
                head.copyBody(in, OutputStream.nullOutputStream());
                write(out, error(service, 413, "RequestEntityTooLargeException", "Request must be smaller than "
                        + LambdaPayloadLimits.SYNCHRONOUS_REQUEST + " bytes for the InvokeFunction operation"));
                return;
            }
            byte[] body = head.readBody(in, MAX_API_BODY);
            AccessPolicy.Request request = new AccessPolicy.Request(service, head.method(), head.rawPath(), head.query(),
                    head.headerMap(), body, false);
            String denied = policy.authorize(principal, request);
            if (denied != null) {
                denials.accept(principal, head.method() + " " + service + " " + denied);
                write(out, error(service, 403, "AccessDenied", denied));
                return;
            }
            Answer injected = fault.inject(principal, request);
            if (injected != null) {
                write(out, injected);
                return;
            }
            LocalService local = localServices.get(service);
            if (local != null) {
                write(out, local.handle(principal, head, body));
            } else if (service.equals("dynamodb") || service.equals("sqs")) {
                forward(moto, head, body, out);
            } else {
                write(out, error(service, 400, "UnsupportedService", "the local stack does not serve " + service));
            }
        } catch (IOException | RuntimeException e) {
            // the client sees its connection close; nothing else to tell it
        }
    }

    /** {key, region, service} of the request's SigV4 credential scope (header or presigned query), or null. */
    private static String[] signer(HttpHead head) {
        String authorization = head.header("Authorization");
        if (authorization != null) {
            Matcher matcher = CREDENTIAL.matcher(authorization);
            if (matcher.find()) {
                return new String[] {matcher.group(1), matcher.group(2), matcher.group(3)};
            }
        }
        String credential = head.query().get("X-Amz-Credential");
        if (credential != null) {
            Matcher matcher = PRESIGNED.matcher(credential);
            if (matcher.find()) {
                return new String[] {matcher.group(1), matcher.group(2), matcher.group(3)};
            }
        }
        return null;
    }

    private void s3(Principal principal, HttpHead head, InputStream in, OutputStream out) throws IOException {
        String path = HttpHead.decode(head.rawPath());
        // DeleteObjects names its keys in its body (a small XML document, Content-Length framed): read it first so each
        // key is authorized as s3:DeleteObject, as S3 does; every other S3 body streams through unread
        boolean deleteObjects = head.method().equals("POST") && head.query().containsKey("delete");
        byte[] deleteBody = deleteObjects && head.header("Content-Length") != null
                ? head.readBody(in, MAX_API_BODY) : null;
        AccessPolicy.Request request = new AccessPolicy.Request("s3", head.method(), head.rawPath(), head.query(), head.headerMap(),
                deleteBody, false);
        String denied = policy.authorize(principal, request);
        if (denied != null) {
            denials.accept(principal, head.method() + " s3 " + denied);
            // the body is read and dropped first: a client still writing it sees the 403, not a connection closed
            answerInstead(head, in, out, s3Error(403, "AccessDenied", denied), deleteBody != null);
            return;
        }
        String[] bucketKey = bucketAndKey(path);
        Answer refused = S3Strictness.refusal(request, bucketKey[1]);
        if (refused != null) {
            answerInstead(head, in, out, refused, deleteBody != null);
            return;
        }
        Answer injected = fault.inject(principal, request);
        if (injected != null) {
            answerInstead(head, in, out, injected, deleteBody != null);
            return;
        }
        if (bucketKey[1] != null && !bucketKey[1].isEmpty() && head.query().containsKey("tagging")) {
            // S3Proxy answers every ?tagging 501: the gateway keeps object tags as S3 does (ObjectTagging)
            String expect = head.header("Expect");
            if (expect != null && expect.trim().equalsIgnoreCase("100-continue")) {
                out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            byte[] body = head.readBody(in, MAX_API_BODY);
            write(out, tagging.answer(head.method(), bucketKey[0], bucketKey[1], head.query().get("versionId"), body),
                    head.method().equals("HEAD"));
            return;
        }
        try (Socket backend = new Socket(s3.getHost(), s3.getPort())) {
            OutputStream toBackend = backend.getOutputStream();
            toBackend.write(head.bytesClosingConnection());
            toBackend.flush();
            // the request body streams on while the answer is read: S3Proxy may answer 100 Continue first
            Thread body = Thread.ofVirtual().start(() -> {
                try {
                    if (deleteBody != null) {
                        toBackend.write(deleteBody);
                        toBackend.flush();
                        return;
                    }
                    head.copyBody(in, toBackend);
                } catch (IOException e) {
                    // the backend closed first (an error answer): the answer below tells the client
                }
            });
            InputStream fromBackend = new BufferedInputStream(backend.getInputStream(), 64 * 1024);
            HttpHead answer = HttpHead.read(fromBackend);
            while (answer != null && answer.status() == 100) {
                out.write((answer.startLine + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                answer = HttpHead.read(fromBackend);
            }
            if (answer == null) {
                return;
            }
            boolean objectRead = bucketKey[1] != null && (head.method().equals("GET") || head.method().equals("HEAD"));
            String noList = answer.status() == 404 && objectRead ? policy.listBucketDenied(principal, bucketKey[0]) : null;
            if (noList != null) {
                denials.accept(principal, head.method() + " s3 " + noList + " (a missing key, answered 403)");
                // S3: "If you don't have the s3:ListBucket permission, Amazon S3 returns an HTTP status code 403"
                write(out, s3Error(403, "AccessDenied", noList + " (the key does not exist; without s3:ListBucket that is a 403, not a 404)"),
                        head.method().equals("HEAD"));
                return;
            }
            // announced before the answer goes back, so a caller that waits for the stack to go idle after its PUT
            // cannot miss the invocation (S3 itself sends notifications asynchronously, after it has stored the object)
            String event = createdEvent(head, answer.status(), bucketKey[1]);
            if (event != null) {
                objectCreated.created(principal, bucketKey[0], bucketKey[1], answer.header("x-amz-version-id"), event);
            }
            if (head.method().equals("DELETE") && answer.status() == 204 && bucketKey[1] != null && !bucketKey[1].isEmpty()
                    && !head.query().containsKey("uploadId") && !head.query().containsKey("tagging")) {
                objectCreated.deleted(principal, bucketKey[0], bucketKey[1], answer.header("x-amz-version-id"),
                        "true".equals(answer.header("x-amz-delete-marker")));
            }
            out.write(answer.bytesClosingConnection());
            fromBackend.transferTo(out);
            out.flush();
            body.join(2000); // normally done already: S3 answers after the body; a client that never sent it is closed below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Answers an S3 request here instead of passing it on: its body is read and dropped first, after a 100 Continue
     * when the client waits for one (the SDKs do on PutObject and UploadPart), so the client sees the answer rather
     * than a connection closed mid-body.
     */
    private static void answerInstead(HttpHead head, InputStream in, OutputStream out, Answer answer, boolean bodyRead)
            throws IOException {
        if (bodyRead) { // DeleteObjects' body, read above to authorize each key
            write(out, answer, head.method().equals("HEAD"));
            return;
        }
        String expect = head.header("Expect");
        if (expect != null && expect.trim().equalsIgnoreCase("100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
        head.copyBody(in, OutputStream.nullOutputStream());
        write(out, answer, head.method().equals("HEAD"));
    }

    /** The ObjectCreated event name of a request S3 answered with {@code status}, or null when it created nothing. */
    private static String createdEvent(HttpHead head, int status, String key) {
        if (status != 200 || key == null || key.isEmpty()) {
            return null;
        }
        Map<String, String> query = head.query();
        if (head.method().equals("PUT") && !query.containsKey("partNumber") && !query.containsKey("uploadId")
                && query.keySet().stream().noneMatch(q -> q.equals("tagging") || q.equals("acl") || q.equals("retention"))) {
            return head.header("x-amz-copy-source") != null ? "ObjectCreated:Copy" : "ObjectCreated:Put";
        }
        if (head.method().equals("POST") && query.containsKey("uploadId")) {
            return "ObjectCreated:CompleteMultipartUpload";
        }
        return null;
    }

    /** Path-style {@code /bucket/key}: {bucket, key or null}. */
    static String[] bucketAndKey(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        int slash = trimmed.indexOf('/');
        if (slash < 0) {
            return new String[] {trimmed, null};
        }
        return new String[] {trimmed.substring(0, slash), trimmed.substring(slash + 1)};
    }

    private static void forward(URI backendUri, HttpHead head, byte[] body, OutputStream out) throws IOException {
        try (Socket backend = new Socket(backendUri.getHost(), backendUri.getPort())) {
            OutputStream toBackend = backend.getOutputStream();
            StringBuilder text = new StringBuilder(head.startLine).append("\r\n");
            for (String[] header : head.headers) {
                String name = header[0];
                if (name.equalsIgnoreCase("Connection") || name.equalsIgnoreCase("Content-Length")
                        || name.equalsIgnoreCase("Transfer-Encoding") || name.equalsIgnoreCase("Expect")) {
                    continue;
                }
                text.append(name).append(": ").append(header[1]).append("\r\n");
            }
            text.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
            toBackend.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
            toBackend.write(body);
            toBackend.flush();
            InputStream fromBackend = backend.getInputStream();
            HttpHead answer = HttpHead.read(fromBackend);
            if (answer == null) {
                return;
            }
            out.write(answer.bytesClosingConnection());
            fromBackend.transferTo(out);
            out.flush();
        }
    }

    private static void write(OutputStream out, Answer answer) throws IOException {
        write(out, answer, false);
    }

    /** An answer; to a HEAD request without its body, as HTTP has it (and S3: a HEAD's error carries no message). */
    private static void write(OutputStream out, Answer answer, boolean headRequest) throws IOException {
        StringBuilder text = new StringBuilder("HTTP/1.1 ").append(answer.status()).append(' ').append(reason(answer.status())).append("\r\n");
        Map<String, String> headers = new LinkedHashMap<>(answer.headers());
        headers.putIfAbsent("x-amzn-RequestId", UUID.randomUUID().toString());
        headers.forEach((name, value) -> text.append(name).append(": ").append(value).append("\r\n"));
        text.append("Content-Length: ").append(answer.body().length).append("\r\nConnection: close\r\n\r\n");
        out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!headRequest) {
            out.write(answer.body());
        }
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 202 -> "Accepted";
            case 204 -> "No Content";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 412 -> "Precondition Failed";
            case 413 -> "Request Entity Too Large";
            case 429 -> "Too Many Requests";
            case 501 -> "Not Implemented";
            default -> status >= 500 ? "Server Error" : "Status";
        };
    }

    public static Answer s3Error(int status, String code, String message) {
        return s3Error(status, code, message, Map.of());
    }

    /** S3's error document with the elements some errors add after the message (Header, Size, MaxSizeAllowed). */
    static Answer s3Error(int status, String code, String message, Map<String, String> details) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>").append(code)
                .append("</Code><Message>").append(xmlEscape(message)).append("</Message>");
        details.forEach((name, value) -> xml.append('<').append(name).append('>').append(xmlEscape(value))
                .append("</").append(name).append('>'));
        xml.append("<RequestId>").append(UUID.randomUUID()).append("</RequestId></Error>");
        return new Answer(status, Map.of("Content-Type", "application/xml"), xml.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** An error in the protocol of {@code service}: JSON for DynamoDB, SQS, Lambda and EventBridge, XML for the rest. */
    static Answer error(String service, int status, String code, String message) {
        switch (service) {
            case "dynamodb", "sqs", "events" -> {
                String type = code.equals("AccessDenied") ? "AccessDeniedException" : code;
                int httpStatus = service.equals("dynamodb") && status == 403 ? 400 : status;
                return Answer.json(httpStatus, "{\"__type\":\"com.amazonaws.local#" + type + "\",\"message\":\"" + jsonEscape(message) + "\"}");
            }
            case "lambda" -> {
                String type = code.equals("AccessDenied") ? "AccessDeniedException" : code;
                return new Answer(status, Map.of("Content-Type", "application/json", "x-amzn-ErrorType", type),
                        ("{\"Type\":\"User\",\"Message\":\"" + jsonEscape(message) + "\"}").getBytes(StandardCharsets.UTF_8));
            }
            case "s3" -> {
                return s3Error(status, code, message);
            }
            default -> {
                String xml = "<ErrorResponse><Error><Type>Sender</Type><Code>" + code + "</Code><Message>" + xmlEscape(message)
                        + "</Message></Error><RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>";
                return new Answer(status, Map.of("Content-Type", "text/xml"), xml.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    static String xmlEscape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String jsonEscape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        connections.shutdownNow();
    }
}
