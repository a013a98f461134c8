package io.landingledger.cli.tables;

import io.landingledger.cli.ops.Resources;
import io.landingledger.cli.ops.TableCatalogs;
import io.landingledger.cli.stack.StackTables;
import io.landingledger.core.table.TablePort;
import io.landingledger.tables.IcebergTablePort;
import io.landingledger.tables.TableCatalogConfig;

import org.apache.iceberg.catalog.Namespace;

import java.util.Optional;

/**
 * The command line's {@link TableCatalogs.Provider}: the table writer's own {@link IcebergTablePort} over Iceberg's
 * REST client, at the catalog the target's stack names ({@link Resources#tables()}). The operator signs with their
 * own credentials, SigV4 with signing name {@value TableCatalogConfig#S3_TABLES_SIGNING_NAME} as S3 Tables wants: on
 * AWS the SDK's default chain, on the locally deployed stack the operator connection's keys (the same
 * {@link io.landingledger.lambda.AwsConnection} the ledger is read with), so the table bucket's policy decides what
 * the operator may read there as it does on AWS.
 */
public final class IcebergTableCatalogs implements TableCatalogs.Provider {
    /** The Spark catalog name docs/readers.md configures ({@code spark.sql.catalog.landing}). */
    static final String SPARK_CATALOG = "landing";

    @Override
    public Optional<TablePort> open(Resources resources) {
        return resources.tables().map(tables -> {
            TableCatalogConfig config = new TableCatalogConfig(tables.catalogUri(), tables.warehouse(),
                    Namespace.of(tables.namespace()), true, TableCatalogConfig.S3_TABLES_SIGNING_NAME,
                    resources.connection());
            return new IcebergTablePort(config.connect(), config.namespace());
        });
    }

    @Override
    public TableCatalogs.Names names(Resources resources) {
        return resources.tables().map(IcebergTableCatalogs::names).orElse(TableCatalogs.Names.PLACEHOLDERS);
    }

    /** Athena reads a table bucket as the catalog {@code s3tablescatalog/<bucket name>}, its namespace as a database. */
    static TableCatalogs.Names names(StackTables tables) {
        return new TableCatalogs.Names("\"s3tablescatalog/" + tables.bucketName() + "\".\"" + tables.namespace() + "\"",
                SPARK_CATALOG + "." + tables.namespace());
    }
}
