package dev.locksmith.internal.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of one operation's KEYS and ARGV, in order, as its header in the Lua source gives
 * them: one line per value, {@code -- KEYS[1] lock: the lock} or {@code -- ARGV[2] lease: lease ms}.
 * A value repeated once per key of a variable number of keys is written {@code KEYS[i]}, and
 * {@code ARGV[2i]}, {@code ARGV[2i+1]} for its arguments (as {@code renew} has). Every call built
 * by {@link LockScriptCall} is checked against it, so a call that passes a value where the script
 * expects another fails in every test that runs it, not in production.
 */
final class ScriptSignature {
    /** A signature line: its side, its position ({@code 3}, {@code i}, {@code 2i+1}) and its name. */
    private static final Pattern ENTRY = Pattern.compile(
            "^-- (KEYS|ARGV)\\[(\\d+|\\d*i(?:\\+\\d+)?)] ([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?:: .*)?$");
    private static final Pattern LOOKS_LIKE_ENTRY = Pattern.compile("^-- ?(KEYS|ARGV)\\b");
    private static final Pattern REPEATED = Pattern.compile("(\\d*)i(?:\\+(\\d+))?");

    private final String operation;
    private final String file;
    private final Side keys;
    private final Side args;

    private ScriptSignature(String operation, String file, Side keys, Side args) {
        this.operation = operation;
        this.file = file;
        this.keys = keys;
        this.args = args;
    }

