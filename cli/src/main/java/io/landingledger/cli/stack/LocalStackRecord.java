package io.landingledger.cli.stack;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a running {@code landing local --watch} listens, so that {@code landing status}, {@code explain},
 * {@code repair}, {@code sweep} and {@code history} find it without flags. One small JSON file:
 * {@code $LANDING_LOCAL_STATE} when set (tests; the system property {@code landing.local.state} likewise), else
 * {@code $XDG_STATE_HOME/landing-ledger/local.json}, else {@code ~/.local/state/landing-ledger/local.json}. Written
 * when the stack is ready, removed when the command exits. It holds endpoints, names, the region and the emulators'
 * well-known test credentials (never real ones).
 */
public record LocalStackRecord(String region, URI s3Endpoint, URI dynamoDbEndpoint, String inboxBucket, String lakeBucket,
                               String ledgerTable, String historyTable, String accessKeyId, String secretAccessKey, long pid,
                               String consumersTable, String stackName) {

    public static final String ENV = "LANDING_LOCAL_STATE";
    public static final String PROPERTY = "landing.local.state";

    /** The record's path, by the rule above. */
    public static Path path() {
        String explicit = System.getProperty(PROPERTY);
        if (explicit == null || explicit.isBlank()) {
            explicit = System.getenv(ENV);
        }
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("landing-ledger").resolve("local.json");
    }

    /** Writes this record (atomically: a reader never sees half a file) and returns where. */
    public Path write() throws IOException {
        Path target = path();
        Files.createDirectories(target.toAbsolutePath().getParent());
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("region", region);
        map.put("s3_endpoint", s3Endpoint.toString());
        map.put("dynamodb_endpoint", dynamoDbEndpoint.toString());
        map.put("inbox_bucket", inboxBucket);
        map.put("lake_bucket", lakeBucket);
        map.put("ledger_table", ledgerTable);
        map.put("history_table", historyTable);
        map.put("access_key_id", accessKeyId);
        map.put("secret_access_key", secretAccessKey);
        map.put("pid", pid);
        if (consumersTable != null) {
            map.put("consumers_table", consumersTable);
        }
        if (stackName != null) {
            map.put("stack_name", stackName);
        }
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(map) + "\n");
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    /** Removes the record, only if it is still this process's (another stack may have started since). */
    public void remove() {
        try {
            Optional<LocalStackRecord> current = read();
            if (current.isPresent() && current.get().pid() == pid) {
                Files.deleteIfExists(path());
            }
        } catch (IOException | RuntimeException e) {
            // best effort at exit
        }
    }

    /** The record of the running local stack, or empty when none is recorded. */
    public static Optional<LocalStackRecord> read() throws IOException {
        Path file = path();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Map<String, Object> map = JSON.std.mapFrom(Files.readString(file));
        return Optional.of(new LocalStackRecord(text(map, "region"), URI.create(text(map, "s3_endpoint")),
                URI.create(text(map, "dynamodb_endpoint")), text(map, "inbox_bucket"), text(map, "lake_bucket"),
                text(map, "ledger_table"), text(map, "history_table"), text(map, "access_key_id"), text(map, "secret_access_key"),
                map.get("pid") instanceof Number n ? n.longValue() : -1,
                map.get("consumers_table") == null ? null : map.get("consumers_table").toString(),
                map.get("stack_name") == null ? null : map.get("stack_name").toString()));
    }

    /** True when the process that wrote the record is still alive (a killed stack leaves its file behind). */
    public boolean alive() {
        return pid < 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static String text(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) {
            throw new IllegalArgumentException(path() + " lacks \"" + key + "\"");
        }
        return value.toString();
    }
}
