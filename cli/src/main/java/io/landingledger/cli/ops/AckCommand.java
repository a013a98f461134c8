package io.landingledger.cli.ops;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code landing ack DATASET UNIT --consumer NAME [--publish ID]}: records that a consumer read a unit's publish
 * (docs/readers.md, "Consumer receipts"), as a UnitConsumed event would: one conditional PutItem on the target's
 * Consumers table, so an older receipt never replaces a newer one. On a deployed stack it writes the table directly
 * with the caller's credentials (dynamodb:PutItem on the table) rather than putting a UnitConsumed event: the event is
 * delivered asynchronously, and the operator is told here whether the receipt was recorded or a later one stands.
 */
@Command(name = "ack", mixinStandardHelpOptions = true,
        description = {"Record that CONSUMER read DATASET's UNIT: the publish it read (--publish: a run id or the published ETag;",
                "default: the ledger's current publish). `landing status` and the sweep then report the consumer behind on the",
                "unit once a newer publish lands (a repair or restatement), until it acks that one."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:recorded", "1:not recorded: a receipt read as late or later stands",
                "2:usage error (unknown dataset, unit never published, no Consumers table), no stack found, or an internal error"})
public final class AckCommand extends UnitCommand {
    @Option(names = "--consumer", required = true, paramLabel = "NAME", description = "The consumer's own name (letters, digits, . _ -).")
    String consumer;

    @Option(names = "--publish", paramLabel = "ID", description = "The publish read: run id or published ETag (default: the current one).")
    String publish;

    @Option(names = "--snapshot", paramLabel = "ID", description = "The table snapshot the consumer read the unit at "
            + "(`landing history` lists them): `landing status` names consumers on a snapshot older than the unit's current one.")
    Long snapshot;

    @Mixin
    JsonOption output;

    @Override
    int run() throws Exception {
        contract(dataset);
        if (resources.consumersTable() == null) {
            throw new IllegalArgumentException("the target has no Consumers table (" + resources.source()
                    + "): deploy infra/template.yaml again to add it");
        }
        String read = publish;
        if (read == null) {
            LedgerItem item = dependencies.ledger().get(dataset, unit).filter(i -> i.published() != null)
                    .orElseThrow(() -> new IllegalArgumentException(dataset + "/" + unit + " has no publish to acknowledge"));
            read = item.runId();
        }
        if (snapshot != null && snapshot <= 0) {
            throw new IllegalArgumentException("--snapshot must be a table snapshot id (a positive integer), not " + snapshot);
        }
        ConsumerReceipt receipt = new ConsumerReceipt(dataset, unit, consumer, read, Instant.now(), snapshot);
        boolean recorded = new DynamoDbConsumerReceipts(dependencies.dynamoDb(), resources.consumersTable()).record(receipt);
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("target", resources.source());
            doc.put("recorded", recorded);
            doc.put("dataset", dataset);
            doc.put("unit", unit);
            doc.put("consumer", consumer);
            doc.put("publish", read);
            doc.put("consumed_at", receipt.consumedAt().toString());
            doc.put("snapshot", snapshot);
            printJson(doc);
        } else {
            out.println(recorded ? "Recorded: " + consumer + " read " + dataset + "/" + unit + " publish " + read + "."
                    : "Not recorded: a receipt of " + consumer + " for " + dataset + "/" + unit + " read as late or later stands.");
        }
        return recorded ? 0 : 1;
    }
}
