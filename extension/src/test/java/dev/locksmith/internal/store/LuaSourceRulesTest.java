package dev.locksmith.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.internal.redis.LuaScript;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Each value Redis holds is read by one helper and written by one across the Lua files, so that a
 * change of its format is made in one place: the patterns that read a value appear once, inside
 * its reader, and every other line asks that reader.
 */
class LuaSourceRulesTest {
    private static final String SOURCE = LockScriptSource.FILES.stream().map(LuaScript::source)
            .collect(Collectors.joining("\n"));

    @Test
    void everyValueHasOneReader() {
        Map<String, String> readers = Map.of(
                "'^(.)([^|]*)|(%d+)|(%d+)|(%d*)|([^|]*)|(.*)$'", "exclusive_fields",
                "'^(%d+)|?(%d*)|?(.*)$'", "rw_hold_fields",
                "'^([^|]*)|(%d+)|(%d+)|?(%d*)$'", "write_offer_fields",
                "== request .. '|' then", "latch_answer",
                "'^(%d+)'", "run_started");

        readers.forEach((pattern, reader) -> {
            assertThat(count(Pattern.quote(pattern))).as("%s reads %s, once", reader, pattern).isOne();
            assertThat(SOURCE).as("the reader %s", reader).contains("local function " + reader + "(");
        });
    }

    @Test
    void offersAndHoldValuesHaveOneWriter() {
        assertThat(count(Pattern.quote("'o2|'"))).as("offer_message writes every offer").isOne();
        assertThat(count("'x', [a-z_]+ \\.\\. '\\|'")).as("write_offer_value writes every write offer").isZero();
        assertThat(SOURCE).contains("local function offer_message(", "local function rw_hold_value(",
                "local function write_offer_value(", "local function exclusive_value(");
    }

    private static int count(String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(SOURCE);
        int found = 0;
        while (matcher.find()) {
            found++;
        }
        return found;
    }
}
