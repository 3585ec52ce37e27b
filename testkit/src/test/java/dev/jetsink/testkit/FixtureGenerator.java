package dev.jetsink.testkit;

import io.nats.client.NKey;
import io.nats.client.support.JsonSerializable;
import io.nats.client.support.JwtUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * Writes the TEST-ONLY auth fixtures (nkey pair, operator-mode JWTs and {@code .creds}) that
 * {@link SecurityFixtures} ships. Run once by hand and commit the output; it is not part of the
 * build, because regenerating keys on every build would make failures unreproducible.
 *
 * <pre>
 * mvn -B -q -ntp -pl testkit test-compile
 * mvn -B -q -ntp -pl testkit dependency:build-classpath -Dmdep.outputFile=/tmp/testkit.cp
 * java -cp testkit/target/test-classes:$(cat /tmp/testkit.cp) \
 *   dev.jetsink.testkit.FixtureGenerator testkit/src/main/resources/dev/jetsink/testkit/fixtures/auth
 * </pre>
 *
 * Debian ships no {@code nsc}, so operator and account JWTs are signed here with jnats' generic
 * {@link JwtUtils#issueJWT} and hand-written claim bodies (jwt v2 format understood by nats-server 2.9).
 */
public final class FixtureGenerator {
    /** Account limits with every dimension unlimited; a non-zero storage limit turns JetStream on. */
    private static final String UNLIMITED = "\"subs\":-1,\"data\":-1,\"payload\":-1,\"imports\":-1,"
            + "\"exports\":-1,\"wildcards\":true,\"conn\":-1,\"leaf\":-1";
    private static final String JETSTREAM_UNLIMITED = "\"mem_storage\":-1,\"disk_storage\":-1,"
            + "\"streams\":-1,\"consumer\":-1";

    private FixtureGenerator() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: FixtureGenerator <output dir>");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        SecureRandom random = new SecureRandom();

        NKey nkeyUser = NKey.createUser(random);
        write(out.resolve("nkey-user.seed"), new String(nkeyUser.getSeed()) + "\n");
        write(out.resolve("nkey-user.pub"), new String(nkeyUser.getPublicKey()) + "\n");
        // a well-formed user seed no fixture server lists
        write(out.resolve("nkey-stranger.seed"), new String(NKey.createUser(random).getSeed()) + "\n");

        NKey operator = NKey.createOperator(random);
        NKey system = NKey.createAccount(random);
        NKey account = NKey.createAccount(random);
        String operatorPub = new String(operator.getPublicKey());
        String systemPub = new String(system.getPublicKey());
        String accountPub = new String(account.getPublicKey());

        write(out.resolve("operator.jwt"), jwt(operator, operatorPub, "jetsink-test-operator", operatorPub,
                "{\"type\":\"operator\",\"version\":2,\"system_account\":\"" + systemPub + "\"}") + "\n");
        write(out.resolve("system-account.jwt"), jwt(operator, systemPub, "SYS", operatorPub,
                "{\"type\":\"account\",\"version\":2,\"limits\":{" + UNLIMITED + "}}") + "\n");
        write(out.resolve("account.jwt"), jwt(operator, accountPub, "jetsink-test-account", operatorPub,
                "{\"type\":\"account\",\"version\":2,\"limits\":{" + UNLIMITED + "," + JETSTREAM_UNLIMITED + "}}")
                + "\n");
        write(out.resolve("accounts.properties"), "# public keys of the operator-mode fixture (test-only)\n"
                + "operator=" + operatorPub + "\n"
                + "system_account=" + systemPub + "\n"
                + "account=" + accountPub + "\n");

        write(out.resolve("user.creds"), creds(account, NKey.createUser(random), "jetsink-test-user"));
        // Same shape, but signed by an account the server has never heard of: must be refused.
        write(out.resolve("stranger.creds"), creds(NKey.createAccount(random), NKey.createUser(random), "stranger"));
        System.out.println("wrote auth fixtures to " + out.toAbsolutePath());
    }

    private static String creds(NKey account, NKey user, String name) throws GeneralSecurityException, IOException {
        // With no separate signing key the account signs for itself: accountId is its own public key.
        String userJwt = JwtUtils.issueUserJWT(account, new String(account.getPublicKey()),
                new String(user.getPublicKey()), name);
        return String.format(JwtUtils.NATS_USER_JWT_FORMAT, userJwt, new String(user.getSeed()));
    }

    private static String jwt(NKey signer, String subject, String name, String issuer, String natsClaims)
            throws GeneralSecurityException, IOException {
        JsonSerializable nats = () -> natsClaims;
        return JwtUtils.issueJWT(signer, subject, name, (Duration) null, JwtUtils.currentTimeSeconds(), issuer, nats);
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
