package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Records what jetsink logs while a test runs — every logger under {@code dev.jetsink}, or only
 * the classes named — so a test can assert the lines an operator reads: their level, their wording
 * and the fields they name.
 */
final class CapturedLog implements AutoCloseable {

    private final List<Logger> loggers = new ArrayList<>();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    /** Everything jetsink logs. */
    CapturedLog() {
        this(List.of((Logger) LoggerFactory.getLogger("dev.jetsink")));
    }

    private CapturedLog(List<Logger> sources) {
        appender.setContext(sources.get(0).getLoggerContext());
        appender.start();
        for (Logger logger : sources) {
            logger.addAppender(appender);
            loggers.add(logger);
        }
    }

    /** Only what the given classes log. */
    static CapturedLog of(Class<?>... sources) {
        List<Logger> loggers = new ArrayList<>();
        for (Class<?> source : sources) {
            loggers.add((Logger) LoggerFactory.getLogger(source));
        }
        return new CapturedLog(loggers);
    }

    /** Formatted messages at {@code level} that contain {@code text}, in the order they were logged. */
    List<String> lines(Level level, String text) {
        return at(level).stream().filter(m -> m.contains(text)).toList();
    }

    /** Formatted messages logged at {@code level} so far, in order. */
    List<String> at(Level level) {
        // Appends happen on delivery threads under the appender's lock; read under it too.
        synchronized (appender) {
            return appender.list.stream()
                .filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
        }
    }

    @Override
    public void close() {
        loggers.forEach(l -> l.detachAppender(appender));
        appender.stop();
    }
}
