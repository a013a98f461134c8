package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;


/**
 * One shard handed to a worker: the message body on the shard queue (a few KB: dataset names, never a unit's
 * evidence, far below SQS's 256 KB, written and read with JsonCodec), or the argument of an in-process call.
 */
public record ShardTask(@JsonProperty("sweep_id") String sweepId, String from, String to, SweepShard shard) {
    public static ShardTask of(SweepPlan plan, SweepShard shard) {
        return new ShardTask(plan.sweepId(), plan.from(), plan.to(), shard);
    }
}
