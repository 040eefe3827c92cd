package dev.cryo.scanner.watch;

import org.jboss.logmanager.ExtLogRecord;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Every line logged in this JVM while it is open (Cryo's, Iceberg's, Jetty's), with the stack
 * traces of logged exceptions, at DEBUG and above for Cryo and Iceberg: for asserting that a
 * secret reaches no log line and counting the lines a failure causes.
 */
final class CapturedLog extends Handler implements AutoCloseable {

    private static final List<String> CATEGORIES = List.of("dev.cryo", "org.apache.iceberg");

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final List<Level> previousLevels = new CopyOnWriteArrayList<>();

    private CapturedLog() {
        setLevel(Level.ALL);
    }

    static CapturedLog start() {
        CapturedLog log = new CapturedLog();
        for (String category : CATEGORIES) {
            Logger logger = Logger.getLogger(category);
            log.previousLevels.add(logger.getLevel());
            logger.setLevel(Level.FINE);
        }
        Logger.getLogger("").addHandler(log);
        return log;
    }

    /** The lines so far, each as {@code LEVEL logger: message} followed by the stack trace of its exception. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    String all() {
        return String.join("\n", lines);
    }

    @Override
    public void publish(LogRecord record) {
        String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : formatter.formatMessage(record);
        StringBuilder line = new StringBuilder(record.getLevel() + " " + record.getLoggerName() + ": " + message);
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append('\n').append(trace);
        }
        lines.add(line.toString());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
        for (int i = 0; i < CATEGORIES.size(); i++) {
            Logger.getLogger(CATEGORIES.get(i)).setLevel(previousLevels.get(i));
        }
    }
}
