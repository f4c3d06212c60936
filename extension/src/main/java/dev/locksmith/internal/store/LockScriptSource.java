package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts the Lua sources of the lock operations into their top-level definitions, and makes of each
 * operation a script of its own holding the helpers it uses and nothing else. The sources are
 * {@link #FILES}, split by concern and read in that order: a helper may use the helpers defined
 * above it, in its own file or an earlier one, and a name is defined once across them all.
 *
 * <p>Redis runs a script's whole top level on every call: one script holding every operation
 * rebuilt every helper and every operation on each call, about 2.7 µs of Redis time per call
 * measured with {@code redis-benchmark}, more than the commands of an uncontended acquire. For the
 * same reason the operation's body is the script's own top level, not a function of its own.
 *
 * <p>The source is a sequence of definitions at column 0 ({@code local NAME = ...},
 * {@code local function NAME(...)}, {@code function ops.NAME()},
 * {@code ops.NAME = function()} or {@code ops['NAME'] = function()}), each with the comment
 * block right above it. A comment block followed by a blank line is a section comment and
 * belongs to no definition; blank lines are left out. Any other code at column 0 is refused, so
 * an edit that the cutting would misread fails the build's tests, not a call in production.
 *
 * <p>An operation's comment block names its KEYS and ARGV, one line each ({@link ScriptSignature}):
 * the signature every call of it is checked against. Operations defined on consecutive lines, with
 * no blank line between them, share the block above the first (as {@code acquire-read} and
 * {@code acquire-write} do).
 */
final class LockScriptSource {
    private static final Pattern HELPER = Pattern.compile("^local (?:function )?([A-Za-z_][A-Za-z0-9_]*)\\b");
    private static final Pattern OPERATION = Pattern.compile(
            "^(?:function ops\\.([a-z]+)\\(|ops\\.([a-z]+) = function|ops\\['([a-z-]+)'] = function)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ONE_LINE_BODY = Pattern.compile("^.*= function\\(\\) (.*) end$");

    /**
     * The library's Lua files, without {@code .lua}, in the order they are read: the shared helpers
     * first, then one file per concern.
     */
    static final List<String> FILES = List.of("common", "exclusive", "fair", "read-write", "leases", "administration");

    private LockScriptSource() {
    }

    /**
     * @return each operation of the library's {@link #FILES}, by name
     */
    static Map<String, LockOperation> library() {
        Map<String, String> sources = new LinkedHashMap<>();
        for (String file : FILES) {
            sources.put(file + ".lua", LuaScript.source(file));
        }
        return operations(sources);
    }

    /**
     * @param sources each Lua source by the file name that names it in messages, such as
     *                {@code exclusive.lua}, in the order they are read
     * @return each operation, by name
     * @throws IllegalStateException if a source has code at column 0 that is no definition, a name is
     *                               defined twice, a helper uses one defined after it, or an
     *                               operation's header has a signature line it cannot read
     */
    static Map<String, LockOperation> operations(Map<String, String> sources) {
        List<Definition> helpers = new ArrayList<>();
        Map<String, Operation> operations = new LinkedHashMap<>();
        sources.forEach((file, source) -> cut(file, source, helpers, operations));
        requireEarlierHelpers(helpers);
        Map<String, LockOperation> scripts = new LinkedHashMap<>();
        operations.forEach((name, operation) -> scripts.put(name, new LockOperation(name,
                LuaScript.of(operation.file() + " " + name, compose(helpers, name, operation.text())),
                operation.signature())));
        return Map.copyOf(scripts);
    }

    /**
     * @param file   names the source in messages, such as {@code common.lua}
     * @param source the Lua source
     * @return each operation, by name
     * @throws IllegalStateException as {@link #operations(Map)}
     */
    static Map<String, LockOperation> operations(String file, String source) {
        return operations(Map.of(file, source));
    }

    /** A local helper is resolved where it is defined: one used above its definition would be nil there. */
    private static void requireEarlierHelpers(List<Definition> helpers) {
        for (int i = 0; i < helpers.size(); i++) {
            Set<String> used = identifiers(helpers.get(i).text());
            for (Definition later : helpers.subList(i + 1, helpers.size())) {
                if (used.contains(later.name())) {
                    throw new IllegalStateException(helpers.get(i).file() + ": helper " + helpers.get(i).name()
                            + " uses " + later.name() + ", which " + later.file() + " defines after it; move "
                            + later.name() + " above it, or into an earlier file");
                }
            }
        }
    }

    private static void cut(String file, String source, List<Definition> helpers, Map<String, Operation> operations) {
        List<String> comment = new ArrayList<>();
        StringBuilder current = null;
        String name = null;
        boolean operation = false;
        ScriptSignature signature = null;
        boolean adjacent = false; // no blank line since the definition before
        String[] lines = source.split("\n", -1);
        for (int number = 1; number <= lines.length; number++) {
            String line = lines[number - 1];
            if (line.startsWith("--")) {
                comment.add(line);
                continue;
            }
            if (line.isBlank()) {
                comment.clear();
                adjacent = false;
                continue;
            }
            boolean body = Character.isWhitespace(line.charAt(0)) || line.equals("end");
            if (body && current != null && comment.isEmpty()) {
                current.append(line).append('\n');
                continue;
            }
            Matcher helper = HELPER.matcher(line);
            Matcher op = OPERATION.matcher(line);
            boolean isOperation = !body && op.find();
            if (body || !(isOperation || helper.find())) {
                throw new IllegalStateException(file + " line " + number + " is neither a definition at column 0 nor"
                        + " inside one: " + line);
            }
            finish(file, name, operation, signature, current, helpers, operations);
            boolean shares = isOperation && operation && adjacent && comment.isEmpty();
            operation = isOperation;
            name = isOperation ? firstGroup(op) : helper.group(1);
            if (isOperation) {
                signature = shares ? signature.of(name)
                        : ScriptSignature.parse(file, name, comment, number - comment.size());
            }
            adjacent = true;
            current = new StringBuilder();
            for (String text : comment) {
                current.append(text).append('\n');
            }
            current.append(line).append('\n');
            comment.clear();
        }
        finish(file, name, operation, signature, current, helpers, operations);
    }

    private static void finish(String file, String name, boolean operation, ScriptSignature signature,
                               StringBuilder text, List<Definition> helpers, Map<String, Operation> operations) {
        if (name == null) {
            return;
        }
        String definedBefore = operations.containsKey(name) ? operations.get(name).file()
                : helpers.stream().filter(helper -> helper.name().equals(name)).map(Definition::file).findFirst()
                .orElse(null);
        if (definedBefore != null) {
            throw new IllegalStateException(file + " defines " + name + ", which " + definedBefore
                    + " defines already; give one of them another name");
        }
        if (operation) {
            operations.put(name, new Operation(file, text.toString(), signature));
        } else {
            helpers.add(new Definition(file, name, text.toString()));
        }
    }

    private static String firstGroup(Matcher matcher) {
        for (int group = 1; group <= matcher.groupCount(); group++) {
            if (matcher.group(group) != null) {
                return matcher.group(group);
            }
        }
        throw new IllegalStateException("no name in " + matcher.group());
    }

    /** The helpers the operation reaches, directly or through other helpers, in source order. */
    private static String compose(List<Definition> helpers, String name, String text) {
        Set<String> used = identifiers(text);
        Set<Definition> needed = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Definition helper : helpers) {
                if (used.contains(helper.name()) && needed.add(helper)) {
                    used.addAll(identifiers(helper.text()));
                    grew = true;
                }
            }
        }
        StringBuilder script = new StringBuilder();
        for (Definition helper : helpers) {
            if (needed.contains(helper)) {
                script.append(helper.text());
            }
        }
        return script.append(topLevel(name, text)).toString();
    }

    /**
     * The operation's body as the script's own top level, its comment block kept: Redis runs a script
     * as a function already, so a table of operations and a function for the one called would be
     * built on every call for nothing (about 1,900 instructions of Redis per call, counted with
     * {@code ScriptInstructions}' harness).
     *
     * @throws IllegalStateException if the operation is not defined as {@code function ops.NAME()} or
     *                               {@code ops.NAME = function()} or {@code ops['NAME'] = function()}
     *                               with its body on the lines below and {@code end} alone on the last,
     *                               or on one line
     */
    private static String topLevel(String name, String text) {
        StringBuilder script = new StringBuilder();
        String[] lines = text.split("\n");
        int definition = 0;
        while (lines[definition].startsWith("--")) {
            script.append(lines[definition++]).append('\n');
        }
        Matcher oneLine = ONE_LINE_BODY.matcher(lines[definition]);
        if (definition == lines.length - 1 && oneLine.matches()) {
            return script.append(oneLine.group(1)).append('\n').toString();
        }
        if (!lines[definition].endsWith("function()") && !lines[definition].endsWith("()")
                || !lines[lines.length - 1].equals("end")) {
            throw new IllegalStateException("Operation " + name + " must be defined as 'function ops." + name
                    + "()' (or 'ops[...] = function()') with its body below and 'end' alone on its last line, or on"
                    + " one line; it begins: " + lines[definition]);
        }
        for (int line = definition + 1; line < lines.length - 1; line++) {
            script.append(lines[line]).append('\n');
        }
        return script.toString();
    }

    private static Set<String> identifiers(String lua) {
        Set<String> names = new HashSet<>();
        for (String line : lua.split("\n")) {
            int comment = line.indexOf("--");
            Matcher identifier = IDENTIFIER.matcher(comment < 0 ? line : line.substring(0, comment));
            while (identifier.find()) {
                names.add(identifier.group());
            }
        }
        return names;
    }

    private record Definition(String file, String name, String text) {
    }

    private record Operation(String file, String text, ScriptSignature signature) {
    }
}
