package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@link LockBenchmark}.
 *
 * @param warmup      uncounted cycling before each measured window of the reentrant scenarios
 * @param measure     their counted window
 * @param kindsWarmup uncounted cycling before each window of the other lock kinds and RedLock
 * @param kindsMeasure their counted window
 * @param repetitions how often each contender runs each scenario
 * @param docs        where BENCHMARKS.md and benchmarks.png are written
 * @param contenders  who is measured
 * @param arguments   the arguments as given, for the report
 */
record BenchmarkOptions(Duration warmup, Duration measure, Duration kindsWarmup, Duration kindsMeasure,
                        int repetitions, Path docs, List<Contender> contenders, List<String> arguments) {

    static final String USAGE = """
            Usage: java -jar benchmarks/target/locksmith-benchmarks.jar [options]
              --warmup SECONDS        uncounted cycling before each window (default 3)
              --measure SECONDS       counted window of each measurement (default 4)
              --kinds-warmup SECONDS  the same for fair, read, write, multi and RedLock (default 2)
              --kinds-measure SECONDS their counted window (default 2)
              --repetitions N         measurements per contender and scenario (default 3)
              --docs DIR              where BENCHMARKS.md and benchmarks.png go (default docs)
              --contenders A,B        some of locksmith, redisson, raw (default all)""";

    /**
     * @throws IllegalArgumentException naming the bad argument, with {@link #USAGE}
     */
    static BenchmarkOptions parse(String... args) {
        Duration warmup = Duration.ofSeconds(3);
        Duration measure = Duration.ofSeconds(4);
        // Shorter for the five other kinds: 30 more measurements of about 2 s start-up and stop
        // each, and the whole default run should stay under 8 minutes on 2 CPUs.
        Duration kindsWarmup = Duration.ofSeconds(2);
        Duration kindsMeasure = Duration.ofSeconds(2);
        int repetitions = 3;
        Path docs = Path.of("docs");
        List<Contender> contenders = List.of(Contender.values());
        for (int i = 0; i < args.length; i += 2) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Option " + option + " needs a value.\n" + USAGE);
            }
            String value = args[i + 1];
            switch (option) {
                case "--warmup" -> warmup = Duration.ofSeconds(positive(option, value, 0));
                case "--measure" -> measure = Duration.ofSeconds(positive(option, value, 1));
                case "--kinds-warmup" -> kindsWarmup = Duration.ofSeconds(positive(option, value, 0));
                case "--kinds-measure" -> kindsMeasure = Duration.ofSeconds(positive(option, value, 1));
                case "--repetitions" -> repetitions = (int) positive(option, value, 1);
                case "--docs" -> docs = Path.of(value);
                case "--contenders" -> contenders = contenders(value);
                default -> throw new IllegalArgumentException("Unknown option " + option + ".\n" + USAGE);
            }
        }
        return new BenchmarkOptions(warmup, measure, kindsWarmup, kindsMeasure, repetitions, docs, contenders,
                List.of(args));
    }

    /**
     * @return the uncounted cycling before a window of a scenario of {@code group}
     */
    Duration warmup(Scenario.Group group) {
        return group == Scenario.Group.REENTRANT ? warmup : kindsWarmup;
    }

    /**
     * @return the counted window of a scenario of {@code group}
     */
    Duration measure(Scenario.Group group) {
        return group == Scenario.Group.REENTRANT ? measure : kindsMeasure;
    }

    /**
     * @return the contenders chosen that have something to measure in {@code scenario}
     */
    List<Contender> contenders(Scenario scenario) {
        return contenders.stream().filter(contender -> contender.measures(scenario)).toList();
    }

    /**
     * @return the command that reproduces this run from the repository root
     */
    String command() {
        String run = "java -jar benchmarks/target/locksmith-benchmarks.jar"
                + (arguments.isEmpty() ? "" : " " + String.join(" ", arguments));
        return "./mvnw -B -q -pl benchmarks -am package -DskipTests && " + run;
    }

    private static long positive(String option, String value, long minimum) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= minimum) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " " + value + " is not a whole number >= " + minimum + ".\n" + USAGE);
    }

    private static List<Contender> contenders(String value) {
        List<Contender> chosen = new ArrayList<>();
        for (String name : value.split(",")) {
            try {
                chosen.add(Contender.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--contenders: '" + name + "' is none of "
                        + Arrays.toString(Contender.values()).toLowerCase(Locale.ROOT) + ".\n" + USAGE, e);
            }
        }
        return List.copyOf(chosen);
    }
}
