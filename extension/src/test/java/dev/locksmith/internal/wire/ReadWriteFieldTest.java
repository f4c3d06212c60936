package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.internal.wire.ReadWriteField.Kind;
import org.junit.jupiter.api.Test;

/**
 * The read/write lock's hash fields on the Java side: each kind reads back as it was written, and
 * a field of another form reads as none.
 */
class ReadWriteFieldTest {

    @Test
    void everyKindReadsBackAsItWasWritten() {
        for (Kind kind : Kind.values()) {
            ReadWriteField field = new ReadWriteField(kind, kind.perOwner() ? "m1:17" : "");

            assertThat(ReadWriteField.parse(field.text())).as("%s", kind).contains(field);
        }
    }

    @Test
    void holdAndExpiryFieldsAreNamedAsTheScriptsNameThem() {
        assertThat(ReadWriteField.hold(true, "m1:17").text()).isEqualTo("r:m1:17");
        assertThat(ReadWriteField.hold(false, "m1:17").text()).isEqualTo("w:m1:17");
        assertThat(ReadWriteField.expiry("m1:17").text()).isEqualTo("e:m1:17");
        assertThat(ReadWriteField.parse("q:m1:17")).contains(new ReadWriteField(Kind.WAITING, "m1:17"));
        assertThat(ReadWriteField.parse("x")).contains(new ReadWriteField(Kind.OFFER, ""));
    }

    @Test
    void aFieldOfAnotherFormIsNoneThisVersionReads() {
        for (String other : new String[] {"", "z:m1:17", "xx", "of", "r", "f:m1:17"}) {
            assertThat(ReadWriteField.parse(other)).as("'%s'", other).isEmpty();
        }
    }

    @Test
    void aFieldOfTheWholeHashHasNoOwner() {
        assertThatThrownBy(() -> new ReadWriteField(Kind.RING, "m1:17")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RING").hasMessageContaining("'m1:17'");
    }
}
