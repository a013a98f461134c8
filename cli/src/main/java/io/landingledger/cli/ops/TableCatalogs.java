package io.landingledger.cli.ops;

import io.landingledger.core.table.TablePort;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * How the command line reaches the datasets' tables. The Iceberg {@link TablePort} lives in the table writer's module
 * ({@code functions/tables}); the command line's jar carries it and registers its {@link Provider}
 * ({@code io.landingledger.cli.tables.IcebergTableCatalogs}) with {@link ServiceLoader}
 * ({@code META-INF/services/io.landingledger.cli.ops.TableCatalogs$Provider}). Without one, {@code landing explain}
 * shows the ledger's record of the unit's table and {@code landing history} says that the table's snapshots are not
 * listed here.
 */
public final class TableCatalogs {
    private TableCatalogs() {
    }

    /** Opens the target's tables. */
    public interface Provider {
        /** The target's table port, or empty when the target has no table catalog (a stack without tables). */
        Optional<TablePort> open(Resources resources);

        /** How an analyst names the target's tables in Athena and Spark. */
        Names names(Resources resources);
    }

    /**
     * How an analyst names a dataset's table.
     *
     * @param athenaPrefix the catalog and database Athena reads the table bucket through, quoted, e.g.
     *                     {@code "s3tablescatalog/landing-ledger-dev-tables"."landing_ledger_dev"}
     * @param sparkPrefix  the Spark catalog and namespace, e.g. {@code landing.landing_ledger_dev}
     */
    public record Names(String athenaPrefix, String sparkPrefix) {
        /** Without a provider: the parts the analyst fills in (docs/readers.md, "The table"). */
        public static final Names PLACEHOLDERS = new Names("\"s3tablescatalog/<table-bucket>\".\"<namespace>\"",
                "<catalog>.<namespace>");

        String athena(String dataset) {
            return athenaPrefix + ".\"" + table(dataset) + "\"";
        }

        String spark(String dataset) {
            return sparkPrefix + "." + table(dataset);
        }

        /** The table's name: S3 Tables allows no '-', so the writer names it with '_' (IcebergTablePort.identifier). */
        private static String table(String dataset) {
            return dataset.replace('-', '_');
        }
    }

    /** The provider on the class path, if any. */
    static Optional<Provider> provider() {
        return ServiceLoader.load(Provider.class).findFirst();
    }

    /** The target's table port, or empty without a provider or a table catalog. */
    static Optional<TablePort> open(Resources resources) {
        return provider().flatMap(p -> p.open(resources));
    }

    /** The target's table names, or {@link Names#PLACEHOLDERS} without a provider. */
    static Names names(Resources resources) {
        return provider().map(p -> p.names(resources)).orElse(Names.PLACEHOLDERS);
    }
}
