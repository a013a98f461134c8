package io.landingledger.core.contract;

/**
 * A dataset contract that cannot be used. The message names the file, the JSON path and what is wrong,
 * e.g. {@code datasets/x.json: $.fields.amount.type: unknown type "money" (expected one of string, ...)}.
 */
public final class InvalidContractException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String jsonPath;
    private final String problem;

    public InvalidContractException(String source, String jsonPath, String problem) {
        super(source + ": " + jsonPath + ": " + problem);
        this.source = source;
        this.jsonPath = jsonPath;
        this.problem = problem;
    }

    public String source() {
        return source;
    }

    public String jsonPath() {
        return jsonPath;
    }

    public String problem() {
        return problem;
    }
}
