/**
 * Real nats-server fixtures for tests (DESIGN.md "Test fixtures").
 *
 * <ul>
 *   <li>{@link dev.jetsink.testkit.NatsServer}: one process, port picked by the server, kill /
 *       restart on the same port and store, pause / resume, its log for failure messages;</li>
 *   <li>{@link dev.jetsink.testkit.NatsCluster}: three routed JetStream nodes for R3 streams;</li>
 *   <li>{@link dev.jetsink.testkit.FaultProxy}: a TCP proxy that delays, black-holes, resets or
 *       refuses connections;</li>
 *   <li>{@link dev.jetsink.testkit.Streams}: create, seal, update, delete and read back
 *       streams.</li>
 * </ul>
 *
 * <p>A missing {@code nats-server} fails the test with an {@link IllegalStateException} from
 * {@link dev.jetsink.testkit.NatsBinary}; nothing is skipped. To see what the server saw when an
 * assertion fails, put its log in the message: {@code assertThat(x).as(nats.logTail(30))...}.
 * Run with {@code -Djetsink.keepNatsFiles=true} to keep store dirs and logs after the test.
 */
package dev.jetsink.testkit;
