package dev.cryo.contracts.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes a broker's SCRAM credentials and ACLs those of {@link KafkaPrincipals#all()}: each principal's
 * password is set (SCRAM-SHA-512, 8192 iterations), its ACLs are exactly READ on the topics it reads, WRITE
 * on those it writes and READ on the consumer groups of its prefix; an ACL of those principals that is not
 * in the list is deleted, so a narrowed list narrows the broker.
 */
public final class PrincipalAdmin {

    private static final int ITERATIONS = 8192;

    static Map<String, String> readCredentials(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        Map<String, String> credentials = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> credentials.put(name, properties.getProperty(name)));
        return credentials;
    }

    static void provision(Admin admin, Map<String, String> credentials) throws Exception {
        List<String> missing = KafkaPrincipals.all().keySet().stream()
                .filter(name -> credentials.getOrDefault(name, "").isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("The credentials file has no password for " + missing);
        }
        List<UserScramCredentialUpsertion> upserts = KafkaPrincipals.all().keySet().stream()
                .map(name -> new UserScramCredentialUpsertion(name,
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, ITERATIONS), credentials.get(name)))
                .toList();
        admin.alterUserScramCredentials(List.copyOf(upserts)).all().get(30, TimeUnit.SECONDS);

        Set<AclBinding> wanted = new HashSet<>();
        KafkaPrincipals.all().values().forEach(principal -> wanted.addAll(bindings(principal)));
        Set<AclBinding> present = new HashSet<>();
        for (String name : KafkaPrincipals.all().keySet()) {
            present.addAll(admin.describeAcls(new AclBindingFilter(ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter(user(name), null, AclOperation.ANY, AclPermissionType.ANY)))
                    .values().get(30, TimeUnit.SECONDS));
        }
        Set<AclBinding> stale = new HashSet<>(present);
        stale.removeAll(wanted);
        if (!stale.isEmpty()) {
            admin.deleteAcls(stale.stream().map(AclBinding::toFilter).toList()).all().get(30, TimeUnit.SECONDS);
        }
        Set<AclBinding> missingAcls = new HashSet<>(wanted);
        missingAcls.removeAll(present);
        if (!missingAcls.isEmpty()) {
            admin.createAcls(missingAcls).all().get(30, TimeUnit.SECONDS);
        }
        System.out.println("principals: " + upserts.size() + " credentials set, " + missingAcls.size()
                + " ACLs added, " + stale.size() + " removed");
    }

    /** The ACLs one principal has, exactly: what every broker Cryo runs on gives it (Strimzi's KafkaUsers too). */
    public static Collection<AclBinding> bindings(KafkaPrincipals.Principal principal) {
        List<AclBinding> bindings = new ArrayList<>();
        principal.reads().forEach(topic -> bindings.add(allow(principal.name(),
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.READ)));
        principal.writes().forEach(topic -> bindings.add(allow(principal.name(),
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.WRITE)));
        if (!principal.reads().isEmpty()) {
            bindings.add(allow(principal.name(),
                    new ResourcePattern(ResourceType.GROUP, principal.groupPrefix(), PatternType.PREFIXED), AclOperation.READ));
        }
        return bindings;
    }

    private static AclBinding allow(String principal, ResourcePattern resource, AclOperation operation) {
        return new AclBinding(resource, new AccessControlEntry(user(principal), "*", operation, AclPermissionType.ALLOW));
    }

    private static String user(String name) {
        return "User:" + name;
    }

    private PrincipalAdmin() {
    }
}
