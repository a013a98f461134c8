package io.landingledger.localcloud.tables;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Iceberg REST catalog protocol's namespace and table routes over one {@link Catalog}: iceberg-core's public
 * {@link CatalogHandlers} do the catalog's work (the same code Iceberg's own test server runs), this class only reads
 * the route and the JSON. The routes are those a stock {@code RESTCatalog} client and Spark's {@code type=rest}
 * catalog use: namespaces (list, create, load, exists, drop, properties), tables (list, create and stage-create, load,
 * exists, commit, drop) and metrics reports. Views, renames, multi-table transactions and server-side scan planning
 * are not served (the config answer advertises no such endpoint, so a client does not ask).
 *
 * <p>Errors are the protocol's {@link ErrorResponse}: 404 for a missing namespace or table, 409 for one that exists
 * or a commit whose requirements no longer hold (another writer committed first), 400 for a bad request.
 */
public final class IcebergRestRouter {
    /** The separator of a multi-level namespace in a path segment (the protocol's unit separator, %1F). */
    private static final String NAMESPACE_SEPARATOR = "\u001f";

    /** One answer: its HTTP status and JSON body (null for 204). */
    public record Response(int status, byte[] json) {
        static Response of(int status, byte[] json) {
            return new Response(status, json);
        }
    }

    private final Catalog catalog;
    private final SupportsNamespaces namespaces;
    private final ObjectMapper mapper = mapper();

    public IcebergRestRouter(Catalog catalog) {
        if (!(catalog instanceof SupportsNamespaces supports)) {
            throw new IllegalArgumentException("the REST catalog serves a catalog with namespaces");
        }
        this.catalog = catalog;
        this.namespaces = supports;
    }

    /** The REST protocol's own JSON: kebab-case fields, its serializers, unknown fields ignored. */
    static ObjectMapper mapper() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
        mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        mapper.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
        RESTSerializers.registerAll(mapper);
        return mapper;
    }

    /**
     * Answers one request.
     *
     * @param method   the HTTP method
     * @param segments the path after {@code /v1/{prefix}/}, still percent-encoded, e.g. {@code [namespaces, ns, tables]}
     * @param body     the request body (empty when none)
     */
    public Response handle(String method, List<String> segments, byte[] body) {
        try {
            Object answer = route(method, segments, body);
            return answer == null ? Response.of(204, null) : Response.of(200, mapper.writeValueAsBytes(answer));
        } catch (RuntimeException e) {
            return error(status(e), e);
        } catch (IOException e) {
            return error(400, new BadRequestException("malformed request body: %s", e.getMessage()));
        }
    }

    /** A protocol error answer (also for what the caller refuses before the catalog sees it). */
    public static Response error(int status, RuntimeException e) {
        ErrorResponse error = ErrorResponse.builder().responseCode(status).withType(e.getClass().getSimpleName())
                .withMessage(String.valueOf(e.getMessage())).build();
        return Response.of(status, ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8));
    }

    static int status(RuntimeException e) {
        if (e instanceof NoSuchNamespaceException || e instanceof NoSuchTableException || e instanceof NotFoundException) {
            return 404;
        }
        if (e instanceof AlreadyExistsException || e instanceof CommitFailedException
                || e instanceof NamespaceNotEmptyException) {
            return 409;
        }
        if (e instanceof ForbiddenException) {
            return 403;
        }
        if (e instanceof IllegalArgumentException || e instanceof ValidationException || e instanceof BadRequestException) {
            return 400;
        }
        if (e instanceof UnsupportedOperationException) {
            return 406;
        }
        return 500;
    }

    private Object route(String method, List<String> segments, byte[] body) throws IOException {
        if (segments.isEmpty() || !segments.get(0).equals("namespaces")) {
            throw new NotFoundException("no route %s %s", method, String.join("/", segments));
        }
        int length = segments.size();
        if (length == 1) {
            return switch (method) {
                case "GET" -> CatalogHandlers.listNamespaces(namespaces, Namespace.empty());
                case "POST" -> CatalogHandlers.createNamespace(namespaces, read(body, CreateNamespaceRequest.class));
                default -> throw noRoute(method, segments);
            };
        }
        Namespace namespace = RESTUtil.decodeNamespace(decode(segments.get(1)), NAMESPACE_SEPARATOR);
        if (length == 2) {
            switch (method) {
                case "GET":
                    return CatalogHandlers.loadNamespace(namespaces, namespace);
                case "HEAD":
                    CatalogHandlers.namespaceExists(namespaces, namespace);
                    return null;
                case "DELETE":
                    CatalogHandlers.dropNamespace(namespaces, namespace);
                    return null;
                default:
                    throw noRoute(method, segments);
            }
        }
        if (length == 3 && segments.get(2).equals("properties") && method.equals("POST")) {
            return CatalogHandlers.updateNamespaceProperties(namespaces, namespace,
                    read(body, UpdateNamespacePropertiesRequest.class));
        }
        if (!segments.get(2).equals("tables")) {
            throw noRoute(method, segments);
        }
        if (length == 3) {
            switch (method) {
                case "GET":
                    return CatalogHandlers.listTables(catalog, namespace);
                case "POST": {
                    CreateTableRequest request = read(body, CreateTableRequest.class);
                    return request.stageCreate() ? CatalogHandlers.stageTableCreate(catalog, namespace, request)
                            : CatalogHandlers.createTable(catalog, namespace, request);
                }
                default:
                    throw noRoute(method, segments);
            }
        }
        TableIdentifier table = TableIdentifier.of(namespace, decode(segments.get(3)));
        if (length == 5 && segments.get(4).equals("metrics") && method.equals("POST")) {
            return null; // a scan's or commit's metrics report: accepted and not kept, as a catalog may
        }
        if (length != 4) {
            throw noRoute(method, segments);
        }
        switch (method) {
            case "GET":
                return CatalogHandlers.loadTable(catalog, table, RESTCatalogProperties.SnapshotMode.ALL);
            case "HEAD":
                CatalogHandlers.tableExists(catalog, table);
                return null;
            case "POST":
                return CatalogHandlers.updateTable(catalog, table, read(body, UpdateTableRequest.class));
            case "DELETE":
                CatalogHandlers.dropTable(catalog, table);
                return null;
            default:
                throw noRoute(method, segments);
        }
    }

    private <T> T read(byte[] body, Class<T> type) throws IOException {
        if (body == null || body.length == 0) {
            throw new BadRequestException("the request has no body");
        }
        try {
            return mapper.readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new BadRequestException("malformed %s: %s", type.getSimpleName(), e.getOriginalMessage());
        }
    }

    static String decode(String segment) {
        return URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }

    private static NotFoundException noRoute(String method, List<String> segments) {
        return new NotFoundException("no route %s %s", method, String.join("/", segments));
    }
}
