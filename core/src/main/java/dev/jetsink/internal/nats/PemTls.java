package dev.jetsink.internal.nats;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the client {@link SSLContext} for a NATS target from PEM files with the JDK alone (jnats has
 * no PEM loader): trust comes from the {@code tls_ca} bundle, or the JDK's default trust store when
 * only {@code tls_required} is set; the optional client identity from {@code tls_client_cert} plus a
 * PKCS#8 {@code tls_client_key} (RSA or EC). The result verifies the server host name
 * ({@link HostnameVerifyingSslContext}), which jnats does not do itself
 * (DESIGN.md "NATS connection").
 */
public final class PemTls {
    private static final Pattern PEM_BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC");
    /** The in-memory key store needs some password; it never leaves this process. */
    private static final char[] STORE_PASSWORD = "jetsink".toCharArray();

    private PemTls() {
    }

    /**
     * The client TLS context.
     *
     * @param ca         PEM CA bundle to trust; empty means the JDK default trust store
     * @param clientCert PEM client certificate (chain), present together with {@code clientKey}
     * @param clientKey  PEM PKCS#8 private key of {@code clientCert}
     * @throws TlsMaterialException naming the file that is missing, unreadable or invalid
     * @throws IllegalArgumentException if only one of client cert and key is given
     */
    public static SSLContext clientContext(Optional<Path> ca, Optional<Path> clientCert, Optional<Path> clientKey)
            throws TlsMaterialException {
        if (clientCert.isPresent() != clientKey.isPresent()) {
            throw new IllegalArgumentException("tls_client_cert and tls_client_key must be given together");
        }
        TrustManager[] trust = trustManagers(ca);
        KeyManager[] keys = clientCert.isPresent() ? keyManagers(clientCert.get(), clientKey.get()) : null;
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return HostnameVerifyingSslContext.wrap(context);
        } catch (GeneralSecurityException e) {
            // No file is to blame: the JDK lacks TLS support, which no retry will fix.
            throw new IllegalStateException("the JDK cannot create a TLS context", e);
        }
    }

    /** Every certificate in a PEM file; at least one. */
    public static List<X509Certificate> readCertificates(Path file) throws TlsMaterialException {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (byte[] der : blocks(file, "CERTIFICATE")) {
                certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
            }
        } catch (CertificateException e) {
            throw new TlsMaterialException(file, "not a valid X.509 certificate", null);
        }
        if (certs.isEmpty()) {
            throw new TlsMaterialException(file, "no PEM CERTIFICATE block found", null);
        }
        return certs;
    }

    /** The PKCS#8 ({@code BEGIN PRIVATE KEY}) RSA or EC key in a PEM file. */
    public static PrivateKey readPrivateKey(Path file) throws TlsMaterialException {
        List<byte[]> blocks = blocks(file, "PRIVATE KEY");
        if (blocks.size() != 1) {
            throw new TlsMaterialException(file, blocks.isEmpty()
                    ? "no PEM PRIVATE KEY block found (the key must be PKCS#8: BEGIN PRIVATE KEY)"
                    : "more than one PRIVATE KEY block", null);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(blocks.get(0));
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (InvalidKeySpecException e) {
                // not this algorithm; try the next one
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK has no " + algorithm + " key factory", e);
            }
        }
        // The cause is dropped on purpose: key parser messages may quote the encoded bytes.
        throw new TlsMaterialException(file, "not a valid PKCS#8 RSA or EC private key", null);
    }

    /**
     * A key store holding the certificate chain of {@code certFile} with the PKCS#8 key of
     * {@code keyFile} under the alias {@code identity}, for a TLS server or client.
     *
     * @throws TlsMaterialException naming the file that is missing or invalid, or the pair that does not match
     */
    public static KeyStore identityStore(Path certFile, Path keyFile, char[] password) throws TlsMaterialException {
        List<X509Certificate> chain = readCertificates(certFile);
        PrivateKey key = readPrivateKey(keyFile);
        if (!belongTogether(chain.get(0), key)) {
            throw new TlsMaterialException(keyFile, "is not the key of the certificate in " + certFile, null);
        }
        try {
            KeyStore store = emptyStore();
            store.setKeyEntry("identity", key, password, chain.toArray(new Certificate[0]));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsMaterialException(keyFile,
                    "cannot be used with " + certFile + " (" + e.getClass().getSimpleName() + ")", null);
        }
    }

    /** A trust store of every certificate in the PEM bundle {@code caFile}. */
    public static KeyStore trustStore(Path caFile) throws TlsMaterialException {
        List<X509Certificate> certs = readCertificates(caFile);
        try {
            KeyStore store = emptyStore();
            int n = 0;
            for (X509Certificate cert : certs) {
                store.setCertificateEntry("ca-" + n++, cert);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JDK cannot build a trust store", e);
        }
    }

    private static TrustManager[] trustManagers(Optional<Path> ca) throws TlsMaterialException {
        KeyStore store = ca.isPresent() ? trustStore(ca.get()) : null;
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot build a trust store", e);
        }
    }

    private static KeyManager[] keyManagers(Path certFile, Path keyFile) throws TlsMaterialException {
        KeyStore store = identityStore(certFile, keyFile, STORE_PASSWORD);
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, STORE_PASSWORD);
            return factory.getKeyManagers();
        } catch (GeneralSecurityException e) {
            throw new TlsMaterialException(keyFile,
                    "cannot be used with " + certFile + " (" + e.getClass().getSimpleName() + ")", null);
        }
    }

    /**
     * Whether the key signs what the certificate's public key verifies. The key store accepts a
     * mismatched pair silently and the handshake would then fail with an obscure alert; checking
     * here lets the error name both files.
     */
    private static boolean belongTogether(X509Certificate cert, PrivateKey key) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> "";
        };
        if (algorithm.isEmpty() || !cert.getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
            return false;
        }
        try {
            byte[] probe = "jetsink key pair check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    /** The DER bytes of each PEM block of the given type; file errors name the file only. */
    private static List<byte[]> blocks(Path file, String type) throws TlsMaterialException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new TlsMaterialException(file, "file does not exist", null);
        } catch (MalformedInputException e) {
            throw new TlsMaterialException(file, "not a PEM file (binary content)", null);
        } catch (IOException e) {
            throw new TlsMaterialException(file, "cannot be read (" + e.getClass().getSimpleName() + ")", null);
        }
        List<byte[]> out = new ArrayList<>();
        Matcher m = PEM_BLOCK.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(type)) {
                try {
                    out.add(Base64.getMimeDecoder().decode(m.group(2)));
                } catch (IllegalArgumentException e) {
                    throw new TlsMaterialException(file, "PEM " + type + " block is not valid base64", null);
                }
            }
        }
        return out;
    }
}
