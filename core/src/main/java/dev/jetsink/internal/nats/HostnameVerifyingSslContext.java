package dev.jetsink.internal.nats;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An {@link SSLContext} whose client sockets and engines check that the server certificate names
 * the host that was dialled (endpoint identification {@code HTTPS}: SAN DNS name, or SAN IP for an
 * IP literal).
 *
 * <p>Why a wrapper: jnats 2.26.2 upgrades its socket with
 * {@code sslContext.getSocketFactory().createSocket(socket, host, port, true)} and never enables
 * endpoint identification, so a certificate for any host signed by a trusted CA is accepted. The host
 * it passes is the one from the server URL, so setting the algorithm on the socket that factory
 * returns is enough to make the JDK trust manager compare it with the certificate
 * (DESIGN.md "NATS connection").
 */
final class HostnameVerifyingSslContext extends SSLContext {
    /** The JDK name of RFC 2818 host name checking. */
    static final String ENDPOINT_IDENTIFICATION = "HTTPS";

    private HostnameVerifyingSslContext(SSLContext delegate) {
        super(new Spi(delegate), delegate.getProvider(), delegate.getProtocol());
    }

    /**
     * Wraps an initialised context.
     *
     * @param delegate a context already {@link SSLContext#init initialised} with its key and trust managers
     * @return a context that verifies host names on every client socket and host-aware engine
     */
    public static SSLContext wrap(SSLContext delegate) {
        return delegate instanceof HostnameVerifyingSslContext ? delegate : new HostnameVerifyingSslContext(delegate);
    }

    private static <T> T verifying(T target) {
        if (target instanceof SSLSocket socket) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(ENDPOINT_IDENTIFICATION);
            socket.setSSLParameters(parameters);
        } else if (target instanceof SSLEngine engine) {
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(ENDPOINT_IDENTIFICATION);
            engine.setSSLParameters(parameters);
        }
        return target;
    }

    /** Delegates everything, turning on identification where a peer host is known. */
    private static final class Spi extends SSLContextSpi {
        private final SSLContext delegate;

        Spi(SSLContext delegate) {
            this.delegate = delegate;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
                throws KeyManagementException {
            delegate.init(km, tm, random);
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new VerifyingSocketFactory(delegate.getSocketFactory());
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return delegate.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            // No peer host is known, so there is nothing to compare the certificate with.
            return delegate.createSSLEngine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return verifying(delegate.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return delegate.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return delegate.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            SSLParameters parameters = delegate.getDefaultSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(ENDPOINT_IDENTIFICATION);
            return parameters;
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return delegate.getSupportedSSLParameters();
        }
    }

    /** Every socket it makes checks the host name; the layered form is the one jnats uses. */
    private static final class VerifyingSocketFactory extends SSLSocketFactory {
        private final SSLSocketFactory delegate;

        VerifyingSocketFactory(SSLSocketFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return delegate.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return delegate.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
            return verifying(delegate.createSocket(socket, host, port, autoClose));
        }

        @Override
        public Socket createSocket() throws IOException {
            // Unconnected: the JDK takes the peer host from the later connect(address).
            return verifying(delegate.createSocket());
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return verifying(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return verifying(delegate.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return verifying(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return verifying(delegate.createSocket(address, port, localAddress, localPort));
        }
    }
}
