package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.message.MapMessage;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The functions' own log lines (log4j, under {@code io.landingledger.lambda}) into the log of the function whose
 * invocation wrote them, one JSON object per line as the functions' layout writes them on Lambda, instead of the
 * command line's stderr: in one JVM every function shares log4j, so the invocation thread says whose line it is.
 */
final class FunctionLogs {
    private static final ThreadLocal<PrintStream> CURRENT = new ThreadLocal<>();
    private static volatile boolean installed;

    private FunctionLogs() {
    }

    /** The log of the invocation running on this thread (null: none). */
    static void current(PrintStream log) {
        if (log == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(log);
        }
    }

    /** Routes the functions' loggers to their invocations' logs (once per JVM). */
    static synchronized void install() {
        if (installed) {
            return;
        }
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return; // another logging backend: the lines go where it sends them
        }
        Configuration configuration = context.getConfiguration();
        AbstractAppender appender = new AbstractAppender("local-function-logs", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                PrintStream log = CURRENT.get();
                if (log != null) {
                    log.println(line(event));
                }
            }
        };
        appender.start();
        configuration.addAppender(appender);
        LoggerConfig functions = new LoggerConfig("io.landingledger.lambda", Level.INFO, false);
        functions.addAppender(appender, Level.INFO, (Filter) null);
        configuration.addLogger("io.landingledger.lambda", functions);
        context.updateLoggers();
        installed = true;
    }

    private static String line(LogEvent event) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("timestamp", Instant.ofEpochMilli(event.getTimeMillis()).toString());
        line.put("level", event.getLevel().name());
        line.put("logger", event.getLoggerName());
        line.put("message", event.getMessage().getFormattedMessage());
        if (event.getMessage() instanceof MapMessage<?, ?> map) {
            map.getData().forEach((k, v) -> line.put(String.valueOf(k), v));
        }
        try {
            return JSON.std.asString(line);
        } catch (IOException e) {
            return String.valueOf(line);
        }
    }
}
