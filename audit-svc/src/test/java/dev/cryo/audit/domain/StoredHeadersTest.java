package dev.cryo.audit.domain;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoredHeadersTest {

    @Test
    void headersThatAreNotTextSurviveAsBase64() {
        List<RecordHeader> headers = List.of(
                new RecordHeader("binary", new byte[] {0, (byte) 0xc3, 0x28}),
                new RecordHeader("nul", new byte[] {'a', 0, 'b'}),
                new RecordHeader("text", "héllo".getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("none", null),
                new RecordHeader("text", "again".getBytes(StandardCharsets.UTF_8)));
        RawRecord raw = new RawRecord("cryo.dlq.planner", 0, 0, Instant.EPOCH, "k", headers, new byte[] {'x'});

        String json = StoredHeaders.toJson(raw);

        assertThat(json).contains("\"base64\"", "\"value\":\"héllo\"", "{\"name\":\"none\",\"value\":null}");
        assertThat(StoredHeaders.fromJson(json)).as("every header back in its order, bytes unchanged")
                .containsExactlyElementsOf(headers);
        assertThat(raw.headerText("text")).as("the last header of a name").isEqualTo("again");
        assertThat(raw.headerText("binary")).as("not UTF-8").isNull();
        assertThat(raw.headerText("none")).isNull();
    }

    @Test
    void unreadableStoredHeadersAreRefusedWithTheReason() {
        assertThatThrownBy(() -> StoredHeaders.fromJson("not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot read stored headers:");
        assertThatThrownBy(() -> StoredHeaders.fromJson("[] []"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot read stored headers:");
    }
}
