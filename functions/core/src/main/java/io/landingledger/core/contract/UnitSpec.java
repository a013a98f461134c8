package io.landingledger.core.contract;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an inbox file name maps to its unit, and which units are expected. Derive one with {@link #toBuilder()} or a
 * {@code with...} copy; a {@link #builder()} requires {@code pattern} and {@code cadence}, {@code units} defaults to
 * none.
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

    /** A builder with every component unset (null, 0, false; no units). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this mapping's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .pattern(pattern)
                .cadence(cadence)
                .first(first)
                .units(units)
                .graceHours(graceHours)
                .lookbackDays(lookbackDays)
                .dependsOnPrevious(dependsOnPrevious)
                .autoRedrive(autoRedrive);
    }

    /** This mapping with {@code value} as its first expected unit, everything else kept. */
    public UnitSpec withFirst(String value) {
        return toBuilder().first(value).build();
    }

    /** This mapping with {@code value} as its auto-redrive setting, everything else kept. */
    public UnitSpec withAutoRedrive(boolean value) {
        return toBuilder().autoRedrive(value).build();
    }

    /** The unit a file name belongs to, or empty when the name does not match the contract's pattern. */
    public Optional<String> unitOf(String fileName) {
        Matcher matcher = pattern.matcher(fileName);
        return matcher.matches() ? Optional.of(matcher.group("unit")) : Optional.empty();
    }

    /**
     * The longest file-name prefix every file of {@code unit} starts with, read off the pattern: its literal text up
     * to the first regular-expression construct, followed by the unit itself when that construct is the unit group
     * ({@code progress-(?<unit>...)\.jsonl(\.gz)?} gives {@code progress-2026-03-01}). Lets one small listing find
     * every key of a unit; the caller still routes each listed key, since the prefix can match other files too.
     */
    public String fileNamePrefix(String unit) {
        String regex = pattern.pattern();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length() && !Character.isLetterOrDigit(regex.charAt(i + 1))) {
                literal.append(regex.charAt(++i)); // an escaped punctuation character stands for itself
            } else if (".[]{}()*+?^$|\\".indexOf(c) >= 0) {
                boolean unitGroup = regex.startsWith("(?<unit>", i);
                // a quantifier applies to the last literal character, which is then not certain to be there
                if ("*?{".indexOf(c) >= 0 && literal.length() > 0) {
                    literal.setLength(literal.length() - 1);
                }
                return unitGroup ? literal + unit : literal.toString();
            } else {
                literal.append(c);
            }
        }
        return literal.toString();
    }

    /** Names each component of a {@link UnitSpec}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private Pattern pattern;
        private Cadence cadence;
        private String first;
        private List<String> units = List.of();
        private int graceHours;
        private int lookbackDays;
        private boolean dependsOnPrevious;
        private boolean autoRedrive;

        private Builder() {
        }

        public Builder pattern(Pattern value) {
            this.pattern = value;
            return this;
        }

        public Builder cadence(Cadence value) {
            this.cadence = value;
            return this;
        }

        public Builder first(String value) {
            this.first = value;
            return this;
        }

        public Builder units(List<String> value) {
            this.units = value;
            return this;
        }

        public Builder graceHours(int value) {
            this.graceHours = value;
            return this;
        }

        public Builder lookbackDays(int value) {
            this.lookbackDays = value;
            return this;
        }

        public Builder dependsOnPrevious(boolean value) {
            this.dependsOnPrevious = value;
            return this;
        }

        public Builder autoRedrive(boolean value) {
            this.autoRedrive = value;
            return this;
        }

        /** The mapping; throws {@link IllegalStateException} naming the first required component left unset. */
        public UnitSpec build() {
            require(pattern, "pattern");
            require(cadence, "cadence");
            require(units, "units");
            return new UnitSpec(pattern, cadence, first, units, graceHours, lookbackDays, dependsOnPrevious,
                    autoRedrive);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("UnitSpec: " + component + " is required");
            }
        }
    }
}
