package io.landingledger.cli.odcs;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnknownFieldPolicy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The contract settings ODCS has no element for, carried in the document's top-level {@code customProperties} under
 * a {@code landing.} name (docs/contracts.md, "Open Data Contract Standard"). Each names the contract setting it is
 * (its JSON path in a product contract) and how an export reads it; the import writes the value at that path as
 * given, so the contract loader checks it exactly as it checks a contract written by hand.
 */
enum LandingProperty {
    FORMAT("landing.format", "$.format", c -> c.format().name().toLowerCase(Locale.ROOT)),
    UNIT_PATTERN("landing.unit.pattern", "$.unit.pattern", c -> c.unit().pattern().pattern()),
    UNIT_FIRST("landing.unit.first", "$.unit.first", c -> c.unit().first()),
    UNIT_UNITS("landing.unit.units", "$.unit.units",
            c -> c.unit().cadence() == Cadence.LIST ? c.unit().units() : null),
    UNIT_LOOKBACK_DAYS("landing.unit.lookbackDays", "$.unit.lookbackDays", c -> c.unit().lookbackDays()),
    UNIT_DEPENDS_ON_PREVIOUS("landing.unit.dependsOnPrevious", "$.unit.dependsOnPrevious",
            c -> c.unit().dependsOnPrevious()),
    UNIT_AUTO_REDRIVE("landing.unit.autoRedrive", "$.unit.autoRedrive", c -> c.unit().autoRedrive()),
    UNKNOWN_FIELDS("landing.unknownFields", "$.unknownFields",
            c -> c.unknownFields() == UnknownFieldPolicy.REFUSE_FILE ? "refuse-file" : "reject-line"),
    MAX_REJECTED_LINES("landing.maxRejectedLines", "$.maxRejectedLines", DatasetContract::maxRejectedLines),
    ALLOW_EMPTY("landing.allowEmpty", "$.allowEmpty", DatasetContract::allowEmpty),
    ACCEPT_EMPTY_UNITS("landing.acceptEmptyUnits", "$.acceptEmptyUnits", DatasetContract::acceptEmptyUnits),
    VOLUME_MAX_CHANGE_PERCENT("landing.volume.maxChangePercent", "$.volume.maxChangePercent",
            c -> c.volume().maxChangePercent());

    /** The prefix of every custom property this product reads; any other custom property is refused. */
    static final String PREFIX = "landing.";

    private final String odcsName;
    private final String contractPath;
    private final Function<DatasetContract, Object> export;

    LandingProperty(String odcsName, String contractPath, Function<DatasetContract, Object> export) {
        this.odcsName = odcsName;
        this.contractPath = contractPath;
        this.export = export;
    }

    /** Its name in {@code customProperties[].property}. */
    String odcsName() {
        return odcsName;
    }

    /** The product contract's JSON path it sets, like {@code $.unit.pattern}. */
    String contractPath() {
        return contractPath;
    }

    /** Its value in {@code contract}, or null when the contract has none (a daily dataset's unit list). */
    Object valueIn(DatasetContract contract) {
        return export.apply(contract);
    }

    static Optional<LandingProperty> named(String odcsName) {
        return Arrays.stream(values()).filter(p -> p.odcsName.equals(odcsName)).findFirst();
    }

    static String names() {
        return String.join(", ", Arrays.stream(values()).map(LandingProperty::odcsName).toList());
    }
}
