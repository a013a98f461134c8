package io.landingledger.core.sweep;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTML page: escaped, script-free, one grid per cadence. */
class SweepHtmlTest {
    private static final Instant NOW = Instant.parse("2026-03-10T00:00:00Z");

    private static UnitReport unit(String unit, LedgerItem item) {
        UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(unit, null, NOW, item, null, null);
        return UnitReport.of(evidence, UnitClassifier.classify(evidence));
    }

    private static LedgerItem omitted(String unit, String reason) {
        return LedgerItem.builder("tenants", unit)
                .status(LedgerStatus.OMITTED)
                .run("r", RunKind.OMIT)
                .contractVersion(1)
                .lastAttempt(LastAttempt.omitted(NOW, "r", reason))
                .reason(reason)
                .build();
    }

    @Test
    void render_escapesEveryText_andRunsNoScript() {
        String hostile = "<script>alert('x')</script> & \"quoted\"";
        DatasetReport report = new DatasetReport("tenants", Cadence.LIST, null, null, NOW, false,
                List.of(unit("acme<b>", omitted("acme<b>", hostile)), unit("globex", null)), List.of(), 0, null);
        String html = SweepHtml.render(report);
        assertFalse(html.toLowerCase(java.util.Locale.ROOT).contains("<script"), html);
        assertFalse(html.contains("acme<b>"));
        assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"));
        assertTrue(html.contains("INCOMPLETE"), "globex is missing");
    }

    @Test
    void render_hourly_isADayRowOf24Hours() {
        List<UnitReport> units = new java.util.ArrayList<>();
        for (int hour = 0; hour < 24; hour++) {
            units.add(unit(String.format("2026-03-02T%02d", hour), null));
        }
        String html = SweepHtml.render(new DatasetReport("clicks", Cadence.HOURLY, "2026-03-02T00", "2026-03-02T23", NOW, true, units,
                List.of(), 0, null));
        assertTrue(html.contains("<th class=\"day\">2026-03-02</th>"));
        assertEquals(24, html.split("class=\"u s-missing\"", -1).length - 1);
    }

    @Test
    void complete_ignoresPendingAndOmitted_metricsNameEveryStatus() {
        DatasetReport report = new DatasetReport("tenants", Cadence.LIST, null, null, NOW, false,
                List.of(unit("acme", omitted("acme", "left"))), List.of(), 0, null);
        assertTrue(report.complete());
        assertEquals(List.of("UnitsExpected", "UnitsOmitted", "UnitsLedgerDrift", "UnitsTableBehind", "UnitsUnprocessed", "UnitsRefused",
                "UnitsSuspectVolume", "UnitsEmpty", "UnitsEmptyAccepted", "UnitsRestated", "UnitsOk", "UnitsPending", "UnitsMissing", "UnitsRedriven", "OldestUnpublishedAgeSeconds", "UnitsBehindConsumers",
                "UnitsInvalid"),
                List.copyOf(report.metrics().keySet()));
        assertEquals("1d", SweepHtml.duration(86_400));
        assertEquals("3h 5m", SweepHtml.duration(11_100));
    }
}
