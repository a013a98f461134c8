package io.landingledger.tools.local;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.lambda.DependencyFactory;

import software.amazon.awssdk.core.sync.ResponseTransformer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code landing local --export}: the lake's readable prefixes copied out, with a JSON dump of both ledger tables. */
final class LakeExport {
    private LakeExport() {
    }

    /** Copies published/, _quarantine/, _reports/ and _status/ of {@code lake}, and the ledger items of {@code datasets}. */
    static void write(DependencyFactory dependencies, String lake, Set<String> datasets, Path directory) throws IOException {
        for (String prefix : List.of(LakeLayout.PUBLISHED_PREFIX, LakeLayout.QUARANTINE_PREFIX, LakeLayout.REPORTS_PREFIX,
                LakeLayout.STATUS_PREFIX)) {
            for (var object : dependencies.objectStore().list(lake, prefix)) {
                Path target = directory.resolve(object.key()).normalize();
                if (!target.startsWith(directory)) {
                    continue; // never write outside the export directory, whatever a key says
                }
                Files.createDirectories(target.getParent());
                Files.deleteIfExists(target);
                dependencies.s3().getObject(r -> r.bucket(lake).key(object.key()), ResponseTransformer.toFile(target));
            }
        }
        List<Object> ledger = new ArrayList<>();
        List<Object> history = new ArrayList<>();
        for (String dataset : datasets) {
            for (LedgerItem item : dependencies.ledger().items(dataset, null, null)) {
                ledger.add(item);
                for (HistoryEntry entry : dependencies.ledger().history(dataset, item.unit())) {
                    history.add(entry);
                }
            }
        }
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("ledger.json"), Json.pretty(ledger));
        Files.writeString(directory.resolve("ledger-history.json"), Json.pretty(history));
    }
}
