package dev.locksmith.internal.observe;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns a lock's name into the label metrics and spans use, keeping their cardinality bounded:
 * the template of the guarded call if there is one, else the first configured name pattern that
 * matches ({@code *} stands for any characters), else {@value #OTHER}. With resolved names
 * switched on, the name itself.
 */
public final class LockLabels {
    /** The label of a name no pattern matches. */
    public static final String OTHER = "other";

    private final List<String> patterns;
    private final List<Pattern> compiled;
    private final boolean resolvedNames;

    /**
     * @param patterns      name patterns such as {@code stock:*}
     * @param resolvedNames whether to label with the resolved name (unbounded cardinality)
     */
    public LockLabels(List<String> patterns, boolean resolvedNames) {
        this.patterns = List.copyOf(patterns);
        this.compiled = patterns.stream()
                .map(pattern -> Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"))).toList();
        this.resolvedNames = resolvedNames;
    }

    /**
     * @param name the lock's name
     * @param kind its kind, such as {@code reentrant}
     * @return its label
     */
    public LockLabel of(String name, String kind) {
        CallContext call = CallContext.current();
        if (resolvedNames) {
            return new LockLabel(name, kind, name);
        }
        if (call != null && call.template() != null) {
            return new LockLabel(name, kind, call.template());
        }
        for (int i = 0; i < compiled.size(); i++) {
            if (compiled.get(i).matcher(name).matches()) {
                return new LockLabel(name, kind, patterns.get(i));
            }
        }
        return new LockLabel(name, kind, OTHER);
    }

    /**
     * @return whether the current thread is inside a guarded call, whose wait gets a span
     */
    public static boolean traced() {
        return CallContext.current() != null;
    }
}
