package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;

import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Where one operation (or chunk) runs, and the engines of the policy passed over on the way,
 * each with its reason: what the result event reports.
 *
 * @param engine the engine that runs it
 * @param support how it runs there
 * @param passedOver earlier engines of the policy that cannot, in policy order
 */
public record Route(Engine engine, Support.Supported support, List<Support.NotSupported> passedOver) {

    public Route {
        requireNonNull(engine, "engine is null");
        requireNonNull(support, "support is null");
        passedOver = List.copyOf(requireNonNull(passedOver, "passedOver is null"));
    }

    /** One line for the result event: "ran on native: trino cannot (OPERATION_NOT_AVAILABLE) …". */
    public String explanation() {
        if (passedOver.isEmpty()) {
            return "ran on " + engine.id() + ", the first engine of the policy";
        }
        return "ran on " + engine.id() + ": " + passedOver.stream()
                .map(skip -> skip.engine().id() + " cannot (" + skip.limitation() + "): " + skip.reason())
                .collect(Collectors.joining("; "));
    }
}
