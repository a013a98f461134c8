package io.landingledger.cli.ops;

import io.landingledger.cli.stack.RemoteRepair;
import io.landingledger.core.repair.RepairResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A repair job's pages as the commands read them, the same whether the job ran in process (a {@link RepairResult} per
 * page) or in the deployed repair function (its answers, which are {@link RepairResult#toMap()}): each page's map, the
 * units of every page as {@link RepairResult.UnitResult} (the page map carries all of a unit's fields:
 * {@link RepairResult.UnitResult#toMap()}), and whether the job succeeded.
 *
 * @param pages     each page as RepairResult.toMap (with its {@code table})
 * @param succeeded every unit of every page succeeded (or, for a dry run, was planned) and the last page left nothing unreached
 */
record RepairPages(List<Map<String, Object>> pages, List<RepairResult.UnitResult> units, boolean succeeded) {
    RepairPages {
        pages = List.copyOf(pages);
        units = List.copyOf(units);
    }

    static RepairPages local(List<RepairResult> results) {
        List<RepairResult.UnitResult> units = new ArrayList<>();
        results.forEach(r -> units.addAll(r.units()));
        return new RepairPages(results.stream().map(RepairResult::toMap).toList(), units, results.stream().allMatch(RepairResult::succeeded));
    }

    static RepairPages remote(RemoteRepair.Result result) {
        List<RepairResult.UnitResult> units = result.units().stream().map(RepairPages::unit).toList();
        List<Map<String, Object>> pages = result.pages();
        boolean succeeded = !pages.isEmpty() && Boolean.TRUE.equals(pages.get(pages.size() - 1).get("succeeded"))
                && units.stream().allMatch(RepairResult.UnitResult::succeeded);
        return new RepairPages(pages, units, succeeded);
    }

    /** Every page's table, one after the other. */
    String table() {
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> page : pages) {
            if (page.get("table") != null) {
                text.append(page.get("table"));
            }
        }
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    static RepairResult.UnitResult unit(Map<String, Object> map) {
        return new RepairResult.UnitResult((String) map.get("unit"), (Map<String, Object>) map.get("before"),
                (Map<String, Object>) map.get("after"), (String) map.get("action"), (String) map.get("detail"), (String) map.get("expect"),
                (Map<String, Object>) map.get("input"), (String) map.get("output"), (Map<String, Object>) map.get("counts"));
    }
}
