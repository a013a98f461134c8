package io.landingledger.core.validate;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, searches: every parser path (JSON, CSV quoted and unquoted, gzip, line splitting, unit naming, routing)
 * runs in time linear in its input. Each family below generates, from a seeded {@link Random}, an adversarial input
 * at sizes {@code n, 2n, 4n} (the multipliers of {@code -Dlinear.sizes}, default {@code 1,2,4}) and measures the work
 * it takes: a deterministic count where the code keeps one (the CSV joiner's scanned bytes), else this thread's CPU
 * time (ThreadMXBean; the validator runs with one worker, so the whole pass is on this thread), the median of
 * {@code -Dlinear.repeats} runs (default 5) taken in turns across the sizes. An input {@code k} times as long may
 * cost at most {@code 1.5 k} times as much: linear work gives about {@code k}, quadratic work {@code k^2} (16 at 4n).
 * CPU time, not wall-clock time, so a loaded machine slows every size alike; the figures are printed.
 *
 * <p>Long run: {@code mvn -B -o -q test -pl functions/core -Dtest=LinearTimePropertyTest
 * -Dlinear.sizes=1,2,4,8,16 -Dlinear.seed=7} (docs/testing.md).
 */
class LinearTimePropertyTest {
    /** How much more than linear a size step may cost: generous, since CPU time still varies with caches and JIT. */
    private static final double SLACK = 1.5;
    private static final int[] SIZES = Arrays.stream(System.getProperty("linear.sizes", "1,2,4").split(","))
            .map(String::trim).mapToInt(Integer::parseInt).toArray();
    private static final int REPEATS = Integer.getInteger("linear.repeats", 5);
    private static final long SEED = Long.getLong("linear.seed", 30L);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static final DatasetContract PROGRESS =
            TestContracts.progressEvents(c -> c.put("maxRejectedLines", 100_000_000));
    private static final DatasetContract TRANSACTIONS =
            TestContracts.transactions(c -> c.put("maxRejectedLines", 100_000_000));
    private static final ValidationLimits DEFAULTS = ValidationLimits.defaults().withWorkers(1);
    private static final String CSV_HEADER = "txn_id,account_id,business_date,amount,batch_date\n";
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

    /**
     * One adversarial input family: what it builds at a size, and the work measured on it ({@code cost} is given the
     * input and its size).
     */
    private record Family<T>(String name, int base, BiFunction<Random, Integer, T> generate,
                             ToLongBiFunction<T, Integer> cost, String unit) {
        Family(String name, int base, BiFunction<Random, Integer, T> generate, ToLongFunction<T> cost, String unit) {
            this(name, base, generate, (input, size) -> cost.applyAsLong(input), unit);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyParserPath_isLinearInItsInput() {
        assertTrue(THREADS.isCurrentThreadCpuTimeSupported(), "this JVM cannot measure a thread's CPU time");
        THREADS.setThreadCpuTimeEnabled(true);
        return families().stream().map(family -> DynamicTest.dynamicTest(family.name(), () -> assertLinear(family)));
    }

    private static List<Family<?>> families() {
        List<Family<?>> families = new ArrayList<>();
        // JSON lines
        families.add(validated("json: one very long string", 1 << 20, (random, n) ->
                jsonLine("e1", randomText(random, n)), PROGRESS, null));
        families.add(validated("json: a string of escapes", 1 << 18, (random, n) ->
                jsonLine("e1", escapes(random, n)), PROGRESS, null));
        families.add(validated("json: a long array in an unknown field", 1 << 18, (random, n) ->
                "{\"event_id\":\"e1\",\"extra\":[" + arrayItems(random, n) + "]}\n", PROGRESS, null));
        families.add(validated("json: nesting far past the depth limit", 1 << 19, (random, n) ->
                "{\"event_id\":\"e1\",\"extra\":" + "[".repeat(n) + "]".repeat(n) + "}\n", PROGRESS, null));
        families.add(validated("json: many tiny lines", 1 << 13, (random, n) -> {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < n; i++) {
                text.append(jsonLine("e" + i, "l" + random.nextInt(1000)));
            }
            return text.toString();
        }, PROGRESS, DEFAULTS));
        families.add(validated("lines: one huge line past maxLineBytes, skipped", 4 << 20, (random, n) ->
                jsonLine("e1", randomText(random, n)) + jsonLine("e2", "l2"), PROGRESS, DEFAULTS));
        families.add(validated("lines: only line breaks", 1 << 18, (random, n) ->
                "\n".repeat(n) + jsonLine("e1", "l1"), PROGRESS, DEFAULTS));
        families.add(validated("lines: CRLF tiny lines", 1 << 13, (random, n) -> {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < n; i++) {
                text.append(jsonLine("e" + i, "l").replace("\n", "\r\n"));
            }
            return text.toString();
        }, PROGRESS, DEFAULTS));
        // CSV
        families.add(validated("csv: one long unquoted cell", 1 << 20, (random, n) ->
                CSV_HEADER + "T1," + randomText(random, n) + ",2026-10-01,1,2026-10-02\n", TRANSACTIONS, null));
        families.add(validated("csv: a quoted cell of doubled quotes", 1 << 19, (random, n) ->
                CSV_HEADER + "T1,\"A" + "\"\"".repeat(n) + "\",2026-10-01,1,2026-10-02\n", TRANSACTIONS, null));
        families.add(validated("csv: a quoted cell of line breaks and doubled quotes", 1 << 15,
                LinearTimePropertyTest::quotedBreaks, TRANSACTIONS, null));
        families.add(new Family<>("csv: the joiner's scanned bytes over a quoted cell of line breaks", 1 << 14,
                LinearTimePropertyTest::quotedBreaks,
                (text, size) -> joinScanBytes(text.getBytes(StandardCharsets.UTF_8), longLines(text.length())),
                "bytes scanned"));
        families.add(validated("csv: many tiny lines", 1 << 13, (random, n) -> {
            StringBuilder text = new StringBuilder(CSV_HEADER);
            for (int i = 0; i < n; i++) {
                text.append('T').append(i).append(",A").append(random.nextInt(1000))
                        .append(",2026-10-01,1.5,2026-10-02\n");
            }
            return text.toString();
        }, TRANSACTIONS, DEFAULTS));
        // gzip
        families.add(new Family<>("gzip: repetitive lines", 1 << 13, (random, n) -> {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < n; i++) {
                text.append(jsonLine("e" + i, "learner"));
            }
            return gzip(text.toString());
        }, stored -> cpuNanos(() -> validate(PROGRESS, DEFAULTS, stored)), "ns CPU"));
        families.add(new Family<>("gzip: one long repetitive string", 1 << 20, (random, n) ->
                gzip(jsonLine("e1", "ab".repeat(n / 2))),
                (stored, size) -> cpuNanos(() -> validate(PROGRESS, longLines(size), stored)), "ns CPU"));
        // unit naming and routing
        UnitRouter router = new UnitRouter(new ContractRegistry(Map.of(PROGRESS.dataset(), PROGRESS)));
        UnitCalendar calendar = UnitCalendar.of(PROGRESS);
        families.add(routed("routing: a long key of many separators", 1 << 14, (random, n) ->
                "progress_events/" + "a/".repeat(n / 2) + "progress-2026-03-03.jsonl", router));
        families.add(routed("routing: a long file name of near-matches", 1 << 14, (random, n) ->
                "progress_events/" + "progress-2026-03-0".repeat(n / 18 + 1) + "3.jsonl", router));
        families.add(routed("routing: a long dataset prefix", 1 << 14, (random, n) ->
                randomText(random, n) + "/progress-2026-03-03.jsonl", router));
        families.add(routed("routing: a long impossible date", 1 << 14, (random, n) ->
                "progress_events/progress-2026-02-3" + "0".repeat(n) + ".jsonl", router));
        families.add(new Family<>("unit naming: a long name of digits and separators", 1 << 14,
                LinearTimePropertyTest::digitsAndSeparators,
                unit -> cpuNanos(() -> {
                    for (int i = 0; i < 50; i++) {
                        if (calendar.canName(unit) || calendar.whyNot(unit).isEmpty()) {
                            throw new AssertionError("named " + unit.length() + " characters");
                        }
                    }
                }), "ns CPU"));
        families.add(new Family<>("unit naming: a range of many days", 1 << 14, (random, n) ->
                LocalDate.parse("2026-03-01").plusDays(n).toString(),
                to -> cpuNanos(() -> calendar.units("2026-03-01", to)), "ns CPU"));
        // many versions of a few units (a producer re-sending its files): the units, and so the maps, stay the same
        // size at every n, so what grows is the work per version, not the machine's cache misses
        families.add(new Family<>("routing: newest input per unit over a long version listing", 1 << 11,
                (random, n) -> {
            List<ObjectStore.ListedVersion> listing = new ArrayList<>();
            Instant start = Instant.parse("2026-03-01T00:00:00Z");
            for (int i = 0; i < n; i++) {
                String unit = LocalDate.parse("2026-03-01").plusDays(random.nextInt(64)).toString();
                listing.add(new ObjectStore.ListedVersion("progress_events/progress-" + unit + ".jsonl", "v" + i,
                        "etag" + i, 10, start.plusSeconds(random.nextInt(n)), random.nextBoolean()));
            }
            return listing;
        }, listing -> cpuNanos(() -> router.newestInputs(listing, PROGRESS.dataset(), (version, reason) -> { })),
                "ns CPU"));
        return families;
    }

    /** A family measured by the CPU time of one single-worker validation of the generated text. */
    private static Family<byte[]> validated(String name, int base, BiFunction<Random, Integer, String> text,
                                            DatasetContract contract, ValidationLimits limits) {
        return new Family<>(name, base, (random, n) -> text.apply(random, n).getBytes(StandardCharsets.UTF_8),
                (stored, size) -> cpuNanos(() -> validate(contract, limits == null ? longLines(stored.length) : limits,
                        stored)), "ns CPU");
    }

    /**
     * Limits under which a line of up to {@code bytes} is parsed rather than skipped (the skip has a family of its
     * own). In step with the input: the validator allocates its line buffers at maxLineBytes before reading, a cost
     * that grows with the input as it should, where one sized for the largest input would be a fixed cost that
     * swamps the small sizes (and, at hundreds of MB, varies with the garbage collector).
     */
    private static ValidationLimits longLines(int bytes) {
        int maxLineBytes = Math.max(ValidationLimits.DEFAULT_MAX_LINE_BYTES, bytes + (64 << 10));
        return ValidationLimits.builder().maxLineBytes(maxLineBytes).build().withWorkers(1);
    }

    /** A family measured by the CPU time of routing the generated key 200 times (one is too quick to measure). */
    private static Family<String> routed(String name, int base, BiFunction<Random, Integer, String> key,
                                         UnitRouter router) {
        return new Family<>(name, base, key, k -> cpuNanos(() -> {
            for (int i = 0; i < 200; i++) {
                if (!(router.route(k) instanceof UnitRouter.Unroutable)) {
                    throw new AssertionError("routed a " + k.length() + "-character key");
                }
            }
        }), "ns CPU");
    }

    private static <T> void assertLinear(Family<T> family) {
        int[] sizes = Arrays.stream(SIZES).map(m -> m * family.base()).toArray();
        List<T> inputs = new ArrayList<>();
        for (int size : sizes) {
            inputs.add(family.generate().apply(new Random(SEED), size));
        }
        for (int s = 0; s < sizes.length; s++) {
            // warm up: the first run of each size pays for class loading and the JIT
            family.cost().applyAsLong(inputs.get(s), sizes[s]);
        }
        long[][] costs = new long[sizes.length][REPEATS];
        for (int r = 0; r < REPEATS; r++) {
            for (int s = 0; s < sizes.length; s++) {
                // in turns, so a slow moment hits every size
                costs[s][r] = family.cost().applyAsLong(inputs.get(s), sizes[s]);
            }
        }
        long[] median = Arrays.stream(costs).mapToLong(LinearTimePropertyTest::median).toArray();
        StringBuilder figures = new StringBuilder(family.name()).append(" (seed ").append(SEED).append("):");
        for (int s = 0; s < sizes.length; s++) {
            figures.append(String.format(" n=%d %d %s (x%.2f);", sizes[s], median[s], family.unit(),
                    (double) median[s] / Math.max(1, median[0])));
        }
        System.out.println(figures);
        assertTrue(median[0] > 0, "nothing measured: " + figures);
        for (int s = 1; s < sizes.length; s++) {
            double growth = (double) sizes[s] / sizes[0];
            assertTrue(median[s] <= SLACK * growth * median[0],
                    "an input " + growth + " times as long cost " + (double) median[s] / median[0]
                            + " times as much (at most " + SLACK * growth + " allowed): not linear. " + figures);
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long cpuNanos(Runnable work) {
        long before = THREADS.getCurrentThreadCpuTime();
        work.run();
        return THREADS.getCurrentThreadCpuTime() - before;
    }

    private static void validate(DatasetContract contract, ValidationLimits limits, byte[] stored) {
        try {
            new StreamingValidator(contract, limits).validate(new ByteArrayInputStream(stored),
                    OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes the CSV joiner scanned for records' ends (the validator's count; see CsvQuotedLineBreaksTest). */
    private static long joinScanBytes(byte[] stored, ValidationLimits limits) {
        StreamingValidator validator = new StreamingValidator(TRANSACTIONS, limits);
        Validation.once(validator, stored, Integer.MAX_VALUE);
        return validator.joinScanBytes();
    }

    private static String quotedBreaks(Random random, int n) {
        StringBuilder text = new StringBuilder(CSV_HEADER).append("T1,\"A");
        for (int i = 0; i < n; i++) {
            text.append(random.nextBoolean() ? "\"\"" : "").append(random.nextBoolean() ? "x," : "")
                    .append(random.nextBoolean() ? "\r\n" : "\n");
        }
        return text.append("\",2026-10-01,1,2026-10-02\n").append("T2,A2,2026-10-01,2,2026-10-02\n").toString();
    }

    private static String jsonLine(String eventId, String learner) {
        return "{\"event_id\":\"" + eventId + "\",\"learner_id\":\"" + learner + "\",\"lesson_id\":\"m1\","
                + "\"event_type\":\"checkpoint\",\"attempt_number\":1,\"event_time\":\"2026-03-03T10:00:00Z\","
                + "\"checkpoint\":1}\n";
    }

    private static String randomText(Random random, int n) {
        char[] text = new char[n];
        for (int i = 0; i < n; i++) {
            text[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(text);
    }

    /** About {@code n} characters of JSON string escapes, some of them multi-byte once decoded. */
    private static String escapes(Random random, int n) {
        String[] pieces = {"\\\"", "\\\\", "\\n", "\\t", "\\u00e9", "\\ud83d\\ude00", "\\/"};
        StringBuilder text = new StringBuilder();
        while (text.length() < n) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }

    private static String arrayItems(Random random, int n) {
        String[] items = {"1", "[2]", "{\"a\":3}", "\"s\"", "true", "null", "-1.5e3"};
        StringBuilder text = new StringBuilder();
        while (text.length() < n) {
            text.append(text.length() == 0 ? "" : ",").append(items[random.nextInt(items.length)]);
        }
        return text.toString();
    }

    private static String digitsAndSeparators(Random random, int n) {
        String alphabet = "0123456789-T:";
        char[] text = new char[n];
        for (int i = 0; i < n; i++) {
            text[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(text);
    }

    private static byte[] gzip(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
