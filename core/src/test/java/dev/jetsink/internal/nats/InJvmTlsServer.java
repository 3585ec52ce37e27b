package dev.jetsink.internal.nats;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A TLS listener on 127.0.0.1 that presents one fixture certificate and completes handshakes: enough
 * to test client-side certificate checks without a NATS server.
 */
final class InJvmTlsServer implements AutoCloseable {
    private final SSLServerSocket listener;
    private final Thread acceptor;

    InJvmTlsServer(Path certFile, Path keyFile) throws Exception {
        char[] password = "test".toCharArray();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("server", PemTls.readPrivateKey(keyFile), password,
                PemTls.readCertificates(certFile).toArray(new Certificate[0]));
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        listener = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::serve, "in-jvm-tls-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void serve() {
        while (!listener.isClosed()) {
            try (Socket accepted = listener.accept()) {
                ((SSLSocket) accepted).startHandshake();
            } catch (IOException e) {
                // A refused handshake is what some tests expect; the client side asserts on it.
            }
        }
    }

    /** Stops listening and waits up to 5 s for the acceptor; an interrupt is kept in the thread's flag. */
    @Override
    public void close() throws IOException {
        listener.close();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
