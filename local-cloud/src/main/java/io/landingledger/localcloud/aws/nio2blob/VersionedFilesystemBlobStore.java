package io.landingledger.localcloud.aws.nio2blob;

import org.gaul.s3proxy.nio2blob.AbstractNio2BlobStore;

import java.nio.file.Path;

/**
 * S3Proxy's transient store (its nio2 blob store: versioning, conditional PutObject and CompleteMultipartUpload)
 * with the objects in files under a directory instead of on the heap. S3Proxy's own {@code filesystem} provider is
 * the same implementation but does not declare versioning, so S3Proxy answers 501 for it (docs/emulators.md).
 *
 * <p>The package name is load-bearing: S3Proxy decides which conditional writes a store supports natively from its
 * class name, and treats a class in a {@code .nio2blob.} package as its filesystem store, which supports them all.
 */
public final class VersionedFilesystemBlobStore extends AbstractNio2BlobStore {
    public VersionedFilesystemBlobStore(Path directory) {
        super(directory);
    }

    @Override
    public boolean supportsVersioning() {
        return true;
    }
}
