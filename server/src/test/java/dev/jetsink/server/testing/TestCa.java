package dev.jetsink.server.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away certificate authority made with the {@code openssl} command (bin/test installs it),
 * issuing EC P-256 server certificates for {@code localhost}/{@code 127.0.0.1} and client
 * certificates with chosen serial numbers. Keys are PKCS#8 PEM, as jetsink reads them.
 */
public final class TestCa {

    public final Path dir;
    public final Path cert;
    private final Path key;

    private TestCa(Path dir, Path cert, Path key) {
        this.dir = dir;
        this.cert = cert;
        this.key = key;
    }

    public static TestCa create(Path dir, String name) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path cert = dir.resolve(name + "-ca.pem");
        Path key = dir.resolve(name + "-ca-key.pem");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=" + name);
        return new TestCa(dir, cert, key);
    }

    /** A server certificate and key with {@code serial}, written to {@code stem-cert.pem} and {@code stem-key.pem}. */
    public Path[] issueServer(String stem, long serial) throws IOException, InterruptedException {
        return issueServer(stem, serial, 2);
    }

    /** Like {@link #issueServer(String, long)}, valid for {@code days} from now. */
    public Path[] issueServer(String stem, long serial, int days) throws IOException, InterruptedException {
        return issue(stem, serial, days, "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    }

    public Path[] issueClient(String stem, long serial) throws IOException, InterruptedException {
        return issueClient(stem, serial, 2);
    }

    public Path[] issueClient(String stem, long serial, int days) throws IOException, InterruptedException {
        return issue(stem, serial, days, "extendedKeyUsage=clientAuth\n");
    }

    private Path[] issue(String stem, long serial, int days, String extensions) throws IOException, InterruptedException {
        Path certOut = dir.resolve(stem + "-cert.pem");
        Path keyOut = dir.resolve(stem + "-key.pem");
        Path csr = dir.resolve(stem + ".csr");
        Path ext = dir.resolve(stem + ".ext");
        Files.writeString(ext, extensions);
        openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyOut.toString());
        openssl(dir, "req", "-new", "-key", keyOut.toString(), "-subj", "/CN=" + stem, "-out", csr.toString());
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", cert.toString(), "-CAkey", key.toString(),
            "-set_serial", Long.toString(serial), "-days", Integer.toString(days), "-extfile", ext.toString(), "-out", certOut.toString());
        return new Path[] {certOut, keyOut};
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + " failed:\n" + out);
        }
    }
}
