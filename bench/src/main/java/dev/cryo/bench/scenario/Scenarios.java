package dev.cryo.bench.scenario;

import java.util.List;

/** Every scenario of PROTOCOL.md, in order. */
public final class Scenarios {

    public static List<Scenario> all() {
        return List.of(new MixedFleet(), new Fragmented(), new LiveCdc(), new UserImpact(), new Reaction(),
                new ControlPlaneScale(), new MetadataScan(),
                new CompactionEngines());
    }

    private Scenarios() {
    }
}
