package dev.jetsink.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A fixed-rate HTTP/1.1 load generator on plain keep-alive sockets, light enough to share two
 * cores with the daemon it measures. A pacer releases request {@code i} at {@code start + i/rate};
 * a pool of connections sends them. Latency is measured from the scheduled time, so a slow server
 * cannot hide queueing delay by slowing the sender down (no coordinated omission). Every read has
 * a timeout and the run a deadline, so a server that stops answering ends the run as failures
 * instead of hanging it.
 */
final class RawHttpLoad {

    private static final int CONNECTIONS = 32;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration GRACE = Duration.ofSeconds(120);

    private RawHttpLoad() {
    }

    /**
     * Sends {@code total} POSTs to {@code /notify} at {@code rate} per second.
     *
     * @param scheduledAtMicros filled with each request's scheduled wall time (µs since the epoch)
     * @param httpMicros        filled with each request's time from schedule to a complete response
     * @return seconds the pacer took to release every request
     */
    static double run(String host, int port, int rate, int total, IntFunction<byte[]> body,
                      long[] scheduledAtMicros, long[] httpMicros, AtomicLong failures) throws Exception {
        return run(host, port, rate, total, body, scheduledAtMicros, httpMicros, failures, READ_TIMEOUT, GRACE);
    }

    /**
     * As {@link #run(String, int, int, int, IntFunction, long[], long[], AtomicLong)}, with each
     * response awaited at most {@code readTimeout}; requests not sent within {@code grace} after the
     * last one was due count as failures without being sent.
     */
    static double run(String host, int port, int rate, int total, IntFunction<byte[]> body,
                      long[] scheduledAtMicros, long[] httpMicros, AtomicLong failures,
                      Duration readTimeout, Duration grace) throws Exception {
        BlockingQueue<Integer> due = new LinkedBlockingQueue<>();
        List<Thread> senders = new ArrayList<>();
        long deadline = System.nanoTime() + (long) total * 1_000_000_000L / rate + grace.toNanos();
        for (int c = 0; c < CONNECTIONS; c++) {
            Thread t = new Thread(() -> send(host, port, due, body, scheduledAtMicros, httpMicros, failures,
                (int) readTimeout.toMillis(), deadline));
            t.setDaemon(true);
            t.start();
            senders.add(t);
        }
        long periodNanos = 1_000_000_000L / rate;
        long start = System.nanoTime();
        Instant wallStart = Instant.now();
        long wallStartMicros = wallStart.getEpochSecond() * 1_000_000L + wallStart.getNano() / 1000;
        for (int i = 0; i < total; i++) {
            long offset = i * periodNanos;
            long wait = start + offset - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            scheduledAtMicros[i] = wallStartMicros + offset / 1000;
            due.add(i);
        }
        double secs = (System.nanoTime() - start) / 1e9;
        for (int c = 0; c < CONNECTIONS; c++) {
            due.add(-1);
        }
        for (Thread t : senders) {
            t.join();
        }
        return secs;
    }

    private static void send(String host, int port, BlockingQueue<Integer> due, IntFunction<byte[]> body,
                             long[] scheduledAtMicros, long[] httpMicros, AtomicLong failures,
                             int readTimeoutMillis, long deadline) {
        Socket socket = null;
        InputStream in = null;
        try {
            for (int i = due.take(); i >= 0; i = due.take()) {
                try {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("run deadline passed");
                    }
                    if (socket == null) {
                        socket = new Socket();
                        socket.connect(new InetSocketAddress(host, port), readTimeoutMillis);
                        socket.setSoTimeout(readTimeoutMillis);
                        socket.setTcpNoDelay(true);
                        in = new BufferedInputStream(socket.getInputStream());
                    }
                    byte[] payload = body.apply(i);
                    byte[] head = ("POST /notify HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + payload.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                    OutputStream out = socket.getOutputStream();
                    out.write(head);
                    out.write(payload);
                    out.flush();
                    int status = readResponse(in);
                    if (status != 200) {
                        failures.incrementAndGet();
                    }
                } catch (IOException e) {
                    failures.incrementAndGet();
                    closeQuietly(socket);
                    socket = null;
                }
                Instant now = Instant.now();
                httpMicros[i] = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000 - scheduledAtMicros[i];
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(socket);
        }
    }

    /** Reads one response (status line, headers, Content-Length body) and returns its status. */
    private static int readResponse(InputStream in) throws IOException {
        String status = line(in);
        int code = Integer.parseInt(status.split(" ")[1]);
        int length = 0;
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                length = Integer.parseInt(h.substring(colon + 1).trim());
            }
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("short body");
        }
        return code;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }
}
