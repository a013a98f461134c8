package io.landingledger.cli.ops;

import io.landingledger.cli.stack.RemoteRepair;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.repair.RepairResult;

import java.util.List;
import java.util.Map;

/**
 * A repair job's pages as the commands read them, the same whether the job ran in process or in the deployed repair
 * function (whose answers are read back as {@link RepairResult} by the codec the function writes them with).
 *
 * @param pages each page's result, in order
 */
record RepairPages(List<RepairResult> pages) {
    RepairPages {
        pages = List.copyOf(pages);
    }

    static RepairPages remote(RemoteRepair.Result result) {
        return new RepairPages(result.pages());
    }

    /** The units of every page, in order. */
    List<RepairResult.UnitResult> units() {
        return pages.stream().flatMap(page -> page.units().stream()).toList();
    }

    /** Every unit of every page succeeded (or, for a dry run, was planned) and the last page left nothing unreached. */
    boolean succeeded() {
        return !pages.isEmpty() && pages.get(pages.size() - 1).succeeded() && units().stream().allMatch(RepairResult.UnitResult::succeeded);
    }

    /** Every page as the function answers it (the {@code --json} documents show them so). */
    List<Map<String, Object>> documents() {
        return pages.stream().map(JsonCodec::fields).toList();
    }

    /** Every page's table, one after the other. */
    String table() {
        StringBuilder text = new StringBuilder();
        pages.forEach(page -> text.append(page.table()));
        return text.toString();
    }
}
