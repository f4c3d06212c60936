package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects what Locksmith logs (through {@code System.Logger}, which goes to java.util.logging)
 * while it is open.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.locksmith");
    private final List<LogRecord> records = new ArrayList<>();
    private final Level previous;

    private LogCapture() {
        previous = logger.getLevel();
        logger.setLevel(Level.ALL);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /**
     * @return a capture of every dev.locksmith logger, to close when done
     */
    public static LogCapture start() {
        return new LogCapture();
    }

    /**
     * @return every message so far, with the message of its exception and causes appended
     */
    public synchronized List<String> messages() {
        List<String> messages = new ArrayList<>();
        for (LogRecord record : records) {
            StringBuilder text = new StringBuilder(record.getLoggerName()).append(' ').append(record.getLevel())
                    .append(": ").append(record.getMessage());
            for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
                text.append(" | ").append(t);
            }
            messages.add(text.toString());
        }
        return messages;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previous);
    }
}
