package io.landingledger.core.ingest;

import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.simulation.SimClock;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.InspectableS3;

/**
 * The stores one simulated schedule runs on: S3 (the inbox, versioned, and the lake) and the ledger, unstepped.
 * {@link ProtocolModel} wraps them in its counting and stepped ports for the services under test, and reads them
 * directly for its checks and its out-of-band actors, so the checks see what these stores hold.
 *
 * <p>{@link #inMemory} is the default (the fakes of {@code core.testing}); functions/lambda's
 * {@code ProtocolSimulationAdaptersIT} builds one on the real adapters over the emulators.
 */
interface ProtocolWorld {

    /** S3 with the model's two buckets ({@link ProtocolModel#INBOX} versioned, {@link ProtocolModel#LAKE} not). */
    InspectableS3 s3();

    /** The ledger, empty at the start. */
    Ledger ledger();

    /**
     * Has the world tell the model about every write that took effect, through any port, stepped or not:
     * {@code storeWrite} after every S3 write (put, promote, delete, upload start, part, completion) and every ledger
     * write, history append or table record, {@code ledgerWritten} after every ledger item write.
     */
    void observeWrites(Runnable storeWrite, Runnable ledgerWritten);

    /** Builds a fresh world for one schedule; S3's clock (LastModified, event times) is the model's where it can be. */
    interface Factory {
        ProtocolWorld create(SimClock clock);
    }

    /** The faithful in-memory S3 (small part sizes, so promotes copy in several parts) and DynamoDB. */
    static ProtocolWorld inMemory(SimClock clock) {
        InMemoryObjectStore s3 = new InMemoryObjectStore(clock, new InMemoryObjectStore.PartSizes(64, 128, 2))
                .createBucket(ProtocolModel.INBOX, true).createBucket(ProtocolModel.LAKE, false);
        InMemoryLedger dynamo = new InMemoryLedger();
        return new ProtocolWorld() {
            @Override
            public InspectableS3 s3() {
                return s3;
            }

            @Override
            public Ledger ledger() {
                return dynamo;
            }

            @Override
            public void observeWrites(Runnable storeWrite, Runnable ledgerWritten) {
                dynamo.faults(new InMemoryLedger.Faults() {
                    @Override
                    public void after(InMemoryLedger.Call call) {
                        if (call.operation() == InMemoryLedger.Operation.WRITE
                                || call.operation() == InMemoryLedger.Operation.APPEND_HISTORY
                                || call.operation() == InMemoryLedger.Operation.RECORD_TABLE) {
                            storeWrite.run();
                        }
                        if (call.operation() == InMemoryLedger.Operation.WRITE) {
                            ledgerWritten.run();
                        }
                    }
                });
                s3.faults(new InMemoryObjectStore.Faults() {
                    @Override
                    public void after(InMemoryObjectStore.Call call) {
                        switch (call.operation()) {
                            case PUT, PROMOTE, DELETE, START_UPLOAD, UPLOAD_WRITE, UPLOAD_COMPLETE -> storeWrite.run();
                            default -> {
                            }
                        }
                    }
                });
            }
        };
    }
}
