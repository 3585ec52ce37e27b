package dev.jetsink.target;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Records what the given classes log while open, so a test can assert the lines an operator reads
 * (SPEC §6) without parsing console output.
 */
final class CapturedLogs implements AutoCloseable {

    private final List<Logger> loggers = new ArrayList<>();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    CapturedLogs(Class<?>... sources) {
        appender.start();
        for (Class<?> source : sources) {
            Logger logger = (Logger) LoggerFactory.getLogger(source);
            logger.addAppender(appender);
            loggers.add(logger);
        }
    }

    /** Formatted messages logged at {@code level} so far, in order. */
    List<String> at(Level level) {
        synchronized (appender) { // AppenderBase appends under the appender's own lock
            return appender.list.stream().filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Override
    public void close() {
        loggers.forEach(l -> l.detachAppender(appender));
        appender.stop();
    }
}
