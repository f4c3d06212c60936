package dev.locksmith.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every operation's header names its KEYS and ARGV in a form the source reader parses, and a call
 * built in Java that names them otherwise, or passes one too many or too few, is refused with
 * what the header expects.
 */
class ScriptSignatureTest {
    private static final Pattern INDEX = Pattern.compile("(KEYS|ARGV)\\[(\\d+)]");

    @Test
    void everyOperationsHeaderNamesAsManyValuesAsItsScriptReads() {
        assertThat(LockScript.operations()).hasSizeGreaterThan(20);
        LockScript.operations().forEach((name, operation) -> {
            ScriptSignature signature = operation.signature();
            assertThat(signature.keyNames(1)).as("the KEYS of %s", name).isNotEmpty();
            if (!name.equals("renew")) { // renew reads ARGV[2 * i], not a number
                String code = code(operation.script().body());
                assertThat(signature.keyNames(0)).as("the KEYS of %s", name).hasSize(highest(code, "KEYS"));
                assertThat(signature.argNames(0)).as("the ARGV of %s", name).hasSize(highest(code, "ARGV"));
            }
        });
    }

    @Test
    void aHeadersLinesGiveTheNamesInOrder() {
        ScriptSignature acquire = LockScript.operation("acquire").signature();

        assertThat(acquire.keyNames(0)).containsExactly("lock", "fence");
        assertThat(acquire.argNames(0)).containsExactly("owner", "lease", "since", "thread", "fence-life", "join-ring");
    }

    @Test
    void valuesRepeatedPerKeyRepeatAsOftenAsTheKeys() {
        ScriptSignature renew = LockScript.operation("renew").signature();

        assertThat(renew.keyNames(2)).containsExactly("lock", "lock");
        assertThat(renew.argNames(2)).containsExactly("lease", "hold", "expiry", "hold", "expiry");
        assertThat(LockScript.call("renew").key("lock", "a").key("lock", "b").arg("lease", 30_000)
                .arg("hold", "m:1").arg("expiry", "").arg("hold", "w:m:2").arg("expiry", "e:m:2").list().args())
                .containsExactly("30000", "m:1", "", "w:m:2", "e:m:2");
    }

    @Test
    void operationsOnConsecutiveLinesShareTheHeaderAboveTheFirst() {
        assertThat(LockScript.operation("acquire-write").signature().argNames(0))
                .isEqualTo(LockScript.operation("acquire-read").signature().argNames(0))
                .containsExactly("owner", "lease", "fence-life", "since", "thread", "join-ring");
    }

    @Test
    void aCallNamingAValueOtherwiseIsRefusedWithTheOperationThePositionAndBothNames() {
        LockScriptCall call = LockScript.call("hold-count").key("lock", "k").arg("owner", "m:1").arg("lease", 5)
                .arg("count", 2);

        assertThatThrownBy(call::integer).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation 'hold-count'").hasMessageContaining("exclusive.lua")
                .hasMessageContaining("ARGV[2] is 'count', but the call gives 'lease'")
                .hasMessageContaining("ARGV [owner, count, lease]");
    }

    @Test
    void aCallWithAValueTooFewOrTooManyIsRefusedAtThatPosition() {
        assertThatThrownBy(() -> LockScript.call("raise-fence").key("fence", "f").arg("token", 7).integer())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'raise-fence'").hasMessageContaining("ARGV[2] is 'fence-life', but the call gives none");
        assertThatThrownBy(() -> LockScript.call("recent-runs").key("runs", "r").key("lock", "l").list())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'recent-runs'").hasMessageContaining("KEYS[2] is not there, but the call gives 'lock'");
        assertThatThrownBy(() -> LockScript.call("renew").key("lock", "a").key("lock", "b").arg("lease", 1)
                .arg("hold", "m:1").arg("expiry", "").list())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ARGV[4] is 'hold', but the call gives none");
    }

    @Test
    void aMissingValueIsRefusedWithItsName() {
        assertThatThrownBy(() -> LockScript.call("raise-fence").key("fence", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("'raise-fence'").hasMessageContaining("KEYS 'fence'");
    }

    @Test
    void aSignatureLineOfAnotherFormIsRefusedWithItsLine() {
        String source = """
                -- answer: the answer
                -- KEYS[1] lock: the lock
                -- ARGV[1] owner, ARGV[2] lease ms
                ops.answer = function()
                    return 42
                end
                """;

        assertThatThrownBy(() -> LockScriptSource.operations("small.lua", source))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("small.lua line 3").hasMessageContaining("-- ARGV[1] owner, ARGV[2] lease ms");
    }

    @Test
    void aGapOrATwiceNamedPositionIsRefused() {
        assertThatThrownBy(() -> LockScriptSource.operations("gap.lua", """
                -- KEYS[1] lock: the lock
                -- ARGV[2] lease: lease ms
                ops.answer = function()
                    return 42
                end
                """)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gap.lua: the header of answer puts lease at ARGV[2]");
        assertThatThrownBy(() -> LockScriptSource.operations("twice.lua", """
                -- KEYS[1] lock: the lock
                -- KEYS[1] fence: the fencing counter
                ops.answer = function()
                    return 42
                end
                """)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("twice.lua: the header of answer names KEYS[1] twice, as lock and as fence");
    }

    /** The script without its comments. */
    private static String code(String lua) {
        StringBuilder code = new StringBuilder();
        for (String line : lua.split("\n")) {
            int comment = line.indexOf("--");
            code.append(comment < 0 ? line : line.substring(0, comment)).append('\n');
        }
        return code.toString();
    }

    private static int highest(String code, String side) {
        int highest = 0;
        Matcher index = INDEX.matcher(code);
        while (index.find()) {
            if (index.group(1).equals(side)) {
                highest = Math.max(highest, Integer.parseInt(index.group(2)));
            }
        }
        return highest;
    }

}