    /**
     * @param file      names the source in messages, such as {@code exclusive.lua}
     * @param operation the operation, such as {@code acquire}
     * @param header    the comment lines above the operation's definition
     * @param firstLine the line number of the header's first line in the file
     * @return the signature those lines give; none at all is an operation of no KEYS and no ARGV
     * @throws IllegalStateException if a line starting with {@code -- KEYS} or {@code -- ARGV} is
     *                               not of the form above, or the positions leave a gap or repeat
     */
    static ScriptSignature parse(String file, String operation, List<String> header, int firstLine) {
        List<Entry> keys = new ArrayList<>();
        List<Entry> args = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            String line = header.get(i);
            Matcher entry = ENTRY.matcher(line);
            if (entry.matches()) {
                (entry.group(1).equals("KEYS") ? keys : args).add(Entry.of(entry.group(2), entry.group(3)));
            } else if (LOOKS_LIKE_ENTRY.matcher(line).find()) {
                throw new IllegalStateException(file + " line " + (firstLine + i) + ", in the header of " + operation
                        + ", is no signature line: " + line + ". Write one value per line, as '-- KEYS[1] lock: the"
                        + " lock' or '-- ARGV[2] lease: lease ms'");
            }
        }
        String where = file + ": the header of " + operation;
        ScriptSignature signature = new ScriptSignature(operation, file, new Side(where, "KEYS", keys),
                new Side(where, "ARGV", args));
        signature.requireWellFormed();
        return signature;
    }

    /**
     * @return the signature of another operation that shares this one's header
     */
    ScriptSignature of(String otherOperation) {
        return new ScriptSignature(otherOperation, file, keys, args);
    }

    /**
     * @param keyNames the names a call gives its KEYS, in order
     * @param argNames the names it gives its ARGV, in order
     * @throws IllegalArgumentException naming the operation, the first position whose name differs
     *                                  (or is missing, or is one too many), the expected and the given name
     */
    void check(String[] keyNames, String[] argNames) {
        int perKey = keys.repeated().size();
        int times = perKey == 0 ? 0 : Math.max(0, (keyNames.length - keys.fixed().size() + perKey - 1) / perKey);
        compare(keys, keys.names(times), keyNames);
        compare(args, args.names(times), argNames);
    }

    /**
     * @return how many KEYS a call has besides the repeated ones (all of them for most operations)
     */
    int fixedKeyCount() {
        return keys.fixed().size();
    }

    /**
     * @return how many ARGV a call has besides the repeated ones
     */
    int fixedArgCount() {
        return args.fixed().size();
    }

    /**
     * @return the names of the KEYS, for a call of that many repetitions of the repeated ones
     */
    List<String> keyNames(int times) {
        return Arrays.asList(keys.names(times));
    }

    /**
     * @return the names of the ARGV, for a call of that many repetitions of the repeated ones
     */
    List<String> argNames(int times) {
        return Arrays.asList(args.names(times));
    }

    private void compare(Side side, String[] expected, String[] given) {
        for (int i = 0; i < Math.max(expected.length, given.length); i++) {
            String wanted = i < expected.length ? expected[i] : null;
            String got = i < given.length ? given[i] : null;
            if (wanted == null || !wanted.equals(got)) {
                throw new IllegalArgumentException("The call of script operation '" + operation + "' does not match"
                        + " its header in " + file + ": " + side.name() + "[" + (i + 1) + "] is "
                        + (wanted == null ? "not there" : "'" + wanted + "'") + ", but the call gives "
                        + (got == null ? "none" : "'" + got + "'") + ". The header names " + this
                        + "; name each value as it does, in its order");
            }
        }
    }

    private void requireWellFormed() {
        if (keys.repeated().isEmpty() && !args.repeated().isEmpty()) {
            throw new IllegalStateException(file + ": the header of " + operation + " repeats ARGV per key, but no"
                    + " KEYS[i] says which keys repeat");
        }
        for (int times = 0; times <= 2; times++) {
            keys.names(times);
            args.names(times);
        }
    }

    @Override
    public String toString() {
        return "KEYS " + keys + " and ARGV " + args;
    }

    /** One side of a call, KEYS or ARGV: the names at fixed positions, and those repeated per key. */
    private static final class Side {
        private final String where;
        private final String name;
        private final List<Entry> fixed;
        private final List<Entry> repeated;

        Side(String where, String name, List<Entry> entries) {
            this.where = where;
            this.name = name;
            this.fixed = entries.stream().filter(entry -> entry.step() == 0).toList();
            this.repeated = entries.stream().filter(entry -> entry.step() > 0).toList();
        }

        String name() {
            return name;
        }

        List<Entry> fixed() {
            return fixed;
        }

        List<Entry> repeated() {
            return repeated;
        }

        /** The name at each position, 1-based positions at index - 1, for the given repetitions. */
        String[] names(int times) {
            String[] names = new String[fixed.size() + times * repeated.size()];
            for (Entry entry : fixed) {
                place(names, entry.offset(), entry);
            }
            for (int i = 1; i <= times; i++) {
                for (Entry entry : repeated) {
                    place(names, entry.step() * i + entry.offset(), entry);
                }
            }
            for (int i = 0; i < names.length; i++) {
                if (names[i] == null) {
                    throw new IllegalStateException(where + " names no " + name + "["
                            + (i + 1) + "]; number the values 1, 2, 3... without a gap");
                }
            }
            return names;
        }

        private void place(String[] names, int position, Entry entry) {
            if (position < 1 || position > names.length) {
                throw new IllegalStateException(where + " puts " + entry.name()
                        + " at " + name + "[" + position + "], past its " + names.length + " values; number the"
                        + " values 1, 2, 3... without a gap");
            }
            if (names[position - 1] != null) {
                throw new IllegalStateException(where + " names " + name + "["
                        + position + "] twice, as " + names[position - 1] + " and as " + entry.name());
            }
            names[position - 1] = entry.name();
        }

        @Override
        public String toString() {
            List<String> shown = new ArrayList<>(fixed.stream().map(Entry::name).toList());
            repeated.forEach(entry -> shown.add(entry.name() + " per key"));
            return shown.toString();
        }
    }

    /**
     * One named value: at position {@code offset} when {@code step} is 0, else at
     * {@code step * i + offset} for each repetition {@code i} from 1.
     */
    private record Entry(String name, int step, int offset) {
        static Entry of(String position, String name) {
            Matcher repeated = REPEATED.matcher(position);
            if (!repeated.matches()) {
                return new Entry(name, 0, Integer.parseInt(position));
            }
            int step = repeated.group(1).isEmpty() ? 1 : Integer.parseInt(repeated.group(1));
            int offset = repeated.group(2) == null ? 0 : Integer.parseInt(repeated.group(2));
            return new Entry(name, step, offset);
        }
    }
}
