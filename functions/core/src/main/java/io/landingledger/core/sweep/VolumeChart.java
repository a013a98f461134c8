package io.landingledger.core.sweep;

import io.landingledger.core.volume.VolumeCheck;

import java.util.List;
import java.util.Locale;

/**
 * The sweep report's chart of each unit's accepted rows against its expected band (docs/design.md section 5,
 * "Volume"): one bar per published unit in unit order, the band drawn behind it, a suspect unit's bar red with a
 * marker and its figures above it, an accepted one amber. Inline SVG: no script, no external resource. A truncated day
 * among sixty normal ones is a short red bar under a grey band, seen at a glance.
 */
final class VolumeChart {
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 240;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 34;
    private static final int BOTTOM = 28;

    private VolumeChart() {
    }

    static void render(StringBuilder html, DatasetReport report) {
        List<UnitReport> units = report.units().stream()
                .filter(u -> u.item() != null && u.item().published() != null).toList();
        long judged = units.stream().filter(u -> u.volume() != null).count();
        long suspect = report.units().stream().filter(u -> u.status() == UnitStatus.SUSPECT_VOLUME).count();
        html.append("<h2>Rows per unit against the expected band (").append(suspect).append(" suspect)</h2>\n");
        if (units.isEmpty()) {
            html.append("<p class=\"muted\">No unit of this range is published.</p>\n");
            return;
        }
        // the scale follows the rows, not the bands: a warm-up band (a factor of ten) would flatten every bar; a band
        // higher than the top is drawn to the top
        double max = 1;
        for (UnitReport unit : units) {
            max = Math.max(max, unit.item().published().accepted());
            if (unit.volume() != null) {
                max = Math.max(max, unit.volume().band().low());
            }
        }
        max *= 1.5;
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double step = plotWidth / units.size();
        double barWidth = Math.max(1, step * 0.7);
        StringBuilder svg = new StringBuilder(units.size() * 260 + 1024);
        svg.append("<svg class=\"volume\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"").append(SweepHtml.esc("accepted rows of " + units.size()
                        + " published units against their expected band; " + suspect + " suspect")).append("\">\n");
        // the axis: 0, half and the top, in rows
        for (double fraction : new double[] {0, 0.5, 1}) {
            double y = TOP + plotHeight * (1 - fraction);
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT)
                    .append("\" y1=\"").append(num(y)).append("\" y2=\"").append(num(y))
                    .append("\" stroke=\"#d0d7de\" stroke-width=\"1\"/>")
                    .append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(num(y + 4))
                    .append("\" text-anchor=\"end\" font-size=\"11\" fill=\"#57606a\">")
                    .append(Math.round(max * fraction))
                    .append("</text>\n");
        }
        for (int i = 0; i < units.size(); i++) {
            UnitReport unit = units.get(i);
            long rows = unit.item().published().accepted();
            VolumeCheck volume = unit.volume();
            double x = LEFT + i * step + (step - barWidth) / 2;
            if (volume != null) {
                double high = Math.min(max, volume.band().high());
                double yHigh = y(high, max, plotHeight);
                double yLow = y(volume.band().low(), max, plotHeight);
                svg.append("<rect class=\"band\" x=\"").append(num(LEFT + i * step))
                        .append("\" y=\"").append(num(yHigh)).append("\" width=\"").append(num(step))
                        .append("\" height=\"").append(num(Math.max(1, yLow - yHigh)))
                        .append("\" fill=\"#d8dee4\"/>");
            }
            boolean isSuspect = unit.flags().contains(UnitStatus.SUSPECT_VOLUME);
            boolean accepted = volume != null && volume.suspect() && !isSuspect;
            String fill = isSuspect ? "#d1242f" : accepted ? "#d4a72c" : volume == null ? "#8c959f" : "#2da44e";
            double yRows = y(rows, max, plotHeight);
            svg.append("<rect class=\"bar").append(isSuspect ? " suspect" : "")
                    .append("\" data-unit=\"").append(SweepHtml.esc(unit.unit()))
                    .append("\" x=\"").append(num(x)).append("\" y=\"").append(num(yRows))
                    .append("\" width=\"").append(num(barWidth))
                    .append("\" height=\"").append(num(Math.max(1, TOP + plotHeight - yRows)))
                    .append("\" fill=\"").append(fill)
                    .append("\"><title>").append(SweepHtml.esc(unit.unit() + ": " + rows + " rows"
                            + (volume == null ? " (no expected band yet)" : "; expected " + volume.band().range()
                            + (accepted ? "; accepted by an operator" : ""))))
                    .append("</title></rect>\n");
            if (isSuspect) {
                double centre = x + barWidth / 2;
                double top = Math.min(yRows, volume == null ? yRows : y(volume.band().low(), max, plotHeight)) - 4;
                String anchor = centre > WIDTH - 220 ? "end" : centre < LEFT + 160 ? "start" : "middle";
                svg.append("<g class=\"mark\" data-unit=\"").append(SweepHtml.esc(unit.unit())).append("\">")
                        .append("<path d=\"M").append(num(centre - 6)).append(' ').append(num(top - 10)).append(" L")
                        .append(num(centre + 6)).append(' ').append(num(top - 10))
                        .append(" L").append(num(centre)).append(' ')
                        .append(num(top)).append(" Z\" fill=\"#d1242f\"/>")
                        .append("<text x=\"").append(num(centre)).append("\" y=\"").append(num(Math.max(12, top - 14)))
                        .append("\" text-anchor=\"").append(anchor)
                        .append("\" font-size=\"12\" font-weight=\"700\" fill=\"#a40e26\"")
                        .append(" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">")
                        .append(SweepHtml.esc(unit.unit() + ": " + rows + " rows, expected "
                                + (volume == null ? "?" : volume.band().range())))
                        .append("</text></g>\n");
            }
        }
        // the first and last unit under the axis
        svg.append("<text x=\"").append(LEFT).append("\" y=\"").append(HEIGHT - 8)
                .append("\" font-size=\"11\" fill=\"#57606a\">")
                .append(SweepHtml.esc(units.get(0).unit())).append("</text>")
                .append("<text x=\"").append(WIDTH - RIGHT).append("\" y=\"").append(HEIGHT - 8)
                .append("\" text-anchor=\"end\" font-size=\"11\" fill=\"#57606a\">")
                .append(SweepHtml.esc(units.get(units.size() - 1).unit())).append("</text>\n</svg>\n");
        html.append(svg);
        html.append("<p class=\"muted\">Bars: each published unit's accepted rows (green within its band,")
                .append(" <b>red</b> outside it: SUSPECT_VOLUME, amber: outside but accepted by an operator, grey: no")
                .append(" band yet). Grey behind: the rows expected from the dataset's own history (the same")
                .append(" weekday's or hour's median) and the contract's")
                .append(" <code>volume</code>. ").append(judged).append(" of ").append(units.size())
                .append(" published units had a band.</p>\n");
    }

    private static double y(double rows, double max, double plotHeight) {
        return TOP + plotHeight * (1 - Math.min(rows, max) / max);
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
