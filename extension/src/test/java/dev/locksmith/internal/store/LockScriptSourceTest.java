package dev.locksmith.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.testing.LocalRedisServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each operation's script is cut from the library's Lua files with exactly the helpers it reaches,
 * and Redis compiles every one of them.
 */
class LockScriptSourceTest {
    private static final Map<String, LockOperation> OPERATIONS = LockScriptSource.library();

    @Test
    void everyOperationOfTheSourceBecomesAScriptRedisCompiles() {
        assertThat(OPERATIONS).containsKeys("acquire", "release", "fair-acquire", "fair-release", "fair-leave",
                "hold-count", "acquire-read", "acquire-write", "release-read", "release-write", "give-up-write",
                "rw-hold", "renew", "release-all", "force-release", "raise-fence", "access", "manager", "inspect");
        LocalRedisServer server = LocalRedisServer.start();
        try {
            OPERATIONS.forEach((name, operation) -> assertThat(server.command("SCRIPT", "LOAD",
                    operation.script().body())).as("the SHA Redis gives %s", name).isEqualTo(operation.script().sha()));
        } finally {
            server.kill();
        }
    }

    @Test
    void anOperationCarriesTheHelpersItReachesAndNoOthers() {
        String acquire = OPERATIONS.get("acquire").script().body();
        assertThat(acquire).contains("local SEEDED", "local function next_token", "local function owned_by",
                "local function exclusive_value", "local function ask_to_be_woken", "-- acquire: first hold of an owner")
                .doesNotContain("local function rw_state", "local function answered_before", "ops['fair-acquire']");

        // release reaches answered_before only through begin_release, next_token for a grant's token,
        // and grant_of for a grant its owner holds on its word.
        assertThat(OPERATIONS.get("release").script().body()).contains("local function begin_release",
                "local function answered_before", "local function wake", "local function next_token",
                "local function grant_message", "local function grant_of").doesNotContain(
                "local function ask_to_be_woken", "local function now_ms");
        assertThat(OPERATIONS.get("acquire-read").script().body()).contains("local function rw_acquire",
                "local function rw_grant", "local function rw_state", "local function now_ms");
    }

    @Test
    void helpersComeBeforeTheOperationInSourceOrder() {
        String release = OPERATIONS.get("release").script().body();
        assertThat(release.indexOf("local function owned_by")).isLessThan(release.indexOf("local function begin_release"));
        assertThat(release.indexOf("local function begin_release")).isLessThan(release.indexOf("-- release: the last hold"));
    }

    @Test
    void codeAtColumnZeroThatIsNoDefinitionIsRefusedWithItsLine() {
        String source = """
                local function helper()
                    return 1
                end

                redis.call('del', KEYS[1])
                """;
        assertThatThrownBy(() -> LockScriptSource.operations("broken.lua", source))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("broken.lua line 5").hasMessageContaining("redis.call('del', KEYS[1])");
    }

    @Test
    void aSectionCommentBelongsToNoDefinition() {
        String source = """
                -- A section about nothing in particular.

                -- The answer.
                ops.answer = function()
                    return 42
                end
                """;
        assertThat(LockScriptSource.operations("small.lua", source).get("answer").script().body()).isEqualTo("""
                -- The answer.
                    return 42
                """);
    }

    @Test
    void anOperationsBodyIsTheScriptsTopLevelInEachFormOfDefinition() {
        String source = """
                local function twice(n)
                    return 2 * n
                end

                -- A.
                function ops.a()
                    return twice(1)
                end

                ops.b = function()
                    return twice(2)
                end

                -- C and D.
                ops['c'] = function() return twice(3) end
                ops['d'] = function() return twice(4) end
                """;
        Map<String, LockOperation> operations = LockScriptSource.operations("forms.lua", source);

        String twice = "local function twice(n)\n    return 2 * n\nend\n";
        assertThat(operations.get("a").script().body()).isEqualTo(twice + "-- A.\n    return twice(1)\n");
        assertThat(operations.get("b").script().body()).isEqualTo(twice + "    return twice(2)\n");
        assertThat(operations.get("c").script().body()).isEqualTo(twice + "-- C and D.\nreturn twice(3)\n");
        assertThat(operations.get("d").script().body()).isEqualTo(twice + "return twice(4)\n");
        LocalRedisServer server = LocalRedisServer.start();
        try {
            for (String name : List.of("a", "b", "c", "d")) {
                assertThat(server.command("EVAL", operations.get(name).script().body(), "0"))
                        .as("what Redis answers for %s", name).isEqualTo(Integer.toString(2 * (name.charAt(0) - 'a' + 1)));
            }
        } finally {
            server.kill();
        }
    }

    @Test
    void anOperationWhoseBodyDoesNotEndWithEndAloneIsRefusedWithItsFirstLine() {
        String source = """
                function ops.broken()
                    return 1 end
                """;
        assertThatThrownBy(() -> LockScriptSource.operations("broken.lua", source))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Operation broken must be defined as").hasMessageContaining("function ops.broken()");
    }

    @Test
    void everyFileOfTheLibraryIsReadAndNamesItsOperations() {
        assertThat(OPERATIONS.get("acquire").script().name()).isEqualTo("exclusive.lua acquire");
        assertThat(OPERATIONS.get("fair-acquire").script().name()).isEqualTo("fair.lua fair-acquire");
        assertThat(OPERATIONS.get("acquire-write").script().name()).isEqualTo("read-write.lua acquire-write");
        assertThat(OPERATIONS.get("renew").script().name()).isEqualTo("leases.lua renew");
        assertThat(OPERATIONS.get("inspect").script().name()).isEqualTo("administration.lua inspect");
        assertThat(OPERATIONS.get("acquire").script().body()).contains("local function next_token"); // from common.lua
    }

    @Test
    void aHelperThatUsesOneDefinedInALaterFileIsRefused() {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("first.lua", """
                local function outer()
                    return inner()
                end
                """);
        sources.put("second.lua", """
                local function inner()
                    return 1
                end

                ops.answer = function()
                    return outer()
                end
                """);

        assertThatThrownBy(() -> LockScriptSource.operations(sources)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("first.lua: helper outer uses inner, which second.lua defines after it");
    }

    @Test
    void aNameDefinedInTwoFilesIsRefused() {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("first.lua", "ops.answer = function()\n    return 1\nend\n");
        sources.put("second.lua", "ops.answer = function()\n    return 2\nend\n");

        assertThatThrownBy(() -> LockScriptSource.operations(sources)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("second.lua defines answer, which first.lua defines already");
    }

    @Test
    void anUnknownOperationNamesTheOnesThereAre() {
        assertThatThrownBy(() -> LockScript.script("acquire-everything"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no operation 'acquire-everything'").hasMessageContaining("acquire-read");
    }
}
