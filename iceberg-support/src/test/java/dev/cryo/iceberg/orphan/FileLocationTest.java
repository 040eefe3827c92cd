package dev.cryo.iceberg.orphan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How locations are split and compared: the rules that decide whether a listed file is referenced. */
class FileLocationTest {

    @Test
    void theSpellingsOfALocalFileHaveOnePath() {
        assertThat(FileLocation.parse("file:/tmp/wh/t/data/a.parquet"))
                .isEqualTo(new FileLocation("file", null, "/tmp/wh/t/data/a.parquet"));
        assertThat(FileLocation.parse("file:///tmp/wh/t/data/a.parquet"))
                .isEqualTo(new FileLocation("file", null, "/tmp/wh/t/data/a.parquet"));
        assertThat(FileLocation.parse("/tmp/wh/t//data/a.parquet"))
                .isEqualTo(new FileLocation(null, null, "/tmp/wh/t/data/a.parquet"));
        assertThat(FileLocation.parse("file:/tmp/wh/t/").path()).isEqualTo("/tmp/wh/t");
    }

    @Test
    void objectStoreAndHdfsLocationsKeepTheirAuthority() {
        assertThat(FileLocation.parse("s3://bucket/wh/db/events/data/a b%zz.parquet"))
                .isEqualTo(new FileLocation("s3", "bucket", "/wh/db/events/data/a b%zz.parquet"));
        assertThat(FileLocation.parse("S3A://bucket/wh")).isEqualTo(new FileLocation("s3a", "bucket", "/wh"));
        assertThat(FileLocation.parse("hdfs://namenode:8020/warehouse/t"))
                .isEqualTo(new FileLocation("hdfs", "namenode:8020", "/warehouse/t"));
        assertThat(FileLocation.parse("abfss://container@account.dfs.core.windows.net/t/x"))
                .isEqualTo(new FileLocation("abfss", "container@account.dfs.core.windows.net", "/t/x"));
        assertThat(FileLocation.parse("s3://bucket")).isEqualTo(new FileLocation("s3", "bucket", "/"));
    }

    @Test
    void pathsHaveOneCanonicalFormWhateverTheirSpelling() {
        FileLocation plain = FileLocation.parse("s3://b/wh/t/data/a:b.parquet");
        assertThat(FileLocation.parse("s3://b/wh/t/data/a%3Ab.parquet")).isEqualTo(plain);
        assertThat(FileLocation.parse("s3://b/wh/t/data/a%3ab.parquet")).isEqualTo(plain);
        assertThat(FileLocation.parse("s3://b/wh/./t/data/a:b.parquet")).isEqualTo(plain);
        assertThat(FileLocation.parse("s3://b/wh/x/../t/data/a:b.parquet")).isEqualTo(plain);
        assertThat(FileLocation.parse("s3://b/wh//t///data/a:b.parquet")).isEqualTo(plain);
        assertThat(FileLocation.parse("s3://b/wh/t/data/").path()).isEqualTo("/wh/t/data");
        // an escaped slash is a slash, an escaped dot segment a dot segment
        assertThat(FileLocation.parse("s3://b/wh/t%2Fdata/x%2F..%2Fa:b.parquet")).isEqualTo(plain);
        // '..' cannot climb above the root
        assertThat(FileLocation.parse("file:/../../wh").path()).isEqualTo("/wh");
        assertThat(FileLocation.parse("data/../../x").path()).isEqualTo("../x");
        // UTF-8 escapes decode to their text; escapes that are no UTF-8 stay as written
        assertThat(FileLocation.parse("file:/wh/caf%C3%A9").path()).isEqualTo("/wh/café");
        assertThat(FileLocation.parse("file:/wh/a%FFb%zz").path()).isEqualTo("/wh/a%FFb%zz");
    }

    @Test
    void aSpellingIsThePathAsWritten() {
        assertThat(FileLocation.spelling("s3://b/wh//t/%41")).isEqualTo("/wh//t/%41");
        assertThat(FileLocation.isCanonicallySpelled("s3://b/wh/t/a.parquet")).isTrue();
        assertThat(FileLocation.isCanonicallySpelled("file:///wh/t/a.parquet")).isTrue();
        assertThat(FileLocation.isCanonicallySpelled("s3://b/wh//t/a.parquet")).isFalse();
        assertThat(FileLocation.isCanonicallySpelled("s3://b/wh/./t/a.parquet")).isFalse();
        assertThat(FileLocation.isCanonicallySpelled("s3://b/wh/t/a%20b.parquet")).isFalse();
        assertThat(FileLocation.isCanonicallySpelled("s3://b/wh/t/")).isFalse();
    }

