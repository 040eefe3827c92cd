package dev.cryo.audit.persistence;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.platform.error.CryoException;

import java.sql.SQLException;
import java.util.Set;

/** Sorts SQL errors into those a retry may cure and those it will not. */
final class SqlErrors {

    /**
     * SQLSTATE classes of passing trouble: connection (08), transaction rollback such as deadlocks (40),
     * insufficient resources (53), operator intervention such as a shutdown (57), system errors (58).
     */
    private static final Set<String> PASSING_CLASSES = Set.of("08", "40", "53", "57", "58");

    static CryoException translate(String action, SQLException e) {
        String state = stateOf(e);
        // No state at all: the pool could not hand out a connection (the database is away).
        boolean passing = state == null || state.length() < 2 || PASSING_CLASSES.contains(state.substring(0, 2))
                || state.equals("55P03");
        AuditErrorCode code = passing ? AuditErrorCode.STORE_UNAVAILABLE
                : isDataRefusal(e) ? AuditErrorCode.ROW_REFUSED : AuditErrorCode.STORE_FAILED;
        SQLException detail = e.getNextException() != null ? e.getNextException() : e;
        return new CryoException(code, "Cannot " + action + ": " + detail.getMessage()
                + (state == null ? "" : " (SQLSTATE " + state + ")"), e);
    }

    /** The first SQLSTATE of the error or of the errors chained to it (a batch reports its statement's error there). */
    private static String stateOf(SQLException e) {
        for (SQLException sql = e; sql != null; sql = sql.getNextException()) {
            if (sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }

    /** True when the database refused the data of a row (a data exception, class 22, or an integrity rule, class 23). */
    static boolean isDataRefusal(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            // A failed JDBC batch reports the statement's own error as its next exception.
            for (SQLException sql = cause instanceof SQLException s ? s : null; sql != null; sql = sql.getNextException()) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                    return true;
                }
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    private SqlErrors() {
    }
}
