package dev.cryo.platform.persistence;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.error.ErrorCode;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import java.util.function.Supplier;

/**
 * What every entity store needs around its work: the caller's transaction or a new one, a database
 * failure (the commit's included) as a {@link CryoException} that names the action, and a lock that
 * orders writers of one key across instances. For services with Hibernate ORM only: the platform
 * depends on {@code jakarta.persistence} optionally.
 */
public final class EntityTransactions {

    private EntityTransactions() {
    }

    /** Runs the work in the caller's transaction, or in a new one committed before this returns. */
    public static <T> T call(ErrorCode failure, String action, Supplier<T> work) {
        try {
            return QuarkusTransaction.joiningExisting().call(work::get);
        } catch (PersistenceException | QuarkusTransactionException e) {
            throw new CryoException(failure, "Cannot " + action + ": " + e.getMessage(), e);
        }
    }

    /** {@link #call} for work without a result. */
    public static void run(ErrorCode failure, String action, Runnable work) {
        call(failure, action, () -> {
            work.run();
            return null;
        });
    }

    /**
     * Holds an exclusive PostgreSQL advisory lock on {@code scope/key} in the current schema until
     * the transaction ends: writers of one key (a table, a catalog) go one after the other, so the
     * second reads what the first stored instead of inserting the same rows again. A plain-SQL
     * database feature, the one native query an entity store needs.
     */
    public static void lock(EntityManager entities, String scope, String key) {
        entities.createNativeQuery("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ?1, 0)) IS NULL")
                .setParameter(1, "/" + scope + "/" + key)
                .getSingleResult();
    }
}
