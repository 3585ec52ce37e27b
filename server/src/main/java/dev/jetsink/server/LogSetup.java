package dev.jetsink.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import dev.jetsink.internal.config.DaemonSettings;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code JETSINK_LOG_FORMAT}: text lines come from {@code logback.xml}; JSON replaces the
 * root logger's appender with one writing logback's JSON lines to standard error.
 */
public final class LogSetup {

    private LogSetup() {
    }

    public static void apply(DaemonSettings.LogFormat format) {
        if (format != DaemonSettings.LogFormat.JSON
            || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        // One self-contained line per event: the formatted text, not the pattern plus arguments.
        encoder.setWithFormattedMessage(true);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithContext(false);
        encoder.setWithNanoseconds(false);
        encoder.start();
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("STDERR_JSON");
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        root.addAppender(appender);
    }

    /** Warnings and errors only: the demo prints its own progress and table. */
    public static void quiet() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    /** Flushes and stops the appenders; used right before the process halts. */
    public static void flush() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.stop();
        }
    }
}
