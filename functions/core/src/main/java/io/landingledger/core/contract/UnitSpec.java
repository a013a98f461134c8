package io.landingledger.core.contract;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an inbox file name maps to its unit, and which units are expected.
 *
 * @param pattern           matched against the file name (the key after the dataset prefix); group {@code unit} is the unit
 * @param cadence           daily, hourly or an explicit list
 * @param first             the first expected unit (daily and hourly), or null for a list
 * @param units             the expected unit names for {@link Cadence#LIST}, empty otherwise
 * @param graceHours        hours after a unit's end before a missing input is a failure rather than pending
 * @param lookbackDays      how far back the scheduled sweep looks when it is given no range
 * @param dependsOnPrevious a unit's output depends on the previous unit (repair runs forward)
 * @param autoRedrive       the sweep re-drives inputs the ledger has not recorded
 */
public record UnitSpec(Pattern pattern, Cadence cadence, String first, List<String> units, int graceHours,
                       int lookbackDays, boolean dependsOnPrevious, boolean autoRedrive) {

    public UnitSpec {
        units = List.copyOf(units);
    }

    /** The unit a file name belongs to, or empty when the name does not match the contract's pattern. */
    public Optional<String> unitOf(String fileName) {
        Matcher matcher = pattern.matcher(fileName);
        return matcher.matches() ? Optional.of(matcher.group("unit")) : Optional.empty();
    }
}
