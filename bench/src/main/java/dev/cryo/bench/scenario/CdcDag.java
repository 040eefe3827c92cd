package dev.cryo.bench.scenario;

import dev.cryo.bench.harness.BenchContext;
import dev.cryo.bench.harness.NativeDag;
import dev.cryo.bench.harness.SparkDag;
import dev.cryo.bench.harness.TrinoClient;
import dev.cryo.bench.harness.TrinoDag;
import dev.cryo.contracts.TableId;

/** Scenario 3's scheduled DAG, on the engine its variant names. */
final class CdcDag {

    private static final String TABLE = LiveCdc.TABLE;

    private CdcDag() {
    }

    /** One cycle of the scheduled DAG on its copy, and what it holds open between cycles. */
    interface DagCycle extends AutoCloseable {
        NativeDag.TableRun run();
    }

    /**
     * Native: executor-svc's engine in the harness JVM. Spark: {@link SparkDag}'s three procedures over Spark Connect.
     * Trino: the three statements over one JDBC connection.
     */
    static DagCycle dagCycle(BenchContext context, LiveCdc.Variant variant, String dagNamespace, TableId dagId,
                                     long target) throws Exception {
        switch (variant.dagEngine()) {
            case "spark" -> {
                SparkDag runner = new SparkDag(context.lakehouse());
                return new DagCycle() {
                    @Override
                    public NativeDag.TableRun run() {
                        return runner.run(dagNamespace, TABLE, target);
                    }

                    @Override
                    public void close() {
                        runner.close();
                    }
                };
            }
            case "trino" -> {
                TrinoClient client = TrinoClient.open(context.lakehouse().catalogName());
                TrinoDag runner = new TrinoDag(context.lakehouse());
                return new DagCycle() {
                    @Override
                    public NativeDag.TableRun run() {
                        return runner.run(client, dagNamespace, TABLE);
                    }

                    @Override
                    public void close() throws Exception {
                        client.close();
                    }
                };
            }
            default -> {
                NativeDag runner = new NativeDag(context.lakehouse().plainRegistry());
                return new DagCycle() {
                    @Override
                    public NativeDag.TableRun run() {
                        return runner.run(dagId);
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        }
    }
}
