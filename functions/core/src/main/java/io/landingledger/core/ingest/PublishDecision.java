package io.landingledger.core.ingest;

import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.store.Precondition;

import java.util.Objects;

/**
 * The publish protocol's one decision (docs/design.md section 2, "The decision table"): from what a run has read, the
 * next thing it does. Pure: no I/O. {@link IngestService} reads the state, asks, does what it is told, and asks again
 * until the answer ends the run; every conditional write that fails sends it back to read the state again, so every
 * race is decided by this same table.
 *
 * <p>The rows, first match wins ("consistent": the published object is the one the ledger records, by run id and
 * ETag, or both say nothing is published):
 * <ol>
 *   <li>consistent, the ledger's publish was built from this very input version, no rebuild asked: {@link Skip}.</li>
 *   <li>consistent, the ledger already recorded this version's refusal, no rebuild asked: {@link Skip}.</li>
 *   <li>the unit's inbox versions are not listed yet: {@link ListInputs}.</li>
 *   <li>{@code published/} holds a publish the ledger does not record (a run died between promote and ledger write,
 *       or is about to write it), built from an input not older than the ledger's: {@link RecordPublished} it,
 *       whoever built it. Truth first: the ledger describes what readers read before anything else happens. Then
 *       row 2 again without "consistent": a recorded refusal is never recorded again, since a refused input can
 *       neither repair nor replace the standing publish.</li>
 *   <li>the inbox no longer holds this version: {@link Gone}.</li>
 *   <li>an S3 event or a re-drive of a version that is not the unit's newest input, or an operator's choice older
 *       than the input of the standing publish: {@link Stale}. Nothing is written.</li>
 *   <li>not validated yet: {@link Read}.</li>
 *   <li>refused: {@link RecordRefusal} (the standing publish, if any, stays).</li>
 *   <li>publishable with the same SHA-256 as the ledger's input, consistent, no rebuild asked:
 *       {@link RecordSameInput} (a new version of the same bytes: recorded as the unit's input, not republished).</li>
 *   <li>publishable: {@link Promote} under {@code If-None-Match: *} when nothing is published, else
 *       {@code If-Match} on the ETag just read.</li>
 * </ol>
 * After its promote the run finds its own publish unrecorded and row 4 records it; after its ledger write row 1 or 2
 * ends it.
 */
public final class PublishDecision {
    private PublishDecision() {
    }

    /** How the input to ingest was chosen, which decides what it must be newer than. */
    public enum Choice {
        /** An S3 event or the sweep's re-drive: only the unit's newest input is published or refused. */
        NEWEST,
        /** An operator's repair: the named version, unless it is older than the input of the standing publish. */
        OPERATOR
    }

    /** The published object as a HEAD shows it. */
    public record Published(String etag, PublishMetadata metadata) {
        /** Built by this protocol (it carries the run and input metadata). */
        boolean ours() {
            return metadata != null;
        }
    }

    /** What a validation of the candidate found. */
    public sealed interface Validation permits Publishable, Refused {
        String sha256();
    }

    /** The candidate validated; its accepted rows are staged. */
    public record Publishable(String sha256) implements Validation {
    }

    /** The candidate was refused. */
    public record Refused(String sha256, String code) implements Validation {
    }

    /**
     * What a run knows now.
     *
     * @param candidateKey     the inbox key to ingest
     * @param candidateVersion its version id (null: the key's current version)
     * @param choice           how it was chosen
     * @param rebuild          rebuild even when the input is unchanged (a forced repair that has not yet published or
     *                         refused in this run)
     * @param item             the ledger item, or null
     * @param published        the published object, or null when there is none
     * @param inputs           the unit's inbox versions, or null when not listed yet
     * @param validation       the candidate's validation, or null when not read yet
     */
    public record Facts(String candidateKey, String candidateVersion, Choice choice, boolean rebuild, LedgerItem item,
                        Published published, UnitInputs inputs, Validation validation) {
        public Facts {
            Objects.requireNonNull(candidateKey);
            Objects.requireNonNull(choice);
        }
    }

    /** The next step. */
    public sealed interface Decision permits Skip, ListInputs, RecordPublished, Gone, Stale, Read, RecordRefusal,
            RecordSameInput, Promote {
    }

    /** Nothing to do: the ledger and {@code published/} already say what this input makes them say. */
    public record Skip(String why) implements Decision {
    }

    /** List the unit's inbox versions (one ListObjectVersions under the unit's file-name prefix). */
    public record ListInputs() implements Decision {
    }

    /** Write the published object S3 holds into the ledger (a new publish: count, history). */
    public record RecordPublished(Published object) implements Decision {
    }

    /** The candidate version no longer exists: nothing to publish or refuse. */
    public record Gone() implements Decision {
    }

