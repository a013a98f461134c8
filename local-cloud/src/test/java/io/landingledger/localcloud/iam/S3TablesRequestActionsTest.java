package io.landingledger.localcloud.iam;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class S3TablesRequestActionsTest {
    private static final String BUCKET = "arn:aws:s3tables:us-east-1:123456789012:bucket/lake-tables";
    private final S3TablesRequestActions actions = new S3TablesRequestActions("us-east-1", "123456789012");

    private AuthorizationRequest only(RequestMapping mapping) {
        assertEquals(1, mapping.requests().size(), mapping.toString());
        return mapping.requests().get(0);
    }

    @Test
    void theConfigIsReadOnTheWarehouseBucket() {
        AuthorizationRequest request = only(actions.map("GET", "/iceberg/v1/config", Map.of("warehouse", BUCKET)));
        assertEquals("s3tables:GetTableBucket", request.action());
        assertEquals(BUCKET, request.resource());
    }

    @Test
    void aCommitIsUpdateTableMetadataLocationOnTheTable() {
        AuthorizationRequest request = only(actions.map("POST", "/iceberg/v1/lake-tables/namespaces/landing_local/tables/orders",
                Map.of()));
        assertEquals("s3tables:UpdateTableMetadataLocation", request.action());
        assertEquals(BUCKET + "/table/landing_local/orders", request.resource());
    }

    @Test
    void eachRouteHasItsAction() {
        Map<String, String> expected = Map.of(
                "GET /iceberg/v1/lake-tables/namespaces", "s3tables:ListNamespaces",
                "POST /iceberg/v1/lake-tables/namespaces", "s3tables:CreateNamespace",
                "HEAD /iceberg/v1/lake-tables/namespaces/ns", "s3tables:GetNamespace",
                "POST /iceberg/v1/lake-tables/namespaces/ns/tables", "s3tables:CreateTable",
                "GET /iceberg/v1/lake-tables/namespaces/ns/tables/t", "s3tables:GetTableMetadataLocation",
                "DELETE /iceberg/v1/lake-tables/namespaces/ns/tables/t", "s3tables:DeleteTable",
                "POST /iceberg/v1/lake-tables/namespaces/ns/tables/t/metrics", "s3tables:GetTable");
        expected.forEach((route, action) -> {
            String[] parts = route.split(" ");
            assertEquals(action, only(actions.map(parts[0], parts[1], Map.of())).action(), route);
        });
    }

    @Test
    void routesTheEndpointDoesNotServeAreUnmapped() {
        assertFalse(actions.map("POST", "/iceberg/v1/lake-tables/namespaces/ns/properties", Map.of()).mapped());
        assertFalse(actions.map("GET", "/iceberg/v1/config", Map.of("warehouse", "s3://lake")).mapped());
        assertFalse(actions.map("GET", "/v1/config", Map.of()).mapped());
    }

    @Test
    void storageWritesArePutTableDataOnTheTableWhoseLocationHoldsTheKey() {
        RequestMapping s3 = RequestMapping.of("PutObject",
                AuthorizationRequest.of("s3:PutObject", "arn:aws:s3:::lake-tables/landing_local/orders/data/unit=2026-10-01/a.parquet"));
        AuthorizationRequest request = only(actions.storage(s3, "lake-tables"));
        assertEquals("s3tables:PutTableData", request.action());
        assertEquals(BUCKET + "/table/landing_local/orders", request.resource());
        RequestMapping read = RequestMapping.of("GetObject",
                AuthorizationRequest.of("s3:GetObject", "arn:aws:s3:::lake-tables/landing_local/orders/metadata/v1.json"));
        assertEquals("s3tables:GetTableData", only(actions.storage(read, "lake-tables")).action());
    }

    @Test
    void storageDeletesAreRefused() {
        RequestMapping delete = RequestMapping.of("DeleteObject", List.of(
                AuthorizationRequest.of("s3:DeleteObject", "arn:aws:s3:::lake-tables/landing_local/orders/data/a.parquet")));
        assertFalse(actions.storage(delete, "lake-tables").mapped());
    }

    @Test
    void aTablesMaintenanceIsPutAndGetOnTheTable() {
        String path = "/tables/" + java.net.URLEncoder.encode(BUCKET, java.nio.charset.StandardCharsets.UTF_8)
                + "/landing_local/orders/maintenance";
        AuthorizationRequest put = only(actions.map("PUT", path, Map.of()));
        assertEquals("s3tables:PutTableMaintenanceConfiguration", put.action());
        assertEquals(BUCKET + "/table/landing_local/orders", put.resource());
        assertEquals("s3tables:GetTableMaintenanceConfiguration", only(actions.map("GET", path, Map.of())).action());
        assertFalse(actions.map("DELETE", path, Map.of()).mapped());
    }
}
