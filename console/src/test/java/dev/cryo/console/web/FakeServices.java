package dev.cryo.console.web;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Starts fakes of the scanner, scorer, planner, governor and executor for the console's web tests and
 * points the console at them. The audit service is pointed at a port where nothing listens, so every
 * test also shows how a page looks with one service down.
 */
public class FakeServices implements QuarkusTestResourceLifecycleManager {

    static FakeService scanner;
    static FakeService scorer;
    static FakeService planner;
    static FakeService governor;
    static FakeService executor;
    static int closedPort;

    @Override
    public Map<String, String> start() {
        try {
            scanner = new FakeService("scanner");
            scorer = new FakeService("scorer");
            planner = new FakeService("planner");
            governor = new FakeService("governor");
            executor = new FakeService("executor");
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                closedPort = socket.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "cryo.console.services.scanner", scanner.uri().toString(),
                "cryo.console.services.scorer", scorer.uri().toString(),
                "cryo.console.services.planner", planner.uri().toString(),
                "cryo.console.services.governor", governor.uri().toString(),
                "cryo.console.services.executor", executor.uri().toString(),
                "cryo.console.services.audit", "http://127.0.0.1:" + closedPort,
                "cryo.console.connect-timeout", "PT1S",
                "cryo.console.read-timeout", "PT3S");
    }

    static void resetAll() {
        scanner.reset();
        scorer.reset();
        planner.reset();
        governor.reset();
        executor.reset();
    }

    @Override
    public void stop() {
        for (FakeService fake : new FakeService[] {scanner, scorer, planner, governor, executor}) {
            if (fake != null) {
                fake.close();
            }
        }
    }
}
