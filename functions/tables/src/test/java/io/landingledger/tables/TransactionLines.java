package io.landingledger.tables;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Published lines of the shipped {@code transactions} contract, canonical as the validator writes them (sorted keys,
 * compact, amounts with their significant digits only): {@code txn_id}, {@code account_id}, {@code business_date},
 * {@code amount} decimal(12,2) and {@code batch_date}, deterministic for a line number. About 110 bytes a line.
 */
final class TransactionLines {
    private TransactionLines() {
    }

    static String line(long i, LocalDate batch) {
        long cents = 100 + (i * 7919L) % 9_999_999L;
        String amount = java.math.BigDecimal.valueOf(cents, 2).stripTrailingZeros().toPlainString();
        return "{\"account_id\":\"acct-" + (i % 50_000) + "\",\"amount\":" + amount + ",\"batch_date\":\"" + batch
                + "\",\"business_date\":\"" + batch.minusDays(i % 3) + "\",\"txn_id\":\"txn-" + batch + "-" + i
                + "\"}\n";
    }

    /** Writes {@code lines} lines for {@code batch}; returns the bytes written. */
    static long write(OutputStream out, long lines, LocalDate batch) throws IOException {
        long bytes = 0;
        for (long i = 0; i < lines; i++) {
            byte[] line = line(i, batch).getBytes(StandardCharsets.UTF_8);
            out.write(line);
            bytes += line.length;
        }
        return bytes;
    }
}
