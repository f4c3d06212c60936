package dev.locksmith.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Runs two builds of the benchmark jar in turns (before, after, before, after, ...) with the same
 * options, and writes one table of what each run reported for Locksmith, so that a change of the
 * library is judged against the code before it on the same machine in the same hour: every run
 * measures Redisson and the raw limit too, so its ratios carry their own yardstick, and the load
 * average at the start of each run stands beside it.
 *
 * <pre>
 * java -cp benchmarks/target/locksmith-benchmarks.jar dev.locksmith.benchmarks.JarComparison \
 *     BEFORE.jar AFTER.jar ROUNDS OUTPUT-DIR [benchmark options, for example --quick]
 * </pre>
 *
 * Each run's report goes to {@code OUTPUT-DIR/before-1}, {@code after-1}, ...; the comparison to
 * {@code OUTPUT-DIR/COMPARISON.md}.
 */
public final class JarComparison {
    /** The columns of the report's tables that describe Locksmith itself. */
    private static final List<String> COLUMNS = List.of("Locksmith", "Measured", "Locksmith cycles/s",
            "Locksmith calls", "Locksmith / Redisson", "Locksmith hand-off p50 / p99 µs");
    /** The columns of the per-cycle table, kept for Locksmith's own rows: what load moves least. */
    private static final List<String> PER_CYCLE_COLUMNS = List.of("Calls", "Script calls", "Script us",
            "Server CPU us", "Client CPU us");

    private JarComparison() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 4) {
            System.err.println("Usage: JarComparison BEFORE.jar AFTER.jar ROUNDS OUTPUT-DIR [benchmark options]");
            System.exit(2);
        }
        Map<String, Path> jars = new LinkedHashMap<>();
        jars.put("before", existing(args[0]));
        jars.put("after", existing(args[1]));
        int rounds = Integer.parseInt(args[2]);
        Path output = Path.of(args[3]);
        List<String> options = Arrays.asList(args).subList(4, args.length);
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (Map.Entry<String, Path> jar : jars.entrySet()) {
                String name = jar.getKey() + "-" + round;
                runs.add(run(name, jar.getValue(), output.resolve(name), options));
            }
        }
        Path comparison = output.resolve("COMPARISON.md");
        Files.writeString(comparison, report(runs, options), StandardCharsets.UTF_8);
        System.err.println("Wrote " + comparison);
    }

    private static Path existing(String jar) {
        Path path = Path.of(jar);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(jar + " is not a file: name a benchmark jar, as built by "
                    + "./mvnw -pl benchmarks -am package -DskipTests");
        }
        return path;
    }

    private static Run run(String name, Path jar, Path docs, List<String> options)
            throws IOException, InterruptedException {
        Files.createDirectories(docs);
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(options);
        command.addAll(List.of("--docs", docs.toString()));
        System.err.println("Run " + name + " (load " + load + "): " + String.join(" ", command));
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("Run " + name + " exited with " + process.exitValue());
        }
        return new Run(name, load, ReportTables.read(Files.readString(docs.resolve("BENCHMARKS.md"))));
    }

    private static String report(List<Run> runs, List<String> options) {
        StringBuilder out = new StringBuilder("# Before and after, in turns\n\nOptions: `")
                .append(String.join(" ", options)).append("`\n\n| run | load average at its start |\n|---|---|\n");
        runs.forEach(run -> out.append("| ").append(run.name).append(" | ").append(run.load).append(" |\n"));
        out.append("\n| table | row | column |");
        runs.forEach(run -> out.append(' ').append(run.name).append(" |"));
        out.append(" after / before, medians |\n|---|---|---|");
        runs.forEach(run -> out.append("---:|"));
        out.append("---:|\n");
        for (String key : runs.get(0).cells.keySet()) {
            if (!compared(key)) {
                continue;
            }
            out.append("| ").append(key).append(" |");
            runs.forEach(run -> out.append(' ').append(run.cells.getOrDefault(key, "--")).append(" |"));
            out.append(' ').append(change(runs, key)).append(" |\n");
        }
        return out.toString();
    }

    private static boolean compared(String key) {
        String column = key.substring(key.lastIndexOf(" | ") + 3);
        String row = key.substring(0, key.lastIndexOf(" | "));
        return COLUMNS.contains(column) || PER_CYCLE_COLUMNS.contains(column) && row.endsWith(" / Locksmith");
    }

    /**
     * @return the median of the after runs over that of the before runs, for each number of the
     *         cell ("p50 / p99" has two)
     */
    private static String change(List<Run> runs, String key) {
        List<String> parts = new ArrayList<>();
        for (int part = 0; ; part++) {
            List<Double> before = new ArrayList<>();
            List<Double> after = new ArrayList<>();
            for (Run run : runs) {
                String[] numbers = run.cells.getOrDefault(key, "--").split(" / ");
                OptionalDouble value = part < numbers.length ? ReportTables.leadingNumber(numbers[part]) : OptionalDouble.empty();
                if (value.isPresent()) {
                    (run.name.startsWith("before") ? before : after).add(value.getAsDouble());
                }
            }
            if (before.isEmpty() || after.isEmpty()) {
                return parts.isEmpty() ? "--" : String.join(" / ", parts);
            }
            parts.add(String.format("%.2f", median(after) / median(before)));
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private record Run(String name, String load, Map<String, String> cells) {
    }
}
