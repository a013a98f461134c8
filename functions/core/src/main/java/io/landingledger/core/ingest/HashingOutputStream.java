package io.landingledger.core.ingest;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Passes the staged rows on to the upload and hashes them on the way (SHA-256): the publish's content identity, known
 * when the staging completes without reading the output again.
 */
final class HashingOutputStream extends FilterOutputStream {
    private final MessageDigest digest;

    HashingOutputStream(OutputStream out) {
        super(out);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        digest.update((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        digest.update(b, off, len);
    }

    /** The hash of everything written, in lower-case hex; call once, after the last write. */
    String sha256Hex() {
        return HexFormat.of().formatHex(digest.digest());
    }
}
