package dev.cryo.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run measured: processors, memory, CPU model, load. */
final class Machine {

    static Map<String, String> describe() {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("nproc", String.valueOf(Runtime.getRuntime().availableProcessors()));
        machine.put("memory", memory());
        machine.put("cpu model", firstValue(Path.of("/proc/cpuinfo"), "model name"));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return machine;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String memory() {
        String total = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        try {
            long kib = Long.parseLong(total.replaceAll("[^0-9]", ""));
            return String.format(java.util.Locale.ROOT, "%.1f GiB", kib / 1048576.0);
        } catch (NumberFormatException e) {
            return total;
        }
    }

    private static String firstValue(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            return "unknown";
        }
        return "unknown";
    }

    private Machine() {
    }
}
