package dev.locksmith.internal.store;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The library's scripts as tests see them on the wire: each operation's SHA-1, to label an
 * {@code EVALSHA} (or the {@code EVAL} of the same text) with the operation's name, and their
 * texts, to load them into a server before a test counts commands.
 */
public final class ScriptLabels {
    private static final Map<String, LockOperation> OPERATIONS = LockScriptSource.library();

    private ScriptLabels() {
    }

    /**
     * @return every operation's name by its script's SHA-1 (lower-case hex)
     */
    public static Map<String, String> operationsBySha() {
        return OPERATIONS.entrySet().stream().collect(Collectors.toUnmodifiableMap(e -> e.getValue().script().sha(),
                Map.Entry::getKey));
    }

    /**
     * @return every operation's script text, for {@code SCRIPT LOAD}
     */
    public static List<String> bodies() {
        return OPERATIONS.values().stream().map(operation -> operation.script().body()).toList();
    }
}
