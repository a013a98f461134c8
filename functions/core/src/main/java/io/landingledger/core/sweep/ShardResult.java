package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.List;

/**
 * What one shard did, as written to {@code _reports/sweeps/<sweep-id>/shards/<nnnnn>.json}: the figures of each
 * dataset it swept, and each dataset it did not (a fault, or no time left), with why. A shard whose every attempt
 * failed writes one too, on its last attempt ({@link #failed}), so the assembler can name it.
 *
 * @param attempt how many times the shard was handed out when this was written (SQS's receive count; 1 in process)
 */
@JsonPropertyOrder({"sweep_id", "index", "started_at", "finished_at", "attempt", "finished", "swept", "unswept"})
@JsonIgnoreProperties(value = "finished", allowGetters = true)
public record ShardResult(@JsonProperty("sweep_id") String sweepId, int index, @JsonProperty("started_at") Instant startedAt,
                          @JsonProperty("finished_at") Instant finishedAt, int attempt, List<DatasetFigures> swept, List<Unswept> unswept) {
    /** Why a dataset of the shard has no figures: {@code FAILED} (its sweep threw) or {@code OUT_OF_TIME}. */
    public record Unswept(String dataset, String reason, String error) {
    }

    public ShardResult {
        swept = swept == null ? List.of() : List.copyOf(swept);
        unswept = unswept == null ? List.of() : List.copyOf(unswept);
        attempt = attempt == 0 ? 1 : attempt; // written before attempts were counted: the first
    }

    /** A shard none of whose datasets was swept (every attempt failed): {@code error} says why. */
    public static ShardResult failed(String sweepId, SweepShard shard, Instant at, int attempt, String error) {
        return new ShardResult(sweepId, shard.index(), at, at, attempt, List.of(),
                shard.datasets().stream().map(d -> new Unswept(d, "SHARD_FAILED", error)).toList());
    }

    @JsonProperty("finished")
    public boolean finished() {
        return unswept.isEmpty();
    }
}
