package io.landingledger.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The DuckDB peer of {@code landing bench --peers}, run in a JVM of its own with the duckdb_jdbc jar on its class
 * path (the landing jar does not ship DuckDB; this class needs only java.sql to compile). What a team might write
 * with DuckDB instead of the validator: a typed {@code read_ndjson} of the contract's columns that skips unreadable
 * lines, the contract's value checks in SQL, the conflicting-duplicate check (an event_id with two payloads refuses
 * the file) and a DISTINCT copy of the accepted rows out to a JSON lines file. Less than the contract asks: an unknown
 * or prohibited field is not seen (the typed reader reads only the named columns), nor is the reject cap, and the
 * rows are DuckDB's JSON, not the canonical form. Prints one JSON summary line; no row content.
 *
 * <p>Usage: {@code DuckDbPeer INPUT ACCEPTED_OUT THREADS}
 */
public final class DuckDbPeer {
    private DuckDbPeer() {
    }

    public static void main(String[] args) throws SQLException {
        if (args.length != 3) {
            System.err.println("usage: DuckDbPeer INPUT ACCEPTED_OUT THREADS");
            System.exit(2);
        }
        Path input = Path.of(args[0]).toAbsolutePath();
        Path accepted = Path.of(args[1]).toAbsolutePath();
        int threads = Integer.parseInt(args[2]);
        long started = System.nanoTime();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement sql = db.createStatement()) {
            // nothing is downloaded: the JSON reader is linked into duckdb_jdbc
            sql.execute("SET autoinstall_known_extensions = false");
            sql.execute("SET autoload_known_extensions = false");
            sql.execute("SET threads = " + threads);
            sql.execute("SET TimeZone = 'UTC'");
            // attempt_number and event_time are read as JSON and text so that "2", true and a naive time can be told apart
            sql.execute("CREATE TEMP TABLE raw AS SELECT * FROM read_ndjson(" + literal(input) + ", columns = {"
                    + "event_id: 'VARCHAR', learner_id: 'VARCHAR', lesson_id: 'VARCHAR', event_type: 'VARCHAR',"
                    + " attempt_number: 'JSON', event_time: 'VARCHAR', checkpoint: 'JSON'}, ignore_errors = true)");
            sql.execute("CREATE TEMP TABLE events AS SELECT event_id, learner_id, lesson_id, event_type,"
                    + " CAST(attempt_number AS BIGINT) AS attempt_number, CAST(event_time AS TIMESTAMPTZ) AS event_time,"
                    + " CAST(checkpoint AS BIGINT) AS checkpoint FROM raw"
                    + " WHERE length(event_id) > 0 AND length(learner_id) > 0 AND length(lesson_id) > 0"
                    + " AND event_type IN ('checkpoint', 'completed')"
                    + " AND json_type(attempt_number) IN ('UBIGINT', 'BIGINT') AND CAST(attempt_number AS BIGINT) >= 1"
                    + " AND (checkpoint IS NULL OR json_type(checkpoint) IN ('UBIGINT', 'BIGINT', 'NULL'))"
                    + " AND regexp_matches(event_time, '(Z|[+-][0-9][0-9]:?[0-9][0-9])$')"
                    + " AND TRY_CAST(event_time AS TIMESTAMPTZ) IS NOT NULL");
            long read = count(sql, "SELECT count(*) FROM raw");
            long valid = count(sql, "SELECT count(*) FROM events");
            long conflicts = count(sql, "SELECT count(*) FROM (SELECT event_id FROM events GROUP BY event_id"
                    + " HAVING count(DISTINCT (learner_id, lesson_id, event_type, attempt_number, event_time, checkpoint)) > 1)");
            long distinct = -1;
            if (conflicts == 0) {
                sql.execute("COPY (SELECT DISTINCT * FROM events) TO " + literal(accepted) + " (FORMAT json)");
                distinct = count(sql, "SELECT count(*) FROM read_ndjson(" + literal(accepted) + ", columns = {event_id: 'VARCHAR'})");
            } else {
                Files.deleteIfExists(accepted);
            }
            System.out.printf(Locale.ROOT, "{\"decision\": \"%s\", \"read\": %d, \"valid\": %d, \"conflictingKeys\": %d, \"accepted\": %d,"
                            + " \"threads\": %d, \"seconds\": %.3f}%n", conflicts == 0 ? "accept" : "refuse", read, valid, conflicts, distinct,
                    threads, (System.nanoTime() - started) / 1e9);
        } catch (java.io.IOException e) {
            throw new SQLException("cannot remove " + accepted, e);
        }
    }

    private static long count(Statement sql, String query) throws SQLException {
        try (ResultSet rows = sql.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** A path as an SQL string literal. */
    private static String literal(Path path) {
        return "'" + path.toString().replace("'", "''") + "'";
    }
}
