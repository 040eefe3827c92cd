package dev.cryo.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** CPU time and resident memory of processes, from /proc (Linux) and the JVM. */
public final class ProcessCpu {

    /** Linux's USER_HZ: the unit of utime and stime in /proc/pid/stat. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** CPU-seconds (user + system) the process has used so far; NaN when it cannot be read. */
    public static double cpuSeconds(long pid) {
        try {
            return ticks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU-seconds the process's JIT compiler threads (HotSpot's "C1 CompilerThread…" and "C2 CompilerThread…", whose
     * names Linux cuts to 15 characters) have used so far, summed over the threads alive now; NaN when it cannot be
     * read. A compiler thread that has already ended is not counted, so a delta can only under-state compilation.
     */
    public static double compilerSeconds(long pid) {
        try (var tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            double sum = 0;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException ended) {
                    continue;
                }
                if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    double seconds = threadSeconds(task);
                    if (!Double.isNaN(seconds)) {
                        sum += seconds;
                    }
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** {@link #compilerSeconds} of this JVM. */
    public static double ownCompilerSeconds() {
        return compilerSeconds(ProcessHandle.current().pid());
    }

    private static double threadSeconds(Path task) {
        try {
            return ticks(Files.readString(task.resolve("stat")));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // after "pid (comm) ": state is field 0, utime field 11, stime field 12
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    }

    /** Resident set size in MiB; NaN when it cannot be read. */
    public static double residentMiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    /** CPU-seconds of this JVM. */
    public static double ownCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    /** CPU-seconds of every running service, by name. */
    public static Map<String, Double> services(Environment environment) {
        Map<String, Double> cpu = new TreeMap<>();
        for (String service : Environment.SERVICES) {
            environment.servicePid(service).ifPresent(pid -> cpu.put(service, cpuSeconds(pid)));
        }
        return cpu;
    }

    /** Sum of the differences between two readings of {@link #services}. */
    public static double delta(Map<String, Double> before, Map<String, Double> after) {
        double sum = 0;
        for (Map.Entry<String, Double> entry : after.entrySet()) {
            Double start = before.get(entry.getKey());
            if (start != null && !start.isNaN() && !entry.getValue().isNaN()) {
                sum += entry.getValue() - start;
            }
        }
        return sum;
    }

    private ProcessCpu() {
    }
}
