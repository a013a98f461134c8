package io.landingledger.cli.odcs;

import io.landingledger.core.contract.InvalidContractException;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled schema is the standard's, unchanged, and it is what documents are checked against: the standard's own
 * full example passes it (and is then refused by the mapping at an element this product does not keep), while a
 * document the standard forbids fails it.
 */
class OdcsSchemaTest {

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = OdcsSchema.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theBundledSchemaIsTheStandardsFileAsTheNoticeRecordsIt() throws Exception {
        String sha256 = HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(resource(OdcsSchema.RESOURCE)));
        String notice = new String(resource("NOTICE-odcs.txt"), StandardCharsets.UTF_8);
        assertTrue(notice.contains("SHA-256 " + sha256), "NOTICE-odcs.txt records the schema's hash " + sha256);
    }

    @Test
    void theStandardsFullExamplePassesTheSchema_andIsRefusedByTheMappingAtItsPath() throws Exception {
        byte[] example = resource("full-example.odcs.yaml");
        assertEquals(List.of(), OdcsSchema.problems(OdcsYaml.read("full-example.odcs.yaml", example)));
        InvalidContractException e = assertThrows(InvalidContractException.class,
                () -> OdcsImport.read("full-example.odcs.yaml", example));
        assertEquals("$.domain", e.jsonPath(), e.getMessage());
    }

    @Test
    void aDocumentTheStandardForbidsFailsTheSchema_andTheCauseComesBeforeItsEcho() {
        String doc = "apiVersion: v3.1.0\nkind: DataContract\nid: x\nversion: 1.0.0\nstatus: active\n"
                + "schema:\n  - name: t\n    properties:\n      - name: a\n        logicalType: money\n";
        var problems = OdcsSchema.problems(OdcsYaml.read("t", doc.getBytes(StandardCharsets.UTF_8)));
        // a value outside the enum also leaves its element's keys "not evaluated": the enum is the cause, named first
        assertEquals("$.schema[0].properties[0].logicalType", problems.get(0).getInstanceLocation().toString());
        assertEquals("enum", problems.get(0).getKeyword());
    }
}
