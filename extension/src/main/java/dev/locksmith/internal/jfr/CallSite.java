package dev.locksmith.internal.jfr;

import java.util.stream.Collectors;

/**
 * The caller's frames below Locksmith's, as text: what a stack trace of the event would have shown,
 * for events that a virtual thread hands to another thread to commit (which would record its own stack).
 */
final class CallSite {
    private static final int FRAMES = 12;
    private static final StackWalker WALKER = StackWalker.getInstance();

    private CallSite() {
    }

    /**
     * @return up to 12 frames, innermost first, one per line, such as
     *         {@code com.shop.ShopService.reserve(ShopService.java:42)}, from the first frame outside Locksmith
     */
    static String ofCurrentThread() {
        return WALKER.walk(frames -> frames
                .dropWhile(frame -> isLocksmith(frame.getClassName()))
                .limit(FRAMES)
                .map(StackWalker.StackFrame::toStackTraceElement)
                .map(StackTraceElement::toString)
                .collect(Collectors.joining("\n")));
    }

    private static boolean isLocksmith(String className) {
        return className.startsWith("dev.locksmith.internal.")
                || className.startsWith("dev.locksmith.") && className.indexOf('.', "dev.locksmith.".length()) < 0;
    }
}
