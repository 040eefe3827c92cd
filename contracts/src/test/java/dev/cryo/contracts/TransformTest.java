package dev.cryo.contracts;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransformTest {

    @Test
    void readsEveryTransformTheScannerPrints() {
        assertThat(Transform.parse("identity").kind()).isEqualTo(Transform.Kind.IDENTITY);
        assertThat(Transform.parse(" Day ").kind()).isEqualTo(Transform.Kind.DAY);
        assertThat(Transform.parse("hour").kind().isTemporal()).isTrue();
        assertThat(Transform.parse("void").kind()).isEqualTo(Transform.Kind.VOID);
        assertThat(Transform.parse("bucket[16]")).isEqualTo(new Transform(Transform.Kind.BUCKET, 16, "bucket[16]"));
        assertThat(Transform.parse("TRUNCATE[4]")).isEqualTo(new Transform(Transform.Kind.TRUNCATE, 4, "TRUNCATE[4]"));
    }

    @Test
    void anUnknownTransformIsOtherAndKeepsItsText() {
        assertThat(Transform.parse("zorder(a, b)")).isEqualTo(new Transform(Transform.Kind.OTHER, 0, "zorder(a, b)"));
        assertThat(Transform.parse("bucket[-1]").kind()).isEqualTo(Transform.Kind.OTHER);
    }

    @Test
    void aParameterThatIsZeroOrTooLargeIsAnError() {
        assertThatThrownBy(() -> Transform.parse("bucket[0]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read transform 'bucket[0]': its parameter must be positive");
        assertThatThrownBy(() -> Transform.parse("truncate[99999999999]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read transform 'truncate[99999999999]': its parameter is too large");
    }
}
