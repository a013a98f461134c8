package io.landingledger.tools.local;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.List;
import java.util.Random;

/**
 * Seeded inbox keys a careless or hostile producer could put: a dataset prefix and a file name built from parts, each
 * part drawn from its hostile variants (impossible and edge dates, separators missing or doubled, double extensions,
 * case, {@code ..} and {@code //} paths, characters S3 URL-encodes in its events, zero-width and bidi characters, NFC
 * and NFD forms, keys near S3's 1,024-byte limit). The same seed gives the same keys.
 */
final class InboxKeyGenerator {
    /** S3's limit on a key's UTF-8 length. */
    static final int MAX_KEY_BYTES = 1024;

    /** A key and what was done to it (for the failure report). */
    record FuzzedKey(String key, String dataset, String how) {
        int utf8Length() {
            return key.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    /** Real dates: inside the examples' ranges, and the edges (a leap day, the first and the last date a name can hold). */
    private static final List<String> REAL_DATES = List.of("2026-03-01", "2026-03-02", "2026-03-04", "2026-03-09", "2026-10-01",
            "2026-10-02", "2026-10-05", "2024-02-29", "2028-02-29", "0001-01-01", "9999-12-31", "2026-12-31");
    /** Names no daily cadence can hold, or that are not the pattern's date at all. */
    private static final List<String> IMPOSSIBLE_DATES = List.of("2026-02-29", "0000-00-00", "2026-13-45", "2026-02-30", "2026-04-31",
            "2026-00-10", "2026-03-00", "2026-1-5", "20260301", "2026_03_01", "2026-03-01T00", "2026-03-01 ",
            "\uFF12\uFF10\uFF12\uFF16-03-01", "\u0662\u0660\u0662\u0666-03-01", "2026\u201103\u201101", "2026-03-0\u0661");
    /** The cases issue 30 names, put first in every run whatever the seed (then the seeded ones). */
    private static final List<FuzzedKey> NAMED = List.of(
            new FuzzedKey("progress_events/progress-2026-02-29.jsonl", "progress_events", "named: not a leap year"),
            new FuzzedKey("progress_events/progress-2024-02-29.jsonl", "progress_events", "named: a leap day before the first unit"),
            new FuzzedKey("progress_events/progress-0000-00-00.jsonl", "progress_events", "named: zeros"),
            new FuzzedKey("progress_events/progress-9999-12-31.jsonl", "progress_events", "named: the last date"),
            new FuzzedKey("transactions/transactions-2026-13-45.csv", "transactions", "named: month 13"),
            new FuzzedKey("progress_events/progress-2026-03-03.jsonl", "progress_events", "named: a plain name"),
            new FuzzedKey("progress_events/progress-2026-03-0\u200B5.jsonl", "progress_events", "named: zero-width space"),
            new FuzzedKey("progress_events/progress-2026-03-06.jsonl\u202E", "progress_events", "named: bidi override"),
            new FuzzedKey("progress_events/progress+2026-03-07.jsonl", "progress_events", "named: a plus (S3 sends %2B)"),
            new FuzzedKey("progress_events/progress 2026-03-07.jsonl", "progress_events", "named: a space (S3 sends +)"),
            new FuzzedKey(Normalizer.normalize("progress_events/progress-caf\u00E9-2026-03-08.jsonl", Normalizer.Form.NFD), "progress_events",
                    "named: NFD"),
            new FuzzedKey("progress_events//progress-2026-03-08.jsonl", "progress_events", "named: //"),
            new FuzzedKey("progress_events/../transactions/transactions-2026-10-03.csv", "progress_events", "named: .."),
            new FuzzedKey("transactions/transactions-2026-10-04.csv.csv", "transactions", "named: a double extension"),
            new FuzzedKey("transactions/TRANSACTIONS-2026-10-04.CSV", "transactions", "named: upper case"));
    /** Characters that change a key's meaning or its URL encoding, or that a reader cannot see. */
    private static final List<String> ODD = List.of("+", " ", "%", "%20", "%2B", "%2F", "&", "=", "?", "#", "\u200B", "\u200D",
            "\uFEFF", "\u202E", "\u200F", "\u2066", "\u0301", "\t", "~", "*", "'", "\"", "\\", ";", ":", "@", "$", "!", "(", "[",
            "\u00E9", "e\u0301", "\uD83D\uDE00");

    private final Random random;
    private int named;

    InboxKeyGenerator(long seed) {
        this.random = new Random(seed);
    }

    FuzzedKey next() {
        if (named < NAMED.size()) {
            return NAMED.get(named++);
        }
        boolean progress = random.nextBoolean();
        String dataset = progress ? "progress_events" : "transactions";
        String stem = progress ? "progress" : "transactions";
        String extension = progress ? ".jsonl" : ".csv";
        StringBuilder how = new StringBuilder();
        String date = pick(random.nextBoolean() ? REAL_DATES : IMPOSSIBLE_DATES);
        how.append("date=").append(escape(date));
        String separator = "-";
        String ext = extension;
        String prefix = dataset + "/";
        switch (random.nextInt(16)) {
            case 0 -> {
                separator = pick(List.of("", "--", "_", ".", "/"));
                how.append(" separator=").append(escape(separator));
            }
            case 1 -> {
                ext = pick(List.of(extension + extension, extension + ".gz.gz", extension + ".gz", ".gz", "", extension + ".",
                        extension + ".tmp", extension.toUpperCase(java.util.Locale.ROOT), extension + ".GZ"));
                how.append(" extension=").append(escape(ext));
            }
            case 2 -> {
                prefix = pick(List.of(dataset + "//", dataset + "/./", dataset + "/../" + dataset + "/", "./" + dataset + "/",
                        "/" + dataset + "/", dataset + "/sub/", dataset.toUpperCase(java.util.Locale.ROOT) + "/",
                        dataset + "/..//", "../" + dataset + "/", dataset + "%2F", dataset + "\\"));
                how.append(" prefix=").append(escape(prefix));
            }
            case 3 -> {
                stem = pick(List.of(stem.toUpperCase(java.util.Locale.ROOT), Character.toUpperCase(stem.charAt(0)) + stem.substring(1),
                        stem + "s", stem.substring(0, stem.length() - 1), " " + stem, stem + " "));
                how.append(" stem=").append(escape(stem));
            }
            case 4, 5 -> {
                String odd = pick(ODD);
                int where = random.nextInt(4);
                switch (where) {
                    case 0 -> prefix = dataset + odd + "/";
                    case 1 -> stem = stem + odd;
                    case 2 -> date = date + odd;
                    default -> ext = ext + odd;
                }
                how.append(" odd=").append(escape(odd)).append("@").append(where);
            }
            case 6 -> {
                // the same accented name in its two Unicode forms: two keys to S3, one name to a reader
                Normalizer.Form form = random.nextBoolean() ? Normalizer.Form.NFC : Normalizer.Form.NFD;
                stem = Normalizer.normalize(stem + "-caf\u00E9", form);
                how.append(" form=").append(form);
            }
            case 7 -> {
                // near S3's limit: a folder of filler, in multi-byte characters half the time
                String filler = random.nextBoolean() ? "a" : "\u00E9";
                int target = MAX_KEY_BYTES - random.nextInt(8);
                String tail = stem + separator + date + ext;
                StringBuilder folder = new StringBuilder();
                while ((prefix + folder + filler + "/" + tail).getBytes(StandardCharsets.UTF_8).length <= target) {
                    folder.append(filler);
                }
                prefix = prefix + folder + "/";
                how.append(" long=").append((prefix + tail).getBytes(StandardCharsets.UTF_8).length).append("B");
            }
            case 8 -> {
                // the unit's file name long enough to reach the limit with no folder
                StringBuilder padded = new StringBuilder(stem);
                while ((prefix + padded + "x" + separator + date + ext).getBytes(StandardCharsets.UTF_8).length <= MAX_KEY_BYTES) {
                    padded.append('x');
                }
                stem = padded.toString();
                how.append(" long-stem");
            }
            case 9 -> {
                prefix = pick(List.of("elsewhere/", "_contracts/", "published/" + dataset + "/", "", "progress_events.json/"));
                how.append(" prefix=").append(escape(prefix));
            }
            default -> {
                // the plain name: every run also puts files that must be published
            }
        }
        String key = prefix + stem + separator + date + ext;
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            key = new String(key.getBytes(StandardCharsets.UTF_8), 0, MAX_KEY_BYTES, StandardCharsets.UTF_8);
            while (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES || key.endsWith("\uFFFD")) {
                key = key.substring(0, key.length() - 1);
            }
            how.append(" cut-to-limit");
        }
        return new FuzzedKey(key, dataset, how.toString());
    }

    private String pick(List<String> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** Shows invisible and non-ASCII characters as code points, so a report can be read and copied. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(cp -> {
            if (cp >= 0x21 && cp < 0x7F) {
                out.appendCodePoint(cp);
            } else {
                out.append(String.format(java.util.Locale.ROOT, "\\u{%X}", cp));
            }
        });
        return out.toString();
    }
}
