package dev.cryo.deploy;

import dev.cryo.contracts.Topics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Renders each overlay with {@code kubectl kustomize} and checks every rule of {@link KubernetesRules}
 * on the result.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubernetesManifestsTest {

    private final Map<String, List<Manifest>> rendered = new HashMap<>();
    private ValidationContext context;

    @BeforeAll
    void render() {
        context = ValidationContext.ofRepository();
        generateDevSecrets(context.repository().overlay("dev"));
        for (String overlay : List.of("dev", "prod")) {
            rendered.put(overlay, Manifest.parseAll(Kustomize.render(context.repository().overlay(overlay))));
        }
    }

    @Test
    void theDevOverlayHoldsNoSecretValue() throws IOException {
        String kustomization = Files.readString(context.repository().overlay("dev").resolve("kustomization.yaml"));
        assertThat(kustomization).as("secret values come from the generated, git-ignored secrets/*.env")
                .doesNotContain("literals:").doesNotContainIgnoringCase("password=");
        assertThat(rendered.get("dev")).filteredOn(manifest -> manifest.kind().equals("Secret"))
                .extracting(Manifest::name)
                .containsExactlyInAnyOrder("cryo-db", "cryo-api-tokens", "cryo-console",
                        "cryo-db-scanner", "cryo-db-scanner-owner", "cryo-db-scorer", "cryo-db-scorer-owner",
                        "cryo-db-planner", "cryo-db-planner-owner", "cryo-db-governor", "cryo-db-governor-owner",
                        "cryo-db-executor", "cryo-db-executor-owner", "cryo-db-audit", "cryo-db-audit-owner");
    }

    /** The dev overlay's Secrets are random values its script writes once (git-ignored), as a user would. */
    private static void generateDevSecrets(Path overlay) {
        try {
            Process process = new ProcessBuilder(overlay.resolve("generate-secrets.sh").toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("Cannot generate the dev overlay's secrets with "
                        + overlay.resolve("generate-secrets.sh"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted generating the dev overlay's secrets", e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyRuleHoldsForTheOverlay(String overlay) {
        assertThat(new KubernetesRules(context).problems(rendered.get(overlay))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyServiceOfTheArchitectureIsDeployed(String overlay) {
        List<String> deployments = rendered.get(overlay).stream()
                .filter(manifest -> manifest.kind().equals("Deployment")).map(Manifest::name).toList();

        assertThat(context.architecture().services())
                .containsExactlyInAnyOrder("scanner-svc", "scorer-svc", "planner-svc", "governor-svc",
                        "executor-svc", "audit-svc", "console");
        assertThat(deployments).containsExactlyInAnyOrderElementsOf(context.architecture().services());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyTopicOfTheContractsHasItsKafkaTopic(String overlay) {
        List<String> declared = rendered.get(overlay).stream()
                .filter(manifest -> manifest.kind().equals("KafkaTopic"))
                .map(manifest -> manifest.body().path("spec").path("topicName").asText()).toList();

        assertThat(declared).containsExactlyInAnyOrderElementsOf(Topics.all().stream().map(Topics.Spec::name).toList())
                .containsAll(context.architecture().topics());
    }

    @Test
    void everyKindThatTheOverlaysRenderIsCheckedByItsModelOrSchema() {
        List<String> kinds = rendered.values().stream().flatMap(List::stream)
                .map(manifest -> manifest.apiVersion() + "/" + manifest.kind()).distinct().sorted().toList();

        assertThat(context.kinds().kinds()).containsAll(kinds);
        assertThat(kinds).contains("keda.sh/v1alpha1/ScaledObject", "postgresql.cnpg.io/v1/Cluster",
                "kafka.strimzi.io/v1beta2/Kafka", "kafka.strimzi.io/v1beta2/KafkaNodePool",
                "kafka.strimzi.io/v1beta2/KafkaTopic", "kafka.strimzi.io/v1beta2/KafkaUser",
                "keda.sh/v1alpha1/TriggerAuthentication", "monitoring.coreos.com/v1/ServiceMonitor",
                "autoscaling/v2/HorizontalPodAutoscaler", "policy/v1/PodDisruptionBudget",
                "networking.k8s.io/v1/NetworkPolicy");
    }

    @Test
    void prodScalesExecutorsWithKedaAndDevWithTheHpaFallback() {
        assertThat(rendered.get("prod")).extracting(Manifest::reference)
                .contains("ScaledObject/executor-svc").doesNotContain("HorizontalPodAutoscaler/executor-svc");
        assertThat(rendered.get("dev")).extracting(Manifest::reference)
                .contains("HorizontalPodAutoscaler/executor-svc").doesNotContain("ScaledObject/executor-svc");
    }
}
