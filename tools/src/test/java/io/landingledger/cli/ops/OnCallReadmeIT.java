package io.landingledger.cli.ops;

import io.landingledger.cli.Landing;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;
import io.landingledger.cli.stack.LocalStackRecord;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The "On call" section of docs/operations.md (the README's on call in full, moved there) run as written: every line
 * of its fenced {@code sh} blocks, in order. The first
 * ({@code ./landing local --watch --no-bucket-events}) starts the local stack in this JVM (its record under a
 * temporary folder), {@code export} lines are the AWS CLI's environment, {@code sed Nd SRC > DST} and
 * {@code aws --endpoint-url $S3 s3 cp|rm} are done with the JDK and the SDK against the stack's S3 endpoint, and every
 * other {@code ./landing ...} line runs through {@link Landing#run} with the arguments the shell would pass. Each
 * command must exit as {@link #EXITS} says (the section's rule: status 0 when complete, 1 when not; repair 0 when every
 * unit was restored or planned), and a status or history line's comment (its output row, {@code ...} eliding) must
 * appear in its output.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class OnCallReadmeIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The document whose "On call" section this runs (the README links it). */
    static final Path DOC = ROOT.resolve("docs/operations.md");

    /** Each {@code ./landing} command line of the section after the first, as written (without its comment), in order, with its exit status. */
    static final List<Map.Entry<String, Integer>> EXITS = new ArrayList<>();

    static {
        EXITS.add(Map.entry("./landing status progress_events", 1));
        EXITS.add(Map.entry("./landing explain progress_events 2026-03-07", 1));
        EXITS.add(Map.entry("./landing status progress_events --drift", 1));
        EXITS.add(Map.entry("./landing repair progress_events 2026-03-07 --input-version latest --reason 'INC-7 producer fixed 03-07, event lost' --dry-run", 0));
        EXITS.add(Map.entry("./landing repair progress_events 2026-03-07 --input-version latest --reason 'INC-7 producer fixed 03-07, event lost' --yes", 0));
        EXITS.add(Map.entry("./landing history progress_events 2026-03-07", 0));
        EXITS.add(Map.entry("./landing status progress_events --drift", 1));
        EXITS.add(Map.entry("./landing explain progress_events 2026-03-03", 1));
        EXITS.add(Map.entry("./landing repair progress_events 2026-03-03 --reason 'INC-8 publish deleted by a lifecycle rule' --dry-run", 0));
        EXITS.add(Map.entry("./landing repair progress_events 2026-03-03 --reason 'INC-8 publish deleted by a lifecycle rule' --yes", 0));
        EXITS.add(Map.entry("./landing sweep progress_events", 1));
    }

    /** The fenced sh lines of docs/operations.md's "On call" section, in order (comment-only lines left out). */
    static List<String> sectionLines() throws Exception {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("\n## On call\n");
        assertTrue(start >= 0, DOC + " has an On call section");
        int end = doc.indexOf("\n## ", start + 5);
        String section = doc.substring(start, end < 0 ? doc.length() : end);
        List<String> lines = new ArrayList<>();
        boolean inFence = false;
        for (String line : section.split("\n")) {
            if (line.startsWith("```")) {
                inFence = !inFence && line.equals("```sh");
                continue;
            }
            if (inFence && !line.isBlank() && !line.strip().startsWith("#")) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The words the shell passes (single and double quotes; a {@code #} after a blank starts the comment); the comment last, or null. */
    static List<String> words(String line, String[] comment) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int close = line.indexOf(c, i + 1);
                word = word == null ? new StringBuilder() : word;
                word.append(line, i + 1, close);
                i = close;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                comment[0] = line.substring(i + 1).strip();
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    static String withoutComment(String line) {
        String[] comment = new String[1];
        words(line, comment);
        return comment[0] == null ? line.strip() : line.substring(0, line.lastIndexOf("# " + comment[0])).strip();
    }

    @Test
    void theSectionsCommandLines_runAsWritten_inOrder() throws Exception {
        List<String> lines = sectionLines();
        assertEquals("./landing local --watch --no-bucket-events", withoutComment(lines.get(0)), "the section starts the stack first");
        Path work = Files.createTempDirectory("oncall-readme-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        WatchedLocalStack stack = null;
        StringBuilder transcript = new StringBuilder();
        try {
            List<String> ran = new ArrayList<>();
            for (String line : lines) {
                String[] comment = new String[1];
                List<String> words = words(line, comment);
                String command = withoutComment(line);
                transcript.append("$ ").append(command).append('\n');
                switch (words.get(0)) {
                    case "./landing" -> {
                        if (words.get(1).equals("local")) {
                            stack = WatchedLocalStack.start(words.subList(1, words.size()).toArray(String[]::new));
                            continue;
                        }
                        if (ran.size() >= EXITS.size()) {
                            fail("no expected exit status for the section's line: " + command + " (add it to EXITS)");
                        }
                        assertEquals(EXITS.get(ran.size()).getKey(), command, "the section's next command line (keep EXITS in step)");
                        int expected = EXITS.get(ran.size()).getValue();
                        LandingRun run = LandingRun.inProcess(words.subList(1, words.size()).toArray(String[]::new));
                        transcript.append(run.stdout()).append(run.stderr());
                        assertEquals(expected, run.exit(), command + "\n" + transcript);
                        if (comment[0] != null && (words.get(1).equals("status") || words.get(1).equals("history"))) {
                            assertOutputHas(comment[0], run.stdout(), command);
                        }
                        ran.add(command);
                    }
                    case "export" -> { } // the AWS CLI's environment; the SDK client below has its own
                    case "sed" -> {
                        // sed Nd SRC > DST: the file without line N
                        assertEquals(5, words.size(), line);
                        int drop = Integer.parseInt(words.get(1).replace("d", ""));
                        List<String> source = Files.readAllLines(ROOT.resolve(words.get(2)));
                        List<String> kept = new ArrayList<>(source);
                        kept.remove(drop - 1);
                        assertEquals(">", words.get(3));
                        Files.write(local(work, words.get(4)), kept);
                    }
                    case "aws" -> {
                        assertEquals(List.of("--endpoint-url", "$S3", "s3"), words.subList(1, 4), line);
                        String action = words.get(4);
                        String url = words.get(action.equals("cp") ? 6 : 5);
                        String bucket = url.substring("s3://".length(), url.indexOf('/', 5));
                        String key = url.substring(url.indexOf('/', 5) + 1);
                        if (action.equals("cp")) {
                            stack.s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromFile(local(work, words.get(5))));
                        } else {
                            assertEquals("rm", action, line);
                            stack.s3.deleteObject(r -> r.bucket(bucket).key(key));
                        }
                    }
                    default -> fail("the On call section of " + DOC + " has a line this test cannot run: " + line);
                }
            }
            assertEquals(EXITS.stream().map(Map.Entry::getKey).toList(), ran, "every expected command ran, in the section's order");
        } finally {
            if (stack != null) {
                stack.close();
            }
            System.clearProperty(LocalStackRecord.PROPERTY);
        }
    }

    /** A path of the section: /tmp/... goes to this test's folder, anything else is relative to the checkout. */
    static Path local(Path work, String path) {
        return path.startsWith("/tmp/") ? work.resolve(path.substring(5)) : ROOT.resolve(path);
    }

    /** The comment's parts (split at runs of blanks and at "..."), in order, on one line of the output. */
    static void assertOutputHas(String comment, String output, String command) {
        StringBuilder regex = new StringBuilder("(?m)^.*");
        for (String part : comment.split("\\s{2,}|\\.\\.\\.")) {
            if (!part.isBlank()) {
                regex.append(Pattern.quote(part.strip())).append(".*?");
            }
        }
        assertTrue(Pattern.compile(regex.toString()).matcher(output).find(), command + ": its comment \"" + comment + "\" is not in\n" + output);
    }
}
