package dev.jetsink.target;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Records what jetsink logs (every logger under {@code dev.jetsink}) while a test runs, so a test
 * can assert the lines an operator reads: their level, their wording and the fields they name.
 */
final class CapturedLog implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger("dev.jetsink");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    CapturedLog() {
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
    }

    /** Formatted messages at {@code level} that contain {@code text}, in the order they were logged. */
    List<String> lines(Level level, String text) {
        // Appends happen on the dispatcher thread under the appender's lock; read under it too.
        synchronized (appender) {
            return appender.list.stream()
                .filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains(text))
                .toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
