package dev.locksmith.benchmarks;

import java.nio.file.Path;

/**
 * The options of the tools that count what one lock+unlock cycle costs ({@link ScriptInstructions},
 * {@link AllocationPerCycle}): how many cycles to count, and where the report goes.
 *
 * @param cycles the counted cycles
 * @param out    the Markdown report
 */
record CycleToolOptions(int cycles, Path out) {
    /**
     * @param tool     the tool's name, for the message
     * @param args     {@code --cycles N} and {@code --out FILE}, each optional
     * @param defaults what an option left out means
     * @throws IllegalArgumentException naming an unknown option, or a count that is not a positive number
     */
    static CycleToolOptions parse(String tool, String[] args, CycleToolOptions defaults) {
        int cycles = defaults.cycles();
        Path out = defaults.out();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--cycles") && i + 1 < args.length) {
                cycles = positive(args[++i]);
            } else if (args[i].equals("--out") && i + 1 < args.length) {
                out = Path.of(args[++i]);
            } else {
                throw new IllegalArgumentException("Unknown option '" + args[i] + "': " + tool
                        + " takes --cycles N and --out FILE");
            }
        }
        return new CycleToolOptions(cycles, out);
    }

    private static int positive(String count) {
        try {
            int cycles = Integer.parseInt(count);
            if (cycles > 0) {
                return cycles;
            }
        } catch (NumberFormatException notANumber) {
            // named below
        }
        throw new IllegalArgumentException("--cycles '" + count + "' is not a positive whole number of cycles");
    }
}
