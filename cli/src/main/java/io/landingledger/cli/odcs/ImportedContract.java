package io.landingledger.cli.odcs;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.InvalidContractException;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An ODCS document mapped to a product contract: the contract JSON to register (through the same registrar as a
 * contract written by hand) and, for each contract path, the document path it came from, so an error the contract's
 * own checks find names the document's element.
 *
 * @param source       the document's name, for messages
 * @param contractJson the product contract, UTF-8 JSON
 * @param origins      contract JSON path ({@code $.fields.amount.max}) to document path
 *                     ({@code $.schema[0].properties[1].logicalTypeOptions.maximum})
 */
public record ImportedContract(String source, byte[] contractJson, Map<String, String> origins) {

    public ImportedContract {
        origins = Map.copyOf(origins);
    }

    public String contractText() {
        return new String(contractJson, StandardCharsets.UTF_8);
    }

    /** The contract, loaded as the functions load it; an error names the document's element. */
    public DatasetContract contract() {
        try {
            return ContractLoader.load(source, new ByteArrayInputStream(contractJson));
        } catch (InvalidContractException e) {
            throw locate(e);
        }
    }

    /**
     * {@code e} (about the contract) restated about the document: the path of the element the failing setting came
     * from (the nearest one that has an origin), with the setting's own path in the problem.
     */
    public InvalidContractException locate(InvalidContractException e) {
        String path = e.jsonPath();
        while (!origins.containsKey(path) && !"$".equals(path)) {
            path = parent(path);
        }
        String where = origins.getOrDefault(path, "$");
        String setting = e.jsonPath().equals("$") ? "" : " (contract setting " + e.jsonPath() + ")";
        return new InvalidContractException(source, where, e.problem() + setting);
    }

    private static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut <= 0 ? "$" : path.substring(0, cut);
    }
}