    /** The candidate is older than what it would replace: nothing is written. */
    public record Stale(String why) implements Decision {
    }

    /** Read, hash and validate the candidate, staging its accepted rows. */
    public record Read() implements Decision {
    }

    /** Record the candidate's refusal. */
    public record RecordRefusal() implements Decision {
    }

    /** Record the candidate as the unit's input: its bytes are the published input's. */
    public record RecordSameInput() implements Decision {
    }

    /** Promote the staged rows under this precondition. */
    public record Promote(Precondition precondition) implements Decision {
    }

    /** The table. */
    public static Decision decide(Facts f) {
        LedgerItem item = f.item();
        boolean ledgerPublished = item != null && item.published() != null;
        boolean recorded = ledgerPublished && f.published() != null && f.published().ours()
                && f.published().metadata().runId().equals(item.runId()) && f.published().etag().equals(item.publishedEtag());
        boolean consistent = ledgerPublished ? recorded : f.published() == null;

        // 1, 2: a replay of what the ledger already says, with published/ as the ledger says: write nothing
        if (!f.rebuild() && consistent && item != null) {
            if (item.status() == LedgerStatus.PUBLISHED && sameVersion(item.input(), f)) {
                return new Skip("already published from this input version");
            }
            String refused = recordedRefusal(item, f.candidateKey(), f.candidateVersion());
            if (refused != null) {
                return new Skip("this input version was already refused (" + refused + ")");
            }
        }
        // 3
        if (f.inputs() == null) {
            return new ListInputs();
        }
        UnitInputs inputs = f.inputs();
        // 4: truth first
        if (f.published() != null && f.published().ours() && !recorded) {
            PublishMetadata theirs = f.published().metadata();
            if (!ledgerPublished || inputs.compare(theirs.inputKey(), theirs.inputVersionId(), item.input().key(),
                    item.input().versionId()) >= 0) {
                return new RecordPublished(f.published());
            }
            // older than the ledger's publish: identical bytes promoted under If-Match by an older run (ETags cannot
            // tell two publishes of the same rows apart). The newest input's run replaces it below.
        }
        // 2 again, now that S3's publish is recorded: a refusal already recorded is not recorded again, whatever
        // published/ holds (a refused input can neither repair nor replace the standing publish)
        String refused = f.rebuild() ? null : recordedRefusal(item, f.candidateKey(), f.candidateVersion());
        if (refused != null) {
            return new Skip("this input version was already refused (" + refused + ")");
        }
        // 5
        if (!inputs.holds(f.candidateKey(), f.candidateVersion())) {
            return new Gone();
        }
        // 6
        if (f.choice() == Choice.NEWEST && !inputs.isNewest(f.candidateKey(), f.candidateVersion())) {
            return new Stale("a newer input of the unit is in the inbox: " + inputs.newest().map(v -> v.key() + " (version "
                    + v.versionId() + ")").orElse("(none)"));
        }
        if (f.choice() == Choice.OPERATOR && ledgerPublished
                && inputs.compare(f.candidateKey(), f.candidateVersion(), item.input().key(), item.input().versionId()) < 0) {
            return new Stale("older than the input of the standing publish, " + item.input().key() + " (version "
                    + item.input().versionId() + ")");
        }
        // 7, 8
        if (f.validation() == null) {
            return new Read();
        }
        if (f.validation() instanceof Refused) {
            return new RecordRefusal();
        }
        // 9
        if (!f.rebuild() && consistent && ledgerPublished && item.status() == LedgerStatus.PUBLISHED
                && f.validation().sha256().equals(item.input().sha256())) {
            return new RecordSameInput();
        }
        // 10
        return new Promote(f.published() == null ? Precondition.none() : Precondition.match(f.published().etag()));
    }

    private static boolean sameVersion(InputIdentity input, Facts f) {
        return input != null && input.key().equals(f.candidateKey()) && f.candidateVersion() != null
                && f.candidateVersion().equals(input.versionId());
    }

    /**
     * The refusal code the ledger recorded for this version of this key, or null when it recorded none: a
     * never-published unit's input, or the last attempt over a standing publish.
     */
    static String recordedRefusal(LedgerItem item, String key, String versionId) {
        if (item == null || versionId == null) {
            return null;
        }
        if (item.status() == LedgerStatus.REFUSED) {
            InputIdentity input = item.input();
            return input != null && input.key().equals(key) && versionId.equals(input.versionId()) ? item.reason() : null;
        }
        LastAttempt last = item.lastAttempt();
        return item.status() == LedgerStatus.PUBLISHED && last != null && last.refused() && last.read(key, versionId)
                ? last.reason() : null;
    }
}
