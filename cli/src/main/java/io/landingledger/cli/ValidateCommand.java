package io.landingledger.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.landingledger.cli.odcs.OdcsImport;
import io.landingledger.core.json.JsonCodec;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.InvalidContractException;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.ValidationResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code landing validate}: the validator on a local file, exactly as the function runs it. Producers check a
 * file before they drop it; operators see why a file was refused. Exit 0 publishable, 1 refused, 2 usage, I/O or internal error.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Validate one input file against its dataset contract, as the validator function would.",
                "Prints one JSON object on stdout; logs on stderr carry no row content.",
                "Exit status: 0 publishable, 1 refused, 2 usage, I/O or internal error."})
final class ValidateCommand implements Callable<Integer> {
    static final int PUBLISHABLE = 0;
    static final int REFUSED = 1;
    static final int ERROR = 2;

    @Option(names = "--contract", required = true, paramLabel = "FILE",
            description = "The dataset contract: a file, e.g. datasets/progress_events.json, an ODCS v3 document (.yaml),"
                    + " or a dataset's name for the contract bundled with the product.")
    String contract;

    @Option(names = "--accepted", paramLabel = "FILE",
            description = "Write the accepted rows (canonical JSON lines) here; written only when the file is publishable.")
    Path accepted;

    @Option(names = "--rejects", paramLabel = "FILE",
            description = "Write the quarantine records ({line, reason, field}; never content) here.")
    Path rejects;

    @Option(names = "--max-line-bytes", paramLabel = "BYTES",
            description = "Longest accepted line (default: ${DEFAULT-VALUE}).")
    int maxLineBytes = ValidationLimits.DEFAULT_MAX_LINE_BYTES;

    @Option(names = "--key-index-memory-mb", paramLabel = "MIB",
            description = "Heap for the duplicate-key index before it spills sorted runs to java.io.tmpdir (default: half the heap).")
    Long keyIndexMemoryMb;

    @Option(names = "--workers", paramLabel = "N",
            description = {"Threads that parse lines, 1 to " + ValidationLimits.MAX_WORKERS + " (default: ${DEFAULT-VALUE}, this machine's processors,"
                    + " or -D" + ValidationLimits.WORKERS_PROPERTY + ").",
                    "The output is the same byte for byte at every count; only the time differs."})
    int workers = ValidationLimits.DEFAULT_WORKERS;

    @Option(names = "--quiet", description = "No progress on stderr (by default: a line rewritten in place on a terminal, a line every 5 s on a pipe).")
    boolean quiet;

    /** The pipe mode's interval (tests shorten it); null: Progress.start chooses by the terminal. */
    Duration progressInterval;

    @Parameters(index = "0", paramLabel = "INPUT", description = "The file as a producer would drop it (plain or gzip); - reads stdin.")
    String input;

    private final PrintStream out;
    private final PrintStream err;

    ValidateCommand() {
        this(System.out, System.err);
    }

    ValidateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Exit 1 says "the function would refuse this file", so nothing else may end with it: an exception escaping
     * here would reach picocli, which prints its stack trace and exits 1. The validator decides every input (a
     * throw for some bytes is a bug, ValidatorFuzzTest), so whatever escapes is an internal error: exit 2 with one
     * line naming the exception's class and where it was thrown, never its message, which can quote the input
     * (NumberFormatException's does).
     */
    @Override
    public Integer call() {
        try {
            return validate();
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            err.println("landing validate: internal error validating " + input + ": " + e.getClass().getName() + where(e)
                    + " (a bug: please report it; the file's content is not shown)");
            return ERROR;
        }
    }

    /** The innermost frame of Landing Ledger's own code that the exception passed (else its first): where to look. */
    private static String where(Throwable e) {
        StackTraceElement[] trace = e.getStackTrace();
        if (trace.length == 0) {
            return "";
        }
        StackTraceElement frame = java.util.Arrays.stream(trace).filter(f -> f.getClassName().startsWith("io.landingledger."))
                .findFirst().orElse(trace[0]);
        return " at " + frame.getClassName() + "." + frame.getMethodName() + (frame.getLineNumber() > 0 ? ":" + frame.getLineNumber() : "");
    }

    private int validate() {
        DatasetContract dataset;
        try {
            dataset = resolveContract(contract);
            if (dataset == null) {
                err.println("landing validate: no bundled contract named '" + contract + "' (bundled: "
                        + String.join(", ", bundledContracts().all().keySet()) + "); pass a contract file's path instead");
                return ERROR;
            }
        } catch (InvalidContractException e) {
            err.println("landing validate: invalid contract: " + e.getMessage());
            return ERROR;
        }
        ValidationLimits limits;
        try {
            limits = limits();
        } catch (IllegalArgumentException | ArithmeticException e) {
            err.println("landing validate: " + e.getMessage());
            return ERROR;
        }
        Path acceptedTemp = null;
        try {
            acceptedTemp = accepted == null ? null : temporarySibling(accepted);
            StreamingValidator validator = new StreamingValidator(dataset, limits);
            ValidationResult result = validateOnce(validator, acceptedTemp, LineSet.empty());
            if (result.publishable() && !result.acceptedFinal() && acceptedTemp != null) {
                // the index spilled and found rows repeating an identical row of an earlier run only at the end:
                // read the file again without them (counts in the result are final already; the rows are not)
                if ("-".equals(input)) {
                    err.println("landing validate: the duplicate-key index spilled and standard input cannot be read twice"
                            + " to write --accepted; pass the file's path, or a larger --key-index-memory-mb");
                    return ERROR;
                }
                result = validateOnce(validator, acceptedTemp, result.rowsToDrop());
            }
            if (acceptedTemp != null) {
                if (result.publishable()) {
                    // like the publish: the accepted file appears whole or not at all
                    Files.move(acceptedTemp, accepted, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(acceptedTemp);
                }
                acceptedTemp = null;
            }
            print(result);
            log(result);
            return result.publishable() ? PUBLISHABLE : REFUSED;
        } catch (IOException e) {
            err.println("landing validate: cannot read " + input + " or write an output: " + e);
            return ERROR;
        } finally {
            if (acceptedTemp != null) {
                try {
                    Files.deleteIfExists(acceptedTemp);
                } catch (IOException ignored) {
                    // best effort: the temporary name is never read as a result
                }
            }
        }
    }

    /** The limits the options ask for; throws IllegalArgumentException naming the limit when one is out of range. */
    ValidationLimits limits() {
        ValidationLimits.Builder builder = ValidationLimits.builder().maxLineBytes(maxLineBytes).workers(workers);
        if (keyIndexMemoryMb != null) {
            builder.keyIndexMemoryBytes(Math.multiplyExact(keyIndexMemoryMb, 1L << 20));
        }
        return builder.build();
    }

    /** One pass over the input, writing the accepted rows (less {@code dropRows}) and the rejects. */
    private ValidationResult validateOnce(StreamingValidator validator, Path acceptedTemp, LineSet dropRows) throws IOException {
        try (InputStream in = "-".equals(input) ? System.in : Files.newInputStream(Path.of(input));
             OutputStream acceptedOut = acceptedTemp == null ? OutputStream.nullOutputStream()
                     : new BufferedOutputStream(Files.newOutputStream(acceptedTemp), 1 << 16);
             OutputStream rejectsOut = rejects == null ? OutputStream.nullOutputStream()
                     : new BufferedOutputStream(Files.newOutputStream(rejects), 1 << 16)) {
            long size = "-".equals(input) ? StreamingValidator.UNKNOWN_SIZE : Files.size(Path.of(input));
            try (Progress progress = progress(size)) {
                ValidationResult result = validator.validate(progress.wrap(in), size, acceptedOut, rejectsOut, dropRows);
                progress.finish(result.lines());
                return result;
            }
        }
    }

    private Progress progress(long size) {
        if (progressInterval == null) {
            return Progress.start(err, "landing validate", size, quiet);
        }
        return new Progress(err, "landing validate", size, quiet ? Progress.Mode.QUIET : Progress.Mode.PIPE, progressInterval);
    }

    /**
     * A bare dataset name (no {@code /}, no {@code .json}) is the product's bundled contract, the one the functions
     * run (the jar's {@code datasets/}, whatever the working directory); a {@code .yaml} or {@code .yml} file is an
     * ODCS v3 document, mapped as {@code landing dataset add --odcs} maps it; anything else is a contract file's path.
     * Null when no bundled contract has that name.
     */
    static DatasetContract resolveContract(String value) {
        if (value.endsWith(".yaml") || value.endsWith(".yml")) {
            byte[] document;
            try {
                document = Files.readAllBytes(Path.of(value));
            } catch (IOException e) {
                throw new InvalidContractException(value, "$", "cannot read the file: " + e.getMessage());
            }
            return OdcsImport.read(value, document).contract();
        }
        if (!value.contains("/") && !value.contains(java.io.File.separator) && !value.endsWith(".json")) {
            return ContractRegistry.bundled(io.landingledger.lambda.DependencyFactory.class, value).orElse(null);
        }
        return ContractLoader.load(Path.of(value));
    }

    /** The contracts bundled with the functions (DependencyFactory's, so the same ones the handlers load). */
    static ContractRegistry bundledContracts() {
        return ContractRegistry.fromClasspath(io.landingledger.lambda.DependencyFactory.class);
    }

    private static Path temporarySibling(Path target) {
        Path parent = target.toAbsolutePath().getParent();
        return parent.resolve("." + target.getFileName() + ".partial");
    }

    private void print(ValidationResult result) {
        out.println(new String(JsonCodec.writePretty(new Printed(input, result.document())), StandardCharsets.UTF_8));
        out.flush();
    }

    /** What {@code landing validate} prints: the input it read, then the result's document. */
    @JsonPropertyOrder({"input"})
    record Printed(@JsonInclude(JsonInclude.Include.ALWAYS) String input, @JsonUnwrapped ValidationResult.Document result) {
    }

    private void log(ValidationResult result) {
        StringBuilder line = new StringBuilder("landing validate:")
                .append(" dataset=").append(result.dataset())
                .append(" input=").append(input)
                .append(" sha256=").append(result.sha256())
                .append(" decision=").append(result.decision());
        if (result.refusal() != null) {
            line.append(" refusal=").append(result.refusal().code());
        }
        line.append(" records=").append(result.records())
                .append(" lines=").append(result.lines())
                .append(" accepted=").append(result.accepted())
                .append(" duplicates=").append(result.duplicates())
                .append(" rejected=").append(result.rejected())
                .append(" workers=").append(workers);
        err.println(line);
    }
}
