package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PlannedOperation;

/**
 * Turns one planned operation into the SQL of one engine. Pure: the same input gives the same
 * statements, nothing is executed. Every name is quoted and every value is a typed literal of
 * the engine's dialect; input that cannot be rendered safely fails with
 * {@link dev.cryo.enginesql.expression.CannotRenderException}.
 */
public interface SqlRenderer {

    Engine engine();

    /**
     * @param table the table, its catalog as Cryo names it (mapped to the engine's catalog name by the settings)
     * @param operation the planned operation with its parameters
     * @param chunk the chunk to rewrite for partition operations; null for whole-table operations
     */
    Rendering render(TableId table, PlannedOperation operation, Chunk chunk);
}
