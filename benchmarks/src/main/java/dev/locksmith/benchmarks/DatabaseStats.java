package dev.locksmith.benchmarks;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What PostgreSQL itself executed for the worker JVMs while the cycles were counted, from
 * {@code pg_stat_statements}: calls and rows per statement, the statement's text normalized by
 * PostgreSQL ({@code UPDATE counter SET n = n + $1 WHERE name = $2}). The transaction control
 * that the JDBC driver sends ({@code BEGIN}, {@code COMMIT}) counts as statements too: each is a
 * request the database answers. Unlike its own per-table counters, which a server process reports
 * up to a second late, {@code pg_stat_statements} counts each statement as it finishes, so the
 * count matches the window.
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
     * @return every statement's calls together
     */
    long totalCalls() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return the rows that {@code INSERT}, {@code UPDATE} and {@code DELETE} statements changed
     */
    long rowsChanged() {
        return rows.entrySet().stream()
                .filter(entry -> entry.getKey().matches("(?is)\\s*(INSERT|UPDATE|DELETE)\\b.*"))
                .mapToLong(Map.Entry::getValue).sum();
    }
}