    @Test
    void locationsWithinOthersAndRoots() {
        FileLocation outer = FileLocation.parse("s3://b/wh/outer");
        assertThat(FileLocation.parse("s3://b/wh/outer/inner").isWithin(outer)).isTrue();
        assertThat(FileLocation.parse("s3://b/wh/outer/").isWithin(outer)).isTrue();
        assertThat(FileLocation.parse("s3://b/wh/outer_2").isWithin(outer)).isFalse();
        assertThat(FileLocation.parse("s3://c/wh/outer/inner").isWithin(outer)).isFalse();
        assertThat(FileLocation.parse("s3://b").isRoot()).isTrue();
        assertThat(FileLocation.parse("s3://b/").isRoot()).isTrue();
        assertThat(FileLocation.parse("s3://b/./x/..").isRoot()).isTrue();
        assertThat(FileLocation.parse("file:/").isRoot()).isTrue();
        assertThat(FileLocation.parse("s3://b/t").isRoot()).isFalse();
    }

    @Test
    void aSiblingWithTheSamePrefixIsNotUnderTheLocation() {
        FileLocation events = FileLocation.parse("s3://b/wh/db/events");
        assertThat(FileLocation.parse("s3://b/wh/db/events/data/a.parquet").relativeTo(events)).isEqualTo("data/a.parquet");
        assertThat(FileLocation.parse("s3://b/wh/db/events_archive/data/a.parquet").relativeTo(events)).isNull();
        assertThat(FileLocation.parse("s3://b/wh/db/events").relativeTo(events)).isNull();
        assertThat(FileLocation.parse("s3://other/wh/db/events/data/a.parquet").relativeTo(events)).isNull();
        assertThat(FileLocation.parse("file:/wh/db/events/a").relativeTo(FileLocation.parse("/wh/db/events/"))).isEqualTo("a");
    }

    @Test
    void s3SchemesAreEquivalentByDefaultAndOnlyThenTheSameStorage() {
        FileLocation listed = FileLocation.parse("s3://b/t/data/a.parquet").canonical(LocationEquivalence.DEFAULT);
        FileLocation referenced = FileLocation.parse("s3a://b/t/data/a.parquet").canonical(LocationEquivalence.DEFAULT);
        assertThat(listed.sameStorage(referenced)).isTrue();

        FileLocation strictListed = FileLocation.parse("s3://b/t/data/a.parquet").canonical(LocationEquivalence.NONE);
        FileLocation strictReferenced = FileLocation.parse("s3a://b/t/data/a.parquet").canonical(LocationEquivalence.NONE);
        assertThat(strictListed.sameStorage(strictReferenced)).isFalse();
        assertThat(strictListed.path()).isEqualTo(strictReferenced.path());
    }

    @Test
    void authoritiesAreEqualOnlyWhenSpelledAlikeOrDeclared() {
        FileLocation withPort = FileLocation.parse("hdfs://nn:8020/w/t/a");
        FileLocation withoutPort = FileLocation.parse("hdfs://nn/w/t/a");
        assertThat(withPort.canonical(LocationEquivalence.DEFAULT).sameStorage(withoutPort.canonical(LocationEquivalence.DEFAULT)))
                .isFalse();
        LocationEquivalence declared = new LocationEquivalence(List.of(), LocationEquivalence.parseGroups(List.of("nn:8020 nn")));
        assertThat(withPort.canonical(declared).sameStorage(withoutPort.canonical(declared))).isTrue();
        // a location without scheme or authority matches any: Iceberg resolved it against the table's storage
        assertThat(FileLocation.parse("/w/t/a").sameStorage(withPort)).isTrue();
    }

    @Test
    void equivalenceGroupsAreReadFromConfigurationValues() {
        assertThat(LocationEquivalence.parseGroups(List.of("s3 s3a s3n"))).containsExactly(List.of("s3", "s3a", "s3n"));
        assertThat(LocationEquivalence.parseGroups(List.of("none"))).isEmpty();
        assertThatThrownBy(() -> LocationEquivalence.parseGroups(List.of("s3")))
                .hasMessage("Cannot read equivalence group 's3': name at least two schemes or authorities separated by"
                        + " spaces, e.g. 's3 s3a s3n'");
        assertThatThrownBy(() -> new LocationEquivalence(List.of(List.of("s3", "s3a"), List.of("s3a", "gs")), List.of()))
                .hasMessage("Cannot declare equivalent schemes: 's3a' is in two groups; merge them into one");
    }
}
