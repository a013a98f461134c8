package io.landingledger.lambda;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.Serializable;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * A log4j context built from the functions' own {@code log4j2.properties} (levels, JsonTemplateLayout and its
 * template), whose stdout appender is swapped for one that keeps each formatted line: what the functions would print,
 * captured without touching System.out.
 */
final class CapturedLogs implements AutoCloseable {
    private final LoggerContext context;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    CapturedLogs() {
        URL config = Objects.requireNonNull(CapturedLogs.class.getResource("/log4j2.properties"),
                "log4j2.properties is not on the classpath (functions/lambda/src/main/resources)");
        try {
            context = new LoggerContext("captured-" + UUID.randomUUID(), null, config.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        context.start();
        Configuration configuration = context.getConfiguration();
        Appender stdout = Objects.requireNonNull(configuration.getAppender("stdout"),
                "log4j2.properties has no appender named stdout");
        Layout<? extends Serializable> layout = stdout.getLayout();
        Appender capture = new AbstractAppender("capture", null, layout, false, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(new String(getLayout().toByteArray(event), UTF_8).stripTrailing());
            }
        };
        capture.start();
        configuration.addAppender(capture);
        Set<LoggerConfig> loggers = Collections.newSetFromMap(new IdentityHashMap<>());
        loggers.addAll(configuration.getLoggers().values());
        loggers.add(configuration.getRootLogger());
        for (LoggerConfig logger : loggers) {
            if (logger.getAppenders().containsKey("stdout")) {
                logger.removeAppender("stdout");
                logger.addAppender(capture, null, null);
            }
        }
        context.updateLoggers();
    }

    Logger logger(Class<?> owner) {
        return context.getLogger(owner.getName());
    }

    Logger logger(String name) {
        return context.getLogger(name);
    }

    /** Every line written so far, one JSON object each. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        context.stop();
    }
}
