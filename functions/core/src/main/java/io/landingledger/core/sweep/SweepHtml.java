package io.landingledger.core.sweep;

import io.landingledger.core.ledger.LedgerItem;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sweep report as one self-contained HTML page: inline CSS, no script, no external resource (it renders from
 * {@code file://} or S3 with no network). Read at a glance: the verdict, counts per status (the legend), a grid of
 * units coloured by status (daily: a calendar per month; hourly: a row per day with 24 hours; list: a row of
 * cells), each unit's rows against its expected band ({@link VolumeChart}), the units that need attention with their reasons, the re-drives, and per-unit freshness. Names, codes,
 * counts and hashes only; every text is escaped.
 */
public final class SweepHtml {
    private SweepHtml() {
    }

    /** The order a person reads statuses in: OK, then the failures, worst first, then the ones that do not fail. */
    static final List<UnitStatus> DISPLAY_ORDER = List.of(UnitStatus.OK, UnitStatus.MISSING, UnitStatus.REFUSED,
            UnitStatus.SUSPECT_VOLUME, UnitStatus.UNPROCESSED, UnitStatus.LEDGER_DRIFT, UnitStatus.TABLE_BEHIND, UnitStatus.EMPTY,
            UnitStatus.RESTATED,
            UnitStatus.EMPTY_ACCEPTED, UnitStatus.PENDING, UnitStatus.OMITTED);

    /** Short labels for grid cells, so a status is readable without colour. */
    static String abbreviation(UnitStatus status) {
        return switch (status) {
            case OK -> "";
            case PENDING -> "PND";
            case MISSING -> "MIS";
            case UNPROCESSED -> "UNP";
            case REFUSED -> "REF";
            case SUSPECT_VOLUME -> "VOL";
            case EMPTY -> "EMP";
            case EMPTY_ACCEPTED -> "EMA";
            case RESTATED -> "RST";
            case LEDGER_DRIFT -> "LDR";
            case TABLE_BEHIND -> "TBH";
            case OMITTED -> "OMT";
        };
    }

    private static final String CSS = """
            :root { color-scheme: light; }
            * { box-sizing: border-box; }
            body { font: 14px/1.45 system-ui, "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1f2328;
                   background: #fff; margin: 20px 32px 40px; }
            h1 { font-size: 24px; margin: 0 0 8px; }
            h1 .sub { font-weight: 400; color: #57606a; }
            h2 { font-size: 17px; margin: 26px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
            .verdict { display: inline-block; padding: 6px 12px; border-radius: 6px; font-weight: 700; font-size: 15px; }
            .verdict.good { background: #dafbe1; color: #116329; border: 1px solid #4ac26b; }
            .verdict.bad { background: #ffebe9; color: #a40e26; border: 1px solid #ff8182; }
            .facts { display: flex; flex-wrap: wrap; gap: 4px 26px; margin: 10px 0 0; color: #57606a; }
            .facts b { color: #1f2328; font-weight: 600; }
            .counts { display: flex; flex-wrap: wrap; gap: 8px; }
            .count { display: flex; align-items: center; gap: 8px; border: 1px solid #d0d7de; border-radius: 6px;
                     padding: 5px 10px; min-width: 150px; }
            .count .n { font-size: 20px; font-weight: 700; margin-left: auto; font-variant-numeric: tabular-nums; }
            .count .ab { color: #57606a; font-size: 11px; }
            .count.zero { opacity: .45; }
            .sw { width: 18px; height: 18px; border-radius: 4px; display: inline-block; flex: none; }
            .months { display: flex; flex-wrap: wrap; gap: 14px 22px; align-items: flex-start; }
            table.month, table.hours { border-collapse: separate; border-spacing: 3px; }
            table.month caption { font-weight: 600; text-align: left; padding: 0 3px 2px; }
            table.month th, table.hours th { font-size: 11px; color: #57606a; font-weight: 500; }
            table.hours th.day { text-align: right; padding-right: 6px; white-space: nowrap; }
            td.u { width: 42px; height: 36px; text-align: center; vertical-align: middle; border-radius: 4px;
                   font-size: 12px; line-height: 1.05; }
            table.hours td.u { width: 30px; height: 24px; font-size: 9px; }
            td.u .d { font-weight: 600; display: block; }
            td.u .a, .cell .a { font-size: 9.5px; font-weight: 700; letter-spacing: .3px; display: block; }
            td.out { background: #f6f8fa; color: #afb8c1; }
            td.none { background: transparent; }
            .cells { display: flex; flex-wrap: wrap; gap: 4px; }
            .cell { min-width: 90px; padding: 6px 8px; border-radius: 4px; font-size: 12px; text-align: center; }
            .chip { display: inline-block; padding: 1px 7px; border-radius: 10px; font-size: 11.5px; font-weight: 700;
                    white-space: nowrap; }
            .also { color: #57606a; font-size: 11.5px; display: block; margin-top: 2px; }
            table.data { border-collapse: collapse; width: 100%; font-size: 13px; }
            table.data th { text-align: left; background: #f6f8fa; font-weight: 600; color: #424a53; }
            table.data th, table.data td { border-bottom: 1px solid #eaeef2; padding: 5px 8px; vertical-align: top; }
            table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td.detail { color: #424a53; overflow-wrap: anywhere; min-width: 440px; max-width: 640px; }
            code { font: 12px ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; }
            table.data td:first-child, .nw { white-space: nowrap; }
            .late { color: #a40e26; font-weight: 600; }
            .muted { color: #6e7781; }
            details summary { cursor: pointer; color: #0969da; margin: 6px 0; }
            footer { margin-top: 30px; color: #6e7781; font-size: 12px; }
            .s-ok { background: #2da44e; color: #fff; }
            .s-pending { background: #e6e9ed; color: #424a53; box-shadow: inset 0 0 0 1px #afb8c1; }
            .s-missing { background: #d1242f; color: #fff; }
            .s-unprocessed { background: #e16f24; color: #fff; }
            .s-refused { background: #8250df; color: #fff; }
            .s-suspect_volume { background: #bf3989; color: #fff; }
            .s-empty { background: #f2cc00; color: #1f2328; }
            .s-empty_accepted { background: #fff8c5; color: #1f2328; }
            .s-restated { background: #0969da; color: #fff; }
            .s-input_drift { background: #8a5a33; color: #fff; }
            .s-ledger_drift { background: #1f2328; color: #fff; }
            .s-omitted { background: repeating-linear-gradient(135deg, #d0d7de 0 5px, #eaeef2 5px 10px); color: #424a53; }
            """;

    public static String render(DatasetReport report) {
        StringBuilder html = new StringBuilder(32_768);
        String title = report.dataset() + " completeness " + report.asOf();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        header(html, report);
        counts(html, report);
        grid(html, report);
        VolumeChart.render(html, report);
        attention(html, report);
        invalidUnits(html, report);
        redrives(html, report);
        consumersBehind(html, report);
        freshness(html, report);
        html.append("<footer>Completeness sweep of <code>").append(esc(report.dataset())).append("</code> as of ")
                .append(esc(report.asOf().toString()));
        if (report.reports() != null) {
            html.append(" &middot; JSON: <code>").append(esc(report.reports().json())).append("</code>");
        }
        html.append(" &middot; names, codes, counts and hashes only: this page never holds row content.</footer>\n");
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void header(StringBuilder html, DatasetReport report) {
        html.append("<header>\n<h1>").append(esc(report.dataset())).append(" <span class=\"sub\">completeness</span></h1>\n");
        long failing = report.units().stream().filter(u -> u.status().failsCompleteness()).count();
        if (report.complete()) {
            html.append("<div class=\"verdict good\">COMPLETE &middot; all ").append(report.units().size())
                    .append(" expected units are OK, pending or omitted</div>\n");
        } else {
            html.append("<div class=\"verdict bad\">INCOMPLETE &middot; ").append(failing).append(" of ").append(report.units().size())
                    .append(" expected units need attention");
            if (report.openInvalidUnits() > 0) {
                html.append(", and ").append(report.openInvalidUnits()).append(" ledger item(s) that are not units");
            }
            html.append("</div>\n");
        }
        html.append("<div class=\"facts\">");
        fact(html, "as of", report.asOf().toString());
        fact(html, "units", (report.from() == null ? "all listed" : report.from() + " \u2192 " + report.to()));
        fact(html, "cadence", report.cadence().name().toLowerCase(Locale.ROOT));
        fact(html, "expected", Integer.toString(report.units().size()));
        fact(html, "auto re-drive", report.autoRedrive() ? "on" : "off");
        fact(html, "re-driven", Integer.toString(report.redrives().size()));
        fact(html, "oldest unpublished", report.oldestUnpublishedAgeSeconds() == 0 ? "none"
                : duration(report.oldestUnpublishedAgeSeconds()));
        if (report.unroutableInbox() > 0) {
            fact(html, "unroutable inbox objects", Integer.toString(report.unroutableInbox()));
        }
        if (!report.invalidUnits().isEmpty()) {
            fact(html, "ledger items that are not units", Integer.toString(report.invalidUnits().size()));
        }
        html.append("</div>\n</header>\n");
    }

    private static void fact(StringBuilder html, String name, String value) {
        html.append("<span>").append(esc(name)).append(" <b>").append(esc(value)).append("</b></span>");
    }

    private static void counts(StringBuilder html, DatasetReport report) {
        html.append("<h2>Units per status</h2>\n<div class=\"counts\">\n");
        Map<UnitStatus, Integer> counts = report.counts();
        for (UnitStatus status : DISPLAY_ORDER) {
            int count = counts.get(status);
            html.append("<div class=\"count").append(count == 0 ? " zero" : "").append("\">")
                    .append("<span class=\"sw s-").append(status.lowerCase()).append("\"></span><span>").append(status.name());
            if (!abbreviation(status).isEmpty()) {
                html.append(" <span class=\"ab\">").append(abbreviation(status)).append("</span>");
            }
            html.append("</span><span class=\"n\">").append(count).append("</span></div>\n");
        }
        html.append("</div>\n");
    }

    private static void grid(StringBuilder html, DatasetReport report) {
        if (report.units().isEmpty()) {
            html.append("<h2>Units</h2>\n<p class=\"muted\">No unit is expected in this range.</p>\n");
            return;
        }
        switch (report.cadence()) {
            case DAILY -> daily(html, report);
            case HOURLY -> hourly(html, report);
            case LIST -> list(html, report);
        }
    }

    private static String tooltip(UnitReport unit) {
        return unit.unit() + " \u2014 " + unit.status().name() + (unit.reason() == null ? "" : " \u2014 " + unit.reason());
    }

    private static void daily(StringBuilder html, DatasetReport report) {
        html.append("<h2>Units by day</h2>\n<div class=\"months\">\n");
        Map<YearMonth, Map<Integer, UnitReport>> months = new TreeMap<>();
        for (UnitReport unit : report.units()) {
            LocalDate day = LocalDate.parse(unit.unit());
            months.computeIfAbsent(YearMonth.from(day), m -> new TreeMap<>()).put(day.getDayOfMonth(), unit);
        }
        for (Map.Entry<YearMonth, Map<Integer, UnitReport>> month : months.entrySet()) {
            YearMonth ym = month.getKey();
            html.append("<table class=\"month\"><caption>")
                    .append(esc(ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + ym.getYear()))
                    .append("</caption>\n<tr>");
            for (DayOfWeek dow : DayOfWeek.values()) {
                html.append("<th>").append(dow.getDisplayName(TextStyle.SHORT, Locale.ENGLISH), 0, 2).append("</th>");
            }
            html.append("</tr>\n<tr>");
            int column = ym.atDay(1).getDayOfWeek().getValue() - 1;
            for (int i = 0; i < column; i++) {
                html.append("<td class=\"none\"></td>");
            }
            for (int day = 1; day <= ym.lengthOfMonth(); day++) {
                UnitReport unit = month.getValue().get(day);
                if (unit == null) {
                    html.append("<td class=\"u out\"><span class=\"d\">").append(day).append("</span></td>");
                } else {
                    html.append("<td class=\"u s-").append(unit.status().lowerCase()).append("\" title=\"").append(esc(tooltip(unit)))
                            .append("\"><span class=\"d\">").append(day).append("</span>");
                    String ab = abbreviation(unit.status());
                    if (!ab.isEmpty()) {
                        html.append("<span class=\"a\">").append(ab).append("</span>");
                    }
                    html.append("</td>");
                }
                column++;
                if (column == 7 && day < ym.lengthOfMonth()) {
                    html.append("</tr>\n<tr>");
                    column = 0;
                }
            }
            html.append("</tr>\n</table>\n");
        }
        html.append("</div>\n");
    }

    private static void hourly(StringBuilder html, DatasetReport report) {
        html.append("<h2>Units by hour (UTC)</h2>\n<table class=\"hours\">\n<tr><th></th>");
        for (int hour = 0; hour < 24; hour++) {
            html.append("<th>").append(hour < 10 ? "0" : "").append(hour).append("</th>");
        }
        html.append("</tr>\n");
        Map<String, UnitReport[]> days = new TreeMap<>();
        for (UnitReport unit : report.units()) {
            String day = unit.unit().substring(0, 10);
            int hour = Integer.parseInt(unit.unit().substring(11, 13));
            days.computeIfAbsent(day, d -> new UnitReport[24])[hour] = unit;
        }
        for (Map.Entry<String, UnitReport[]> day : days.entrySet()) {
            html.append("<tr><th class=\"day\">").append(esc(day.getKey())).append("</th>");
            for (UnitReport unit : day.getValue()) {
                if (unit == null) {
                    html.append("<td class=\"u out\"></td>");
                } else {
                    html.append("<td class=\"u s-").append(unit.status().lowerCase()).append("\" title=\"").append(esc(tooltip(unit)))
                            .append("\"><span class=\"a\">").append(abbreviation(unit.status())).append("</span></td>");
                }
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    private static void list(StringBuilder html, DatasetReport report) {
        html.append("<h2>Units</h2>\n<div class=\"cells\">\n");
        for (UnitReport unit : report.units()) {
            html.append("<div class=\"cell s-").append(unit.status().lowerCase()).append("\" title=\"").append(esc(tooltip(unit)))
                    .append("\">").append(esc(unit.unit()));
            String ab = abbreviation(unit.status());
            if (!ab.isEmpty()) {
                html.append("<span class=\"a\">").append(ab).append("</span>");
            }
            html.append("</div>\n");
        }
        html.append("</div>\n");
    }

    private static void attention(StringBuilder html, DatasetReport report) {
        List<UnitReport> units = new ArrayList<>(report.notOk());
        units.sort(Comparator.comparing((UnitReport u) -> DISPLAY_ORDER.indexOf(u.status())).thenComparing(UnitReport::unit));
        html.append("<h2>Units that are not OK (").append(units.size()).append(")</h2>\n");
        if (units.isEmpty()) {
            html.append("<p class=\"muted\">Every expected unit is OK.</p>\n");
            return;
        }
        html.append("<table class=\"data\">\n<tr><th>unit</th><th>status</th><th>reason</th><th>detail</th>")
                .append("<th class=\"num\" title=\"rows published (and lines rejected)\">rows</th>")
                .append("<th class=\"num\" title=\"first publish minus the deadline\">lateness</th>")
                .append("<th class=\"num\" title=\"how long the unit has waited for a publish\">owed for</th><th>re-drive</th></tr>\n");
        for (UnitReport unit : units) {
            html.append("<tr><td><code>").append(esc(unit.unit())).append("</code></td><td>").append(chip(unit.status()));
            List<UnitStatus> also = unit.flags().stream().filter(f -> f != unit.status()).toList();
            if (!also.isEmpty()) {
                html.append("<span class=\"also\">also ").append(esc(String.join(", ", also.stream().map(Enum::name).toList())))
                        .append("</span>");
            }
            html.append("</td><td><code>").append(esc(unit.reason())).append("</code></td><td class=\"detail\">")
                    .append(esc(unit.detail())).append("</td>");
            rows(html, unit.item());
            html.append("<td class=\"num\">").append(lateness(unit.publishedAfterDeadlineSeconds())).append("</td>")
                    .append("<td class=\"num\">").append(unit.unpublishedAgeSeconds() == null ? "" : esc(duration(unit.unpublishedAgeSeconds())))
                    .append("</td><td>");
            if (unit.redrive() != null) {
                html.append("<span class=\"nw\">").append(esc(unit.redrive().action())).append(" \u2192 ")
                        .append(chip(unit.redrive().statusAfter())).append("</span>");
            }
            html.append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    /** Ledger items whose unit the cadence cannot name ({@link InvalidUnit}): listed apart, with their omission. */
    private static void invalidUnits(StringBuilder html, DatasetReport report) {
        if (report.invalidUnits().isEmpty()) {
            return;
        }
        html.append("<h2>Ledger items that are not units (").append(report.invalidUnits().size()).append(")</h2>\n")
                .append("<p class=\"muted\">Recorded before routing refused such file names as ")
                .append("<code>UNIT_INVALID</code>: ")
                .append("no range holds them, so they are listed here, apart from the expected units.</p>\n")
                .append("<table class=\"data\">\n<tr><th>unit</th><th>status</th><th>reason</th><th>detail</th>")
                .append("<th class=\"num\">publishes</th></tr>\n");
        for (InvalidUnit unit : report.invalidUnits()) {
            html.append("<tr><td><code>").append(esc(unit.unit())).append("</code></td><td><b>")
                    .append(esc(unit.status())).append("</b></td><td><code>").append(esc(unit.reason()))
                    .append("</code></td><td class=\"detail\">").append(esc(unit.detail()))
                    .append("</td><td class=\"num\">").append(unit.publishCount()).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void rows(StringBuilder html, LedgerItem item) {
        html.append("<td class=\"num\">");
        if (item != null && item.published() != null) {
            html.append(item.published().accepted());
            if (item.published().rejected() > 0) {
                html.append("<br><span class=\"muted\">").append(item.published().rejected()).append(" rejected</span>");
            }
        }
        html.append("</td>");
    }

    private static void redrives(StringBuilder html, DatasetReport report) {
        html.append("<h2>Re-drives (").append(report.redrives().size()).append(")</h2>\n");
        if (report.redrives().isEmpty()) {
            html.append("<p class=\"muted\">").append(report.autoRedrive()
                    ? "No unprocessed input: nothing was re-driven."
                    : "Auto re-drive is off for this dataset: unprocessed inputs are reported, not re-driven.").append("</p>\n");
            return;
        }
        html.append("<table class=\"data\">\n<tr><th>unit</th><th>input</th><th>version</th><th>action</th><th>refusal / detail</th>")
                .append("<th>before \u2192 after</th><th>run id</th></tr>\n");
        for (Redrive redrive : report.redrives()) {
            html.append("<tr><td><code>").append(esc(redrive.unit())).append("</code></td><td><code>").append(esc(redrive.key()))
                    .append("</code></td><td><code>").append(esc(redrive.versionId())).append("</code></td><td><b>")
                    .append(esc(redrive.action())).append("</b></td><td class=\"detail\">");
            if (redrive.refusal() != null) {
                html.append("<code>").append(esc(redrive.refusal())).append("</code> ");
            }
            html.append(esc(redrive.detail())).append("</td><td class=\"nw\">").append(chip(redrive.statusBefore())).append(" \u2192 ")
                    .append(chip(redrive.statusAfter())).append("</td><td><code>").append(esc(redrive.runId())).append("</code></td></tr>\n");
        }
        html.append("</table>\n");
        if (report.redrives().stream().anyMatch(r -> Redrive.SUBMITTED.equals(r.action()) || Redrive.NOT_SUBMITTED.equals(r.action()))) {
            html.append("<p class=\"muted\"><b>").append(Redrive.SUBMITTED).append("</b>: handed to the validator function, ")
                    .append("which runs it after this sweep; the next sweep reads the result from the ledger. <b>")
                    .append(Redrive.NOT_SUBMITTED).append("</b>: the hand-over failed (the reason is shown) and was not retried; ")
                    .append("the next sweep re-drives the unit if it is still unprocessed.</p>\n");
        }
        if (report.redrives().stream().anyMatch(Redrive::toTable)) {
            html.append("<p class=\"muted\">A re-drive to the <b>table</b> queue asks the table writer to commit the ")
                    .append("standing publish to the dataset's table; the unit closes when the writer records the snapshot ")
                    .append("on the ledger, which the next sweep reads.</p>\n");
        }
    }

    private static void consumersBehind(StringBuilder html, DatasetReport report) {
        Map<String, List<String>> behind = report.consumersBehind();
        html.append("<h2>Consumers behind (").append(behind.size()).append(")</h2>\n");
        if (behind.isEmpty()) {
            html.append("<p class=\"muted\">Every consumer receipt of this range names the unit's current publish.</p>\n");
            return;
        }
        html.append("<table class=\"data\">\n<tr><th>consumer</th><th>units whose current publish it has not read</th></tr>\n");
        behind.forEach((consumer, units) -> {
            html.append("<tr><td><code>").append(esc(consumer)).append("</code></td><td>");
            for (String unit : units) {
                html.append("<code>").append(esc(unit)).append("</code> ");
            }
            html.append("</td></tr>\n");
        });
        html.append("</table>\n<p class=\"muted\">A consumer is behind when its receipt names an earlier publish (run id or ETag) ")
                .append("than the ledger's current one, e.g. after a restatement or repair: it must read the unit again ")
                .append("(<code>landing ack</code> or a UnitConsumed event records that it did).</p>\n");
    }

    private static void freshness(StringBuilder html, DatasetReport report) {
        html.append("<h2>Freshness</h2>\n");
        List<Long> ages = report.units().stream().map(UnitReport::ageSeconds).filter(a -> a != null).sorted().toList();
        List<Long> late = report.units().stream().map(UnitReport::publishedAfterDeadlineSeconds).filter(l -> l != null && l > 0)
                .sorted().toList();
        html.append("<div class=\"facts\">");
        if (ages.isEmpty()) {
            fact(html, "published units", "none");
        } else {
            fact(html, "published units", Integer.toString(ages.size()));
            fact(html, "newest publish", duration(ages.get(0)) + " ago");
            fact(html, "median age", duration(ages.get(ages.size() / 2)));
            fact(html, "oldest publish", duration(ages.get(ages.size() - 1)) + " ago");
        }
        fact(html, "first published after the deadline",
                late.size() + (late.isEmpty() ? "" : ", worst by " + duration(late.get(late.size() - 1))));
        html.append("</div>\n<details><summary>Every unit: status, age, lateness, rows, input (")
                .append(report.units().size()).append(")</summary>\n<table class=\"data\">\n")
                .append("<tr><th>unit</th><th>status</th><th class=\"num\">age</th>")
                .append("<th class=\"num\" title=\"first publish minus the deadline\">lateness</th>")
                .append("<th class=\"num\">rows</th><th class=\"num\">publishes</th><th>input</th><th>input sha256</th></tr>\n");
        for (UnitReport unit : report.units()) {
            LedgerItem item = unit.item();
            html.append("<tr><td><code>").append(esc(unit.unit())).append("</code></td><td>").append(chip(unit.status())).append("</td>")
                    .append("<td class=\"num\">").append(unit.ageSeconds() == null ? "" : esc(duration(unit.ageSeconds()))).append("</td>")
                    .append("<td class=\"num\">").append(lateness(unit.publishedAfterDeadlineSeconds())).append("</td>");
            rows(html, item);
            html.append("<td class=\"num\">").append(item == null ? "" : item.publishCount()).append("</td><td><code>")
                    .append(item == null || item.input() == null ? "" : esc(item.input().key())).append("</code></td><td><code>")
                    .append(item == null || item.input() == null || item.input().sha256() == null ? ""
                            : esc(item.input().sha256().substring(0, Math.min(16, item.input().sha256().length()))))
                    .append("</code></td></tr>\n");
        }
        html.append("</table>\n</details>\n");
    }

    private static String chip(UnitStatus status) {
        if (status == null) {
            return "";
        }
        return "<span class=\"chip s-" + status.lowerCase() + "\">" + status.name() + "</span>";
    }

    private static String lateness(Long seconds) {
        if (seconds == null) {
            return "";
        }
        if (seconds <= 0) {
            return "<span class=\"muted\">on time</span>";
        }
        return "<span class=\"late\">" + esc(duration(seconds)) + " late</span>";
    }

    /** 45s, 12m, 3h 5m, 2d 4h. */
    static String duration(long seconds) {
        long s = Math.abs(seconds);
        String text;
        if (s < 60) {
            text = s + "s";
        } else if (s < 3600) {
            text = (s / 60) + "m";
        } else if (s < 86_400) {
            long m = (s % 3600) / 60;
            text = (s / 3600) + "h" + (m == 0 ? "" : " " + m + "m");
        } else {
            long h = (s % 86_400) / 3600;
            text = (s / 86_400) + "d" + (h == 0 ? "" : " " + h + "h");
        }
        return seconds < 0 ? "-" + text : text;
    }

    /** Escapes text for HTML element content and double- or single-quoted attributes. */
    static String esc(Object value) {
        if (value == null) {
            return "";
        }
        String text = value.toString();
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        out.append("&#xFFFD;");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
