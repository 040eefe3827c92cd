package dev.cryo.contracts.kafka;

import dev.cryo.contracts.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;

import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates Cryo's topics ({@link Topics#all()}) on a broker, waiting for it to accept
 * connections first. Existing topics are left as they are. With {@code principals} it gives each of
 * {@link KafkaPrincipals#all()} its SCRAM credential (from a properties file {@code principal=password})
 * and exactly the ACLs it names, removing any other ACL of those principals. Used by {@code ./cryo infra up},
 * Compose and anyone provisioning a broker; it connects with {@link KafkaClientSecurity#fromEnvironment()}:
 *
 * <pre>java -cp cryo-contracts.jar:kafka-clients.jar dev.cryo.contracts.kafka.TopicAdmin create|list|principals [bootstrap] [timeout-seconds] [credentials-file]</pre>
 */
public final class TopicAdmin {

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !List.of("create", "list", "principals").contains(args[0])
                || (args[0].equals("principals") && args.length < 4)) {
            System.err.println("usage: TopicAdmin create|list [bootstrap-servers] [timeout-seconds]\n"
                    + "       TopicAdmin principals bootstrap-servers timeout-seconds credentials-file");
            System.exit(2);
        }
        String bootstrap = args.length > 1 ? args[1] : "127.0.0.1:9092";
        Duration timeout = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 60);
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        KafkaClientSecurity.fromEnvironment().applyTo(properties);
        try (Admin admin = Admin.create(properties)) {
            Set<String> existing = awaitBroker(admin, bootstrap, timeout);
            switch (args[0]) {
                case "create" -> create(admin, existing);
                case "principals" -> PrincipalAdmin.provision(admin, PrincipalAdmin.readCredentials(Path.of(args[3])));
                default -> list(admin, existing);
            }
        }
    }

    private static Set<String> awaitBroker(Admin admin, String bootstrap, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try {
                return admin.listTopics().names().get(5, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                if (e.getCause() instanceof AuthenticationException || e.getCause() instanceof AuthorizationException) {
                    System.err.println("Kafka at " + bootstrap + " refused " + KafkaClientSecurity.fromEnvironment()
                            + ": " + e.getCause().getMessage());
                    System.exit(1);
                }
                if (Instant.now().isAfter(deadline)) {
                    System.err.println("Cannot reach Kafka at " + bootstrap + " within " + timeout.toSeconds() + " s: "
                            + e.getMessage());
                    System.exit(1);
                }
                Thread.sleep(500);
            }
        }
    }

    private static void create(Admin admin, Set<String> existing) throws Exception {
        List<NewTopic> missing = Topics.all().stream()
                .filter(spec -> !existing.contains(spec.name()))
                .map(spec -> new NewTopic(spec.name(), spec.partitions(), (short) 1).configs(spec.configs()))
                .toList();
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        }
        System.out.println("topics: " + missing.size() + " created, "
                + (Topics.all().size() - missing.size()) + " already present");
    }

    private static void list(Admin admin, Set<String> existing) throws Exception {
        List<String> present = Topics.all().stream().map(Topics.Spec::name).filter(existing::contains).toList();
        Map<String, TopicDescription> descriptions = admin.describeTopics(present).allTopicNames().get(30, TimeUnit.SECONDS);
        for (Topics.Spec spec : Topics.all()) {
            TopicDescription description = descriptions.get(spec.name());
            System.out.printf("%-28s %s%n", spec.name(),
                    description == null ? "missing" : description.partitions().size() + " partitions");
        }
    }

    private TopicAdmin() {
    }
}
