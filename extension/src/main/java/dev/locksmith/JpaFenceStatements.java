package dev.locksmith;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import java.sql.SQLException;
import java.util.List;

/**
 * The fence check's statements as native queries of an {@code EntityManager}, in the transaction
 * it takes part in: a resource-local one, or the JTA transaction it joined. Loaded only when a
 * caller passes an {@code EntityManager}, so that an application without Jakarta Persistence never
 * needs its classes.
 */
final class JpaFenceStatements implements FenceStatements {
    private final EntityManager entityManager;

    JpaFenceStatements(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /**
     * @return whether the entity manager takes part in a transaction, whose writes the check can protect
     */
    boolean inTransaction() {
        return entityManager.isJoinedToTransaction();
    }

    @Override
    public int update(String sql, Object... parameters) throws SQLException {
        try {
            return query(sql, parameters).executeUpdate();
        } catch (PersistenceException e) {
            throw asSqlException(e);
        }
    }

    @Override
    public Long firstLong(String sql, Object... parameters) throws SQLException {
        try {
            List<?> rows = query(sql, parameters).getResultList();
            return rows.isEmpty() ? null : ((Number) rows.get(0)).longValue();
        } catch (PersistenceException e) {
            throw asSqlException(e);
        }
    }

    private Query query(String sql, Object... parameters) {
        // Native queries take numbered positional parameters portably: ?1, ?2, ...
        StringBuilder numbered = new StringBuilder(sql.length() + 8);
        int next = 1;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            numbered.append(c);
            if (c == '?') {
                numbered.append(next++);
            }
        }
        Query query = entityManager.createNativeQuery(numbered.toString());
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return query;
    }

    private static SQLException asSqlException(PersistenceException e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof SQLException)) {
            cause = cause.getCause();
        }
        return cause instanceof SQLException sql ? new SQLException(sql.getMessage(), sql.getSQLState(), e)
                : new SQLException(String.valueOf(e.getMessage()), e);
    }
}
