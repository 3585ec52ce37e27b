package dev.jetsink.internal.metrics;

import dev.jetsink.internal.nats.PemTls;
import dev.jetsink.internal.nats.TlsMaterialException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * Seconds until the first certificate of a PEM file expires, for a gauge. A NATS connection reads
 * its TLS files when it is made and is remade when they change, so the file on disk is the
 * certificate the target presents now or on its next connection. The file (a few KiB) is read at
 * each scrape and parsed again only when its bytes changed; a file that stops parsing keeps the
 * last value read.
 */
final class CertificateFileExpiry {

    private final Path file;
    private final Clock clock;
    private byte[] parsed = new byte[0];
    private Optional<Instant> notAfter = Optional.empty();

    CertificateFileExpiry(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
    }

    /** Negative once expired; NaN while the file has never parsed. */
    synchronized double secondsLeft() {
        byte[] now = contents();
        if (!Arrays.equals(now, parsed)) {
            try {
                notAfter = Optional.of(PemTls.readCertificates(file).get(0).getNotAfter().toInstant());
                parsed = now;
            } catch (TlsMaterialException e) {
                // half-written or removed: keep what was read, try again at the next scrape
            }
        }
        return notAfter.map(t -> (t.toEpochMilli() - clock.millis()) / 1000.0).orElse(Double.NaN);
    }

    private byte[] contents() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
