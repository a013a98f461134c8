package io.landingledger.core.validate;

import java.io.IOException;

/**
 * An I/O failure of the input's source (network, disk), as opposed to corrupt content. The validator rethrows
 * its cause so the caller retries; corrupt gzip content is a refusal instead.
 */
final class SourceReadException extends IOException {
    private static final long serialVersionUID = 1L;

    SourceReadException(IOException cause) {
        super(cause.getMessage(), cause);
    }

    IOException original() {
        return (IOException) getCause();
    }
}
