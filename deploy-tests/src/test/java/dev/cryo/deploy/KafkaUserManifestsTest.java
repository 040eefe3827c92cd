package dev.cryo.deploy;

import dev.cryo.contracts.kafka.KafkaPrincipals;
import dev.cryo.contracts.kafka.PrincipalAdmin;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The KafkaUsers' ACLs are the ones contracts' {@link PrincipalAdmin#bindings} gives every other broker
 * ({@code TopicAdmin principals}): compared with that method itself.
 */
class KafkaUserManifestsTest {

    @Test
    void everyPrincipalsAclsAreThoseThatTopicAdminGivesIt() {
        for (KafkaPrincipals.Principal principal : KafkaPrincipals.all().values()) {
            Collection<AclBinding> admin = PrincipalAdmin.bindings(principal);
            Set<KafkaUserManifests.Acl> expected = admin.stream().map(binding -> {
                assertThat(binding.entry().principal()).isEqualTo("User:" + principal.name());
                assertThat(binding.entry().host()).isEqualTo("*");
                return new KafkaUserManifests.Acl(binding.pattern().resourceType().name().toLowerCase(Locale.ROOT),
                        binding.pattern().name(),
                        switch (binding.pattern().patternType()) {
                            case LITERAL -> "literal";
                            case PREFIXED -> "prefix";
                            default -> binding.pattern().patternType().name();
                        },
                        strimziOperation(binding.entry().operation().name()));
            }).collect(Collectors.toSet());

            assertThat(Set.copyOf(KafkaUserManifests.acls(principal))).as(principal.name()).isEqualTo(expected);
        }
    }

    @Test
    void onlyTheGovernorMayWriteAdmittedJobs() {
        List<String> writers = KafkaPrincipals.all().values().stream()
                .filter(principal -> KafkaUserManifests.acls(principal).contains(
                        new KafkaUserManifests.Acl("topic", "cryo.jobs.admitted.v1", "literal", "Write")))
                .map(KafkaPrincipals.Principal::name).toList();

        assertThat(writers).containsExactly("cryo-governor");
        assertThat(KafkaUserManifests.render()).contains("name: cryo-governor", "type: scram-sha-512")
                .doesNotContain("name: " + KafkaPrincipals.ADMIN + "\n");
    }

    /** READ as Read, WRITE as Write: Strimzi's spelling of Kafka's operations. */
    private static String strimziOperation(String kafka) {
        return kafka.charAt(0) + kafka.substring(1).toLowerCase(Locale.ROOT);
    }
}
