package dev.cryo.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.contracts.json.MalformedEventException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract of every event type: its golden sample validates against its JSON Schema and
 * round-trips through the record unchanged, and the schema names exactly the record's fields.
 * A breaking change to a record fails here.
 */
class EventContractTest {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    @ParameterizedTest
    @EnumSource(EventType.class)
    void goldenSampleValidatesAgainstSchema(EventType type) {
        Set<ValidationMessage> errors = schema(type).validate(GoldenSamples.sample(type));

        assertThat(errors).as("schema errors of the %s sample", type.id()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void goldenSampleRoundTripsThroughRecordUnchanged(EventType type) {
        CryoEvent event = EventJson.read(GoldenSamples.sampleBytes(type), type.payloadType());

        JsonNode written = GoldenSamples.tree(EventJson.write(event));

        assertThat(written).isEqualTo(GoldenSamples.sample(type));
        assertThat(EventType.of(event)).isEqualTo(type);
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void serializedRecordValidatesAgainstSchema(EventType type) {
        CryoEvent event = EventJson.read(GoldenSamples.sampleBytes(type), type.payloadType());

        Set<ValidationMessage> errors = schema(type).validate(GoldenSamples.tree(EventJson.write(event)));

        assertThat(errors).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void schemaNamesExactlyTheRecordComponents(EventType type) {
        JsonNode schema = GoldenSamples.tree(GoldenSamples.schemaBytes(type));
        JsonNode body = schema.has("properties") ? schema : resolve(schema, schema.get("$ref").asText());

        Set<String> schemaProperties = new TreeSet<>();
        body.get("properties").fieldNames().forEachRemaining(schemaProperties::add);
        Set<String> recordComponents = new TreeSet<>(Arrays.stream(type.payloadType().getRecordComponents())
                .map(RecordComponent::getName).toList());

        assertThat(schemaProperties).isEqualTo(recordComponents);
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void unknownFieldsAreIgnored(EventType type) {
        ObjectNode sample = (ObjectNode) GoldenSamples.sample(type);
        sample.put("fieldFromTheFuture", "v1 payloads may gain optional fields");

        CryoEvent event = EventJson.read(EventJson.writeString(sample).getBytes(StandardCharsets.UTF_8), type.payloadType());

        assertThat(GoldenSamples.tree(EventJson.write(event))).isEqualTo(GoldenSamples.sample(type));
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void schemaAndRecordBothRejectAMissingRequiredField(EventType type) {
        ObjectNode sample = (ObjectNode) GoldenSamples.sample(type);
        sample.remove("table");

        assertThat(schema(type).validate(sample))
                .extracting(ValidationMessage::getMessage)
                .anySatisfy(message -> assertThat(message).contains("table"));
        assertThatThrownBy(() -> EventJson.read(EventJson.writeString(sample).getBytes(StandardCharsets.UTF_8), type.payloadType()))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining("table is null");
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void everyTypeIsPublishedOnATopicOfTopics(EventType type) {
        assertThat(Topics.all()).extracting(Topics.Spec::name).contains(type.topic());
    }

    private static JsonSchema schema(EventType type) {
        return FACTORY.getSchema(GoldenSamples.tree(GoldenSamples.schemaBytes(type)));
    }

    private static JsonNode resolve(JsonNode schema, String pointer) {
        JsonNode node = schema;
        Iterator<String> parts = Arrays.asList(pointer.substring(2).split("/")).iterator();
        while (parts.hasNext()) {
            node = node.get(parts.next());
        }
        return node;
    }
}
