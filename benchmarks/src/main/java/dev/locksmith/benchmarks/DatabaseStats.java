package dev.locksmith.benchmarks;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What PostgreSQL itself executed for the worker JVMs while the cycles were counted, from
 * {@code pg_stat_statements}: calls and rows per statement, the statement's text normalized by
 * PostgreSQL ({@code UPDATE counter SET n = n + $1 WHERE name = $2}). The transaction control
 * that the JDBC driver sends ({@code BEGIN}, {@code COMMIT}) counts as statements too: each is a
 * request the database answers. Figures per transaction divide by the transactions the database
 * ended in the same interval (its {@code COMMIT}s and {@code ROLLBACK}s), not by the cycles the
 * workers counted: the harness starts counting a moment after the window opens, later on a busy
 * machine, and the statements of that moment would be missing from a count per cycle.
 *
 * @param calls times each statement ran
 * @param rows  rows each statement returned or changed, summed over its calls
 */
record DatabaseStats(Map<String, Long> calls, Map<String, Long> rows) {
    /** Where a scenario uses no database. */
    static final DatabaseStats NONE = new DatabaseStats(Map.of(), Map.of());

    DatabaseStats {
        calls = Collections.unmodifiableMap(new TreeMap<>(calls));
        rows = Collections.unmodifiableMap(new TreeMap<>(rows));
    }

    /**
     * @return the transactions the database ended: its {@code COMMIT}s and {@code ROLLBACK}s
     */
    long transactions() {
        return calls.entrySet().stream()
                .filter(entry -> entry.getKey().matches("(?i)\\s*(COMMIT|ROLLBACK)\\b.*"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * @return every statement's calls together, per transaction; NaN without one
     */
    double statementsPerTransaction() {
        return perTransaction(calls.values().stream().mapToLong(Long::longValue).sum());
    }

    /**
     * @return the rows that {@code INSERT}, {@code UPDATE} and {@code DELETE} statements changed,
     *         per transaction; NaN without one
     */
    double rowsChangedPerTransaction() {
        return perTransaction(rows.entrySet().stream()
                .filter(entry -> entry.getKey().matches("(?is)\\s*(INSERT|UPDATE|DELETE)\\b.*"))
                .mapToLong(Map.Entry::getValue).sum());
    }

    /**
     * @return {@code count} divided by the transactions; NaN without one
     */
    double perTransaction(long count) {
        long transactions = transactions();
        return transactions == 0 ? Double.NaN : (double) count / transactions;
    }
}
