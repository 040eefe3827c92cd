package dev.cryo.bench.scenario;

import dev.cryo.bench.domain.Metric;
import dev.cryo.bench.domain.Statistics;
import dev.cryo.bench.domain.Target;

import java.util.ArrayList;
import java.util.List;

/** The per-trial values of one variant, and its metrics and targets. */
final class CdcTally {
    final LiveCdc.Variant variant;
    final List<Double> cryoAttempted = new ArrayList<>();
    final List<Double> cryoCommitted = new ArrayList<>();
    final List<Double> dagAttempted = new ArrayList<>();
    final List<Double> dagCommitted = new ArrayList<>();
    final List<Double> cryoCommitShare = new ArrayList<>();
    final List<Double> cryoMaxDeletesAfterSecondJob = new ArrayList<>();
    final List<Double> cryoMeanDeletes = new ArrayList<>();
    final List<Double> dagMeanDeletes = new ArrayList<>();
    final List<Double> merges = new ArrayList<>();
    final List<Double> cryoWriterConflicts = new ArrayList<>();
    final List<Double> dagWriterConflicts = new ArrayList<>();
    final List<Double> finalRows = new ArrayList<>();

    private final int minJobs;

    CdcTally(LiveCdc.Variant variant, int minJobs) {
        this.variant = variant;
        this.minJobs = minJobs;
    }

    List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>(List.of(
                new Metric("jobs attempted", "", variant.cryo(), cryoAttempted),
                new Metric("jobs committed", "", variant.cryo(), cryoCommitted),
                new Metric("steps attempted", "", variant.dag(), dagAttempted),
                new Metric("steps committed", "", variant.dag(), dagCommitted),
                new Metric("mean delete files", "files", variant.cryo(), cryoMeanDeletes),
                new Metric("mean delete files", "files", variant.dag(), dagMeanDeletes),
                new Metric("MERGE commits", "", variant.writers(), merges),
                new Metric("MERGE conflicts (read again, retried)", "", variant.cryo(), cryoWriterConflicts),
                new Metric("MERGE conflicts (read again, retried)", "", variant.dag(), dagWriterConflicts),
                new Metric("rows at the end", "rows", variant.writers(), finalRows)));
        if (!cryoMaxDeletesAfterSecondJob.isEmpty()) {
            metrics.add(new Metric("max delete files from Cryo's 2nd job on", "files", variant.cryo(),
                    cryoMaxDeletesAfterSecondJob));
        }
        return metrics;
    }

    Metric ratio() {
        return new Metric("mean delete files cryo ÷ dag", "", variant.cryo().replace("cryo", "cryo/dag"),
                Statistics.ratios(cryoMeanDeletes, dagMeanDeletes));
    }

    List<Target> targets() {
        String commits = "100 % of Cryo's jobs commit" + variant.label();
        String deletes = "delete files ≤ 6 from Cryo's second job on" + variant.label();
        return List.of(
                Target.atLeast("at least " + minJobs + " Cryo jobs per trial" + variant.label(), cryoAttempted,
                        minJobs, " jobs"),
                cryoCommitShare.isEmpty() ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, commits, "Cryo ran no job")
                        : Target.atLeast(commits, cryoCommitShare, 1.0, ""),
                cryoMaxDeletesAfterSecondJob.isEmpty()
                        ? Target.notEvaluated(Target.Rule.EVERY_TRIAL, deletes, "Cryo ran fewer than two jobs")
                        : Target.atMost(deletes, cryoMaxDeletesAfterSecondJob, 6, " files"));
    }
}
