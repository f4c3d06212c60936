package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line of {@link LockBenchmark}.
 *
 * @param warmup       uncounted cycling of each worker JVM of the reentrant scenarios, once, before
 *                     its first counted window
 * @param measure      their counted window
 * @param kindsWarmup  the same for the other lock kinds and RedLock
 * @param kindsMeasure their counted window
 * @param fencedWarmup the same for the fenced-writes rows
 * @param fencedMeasure their counted window
 * @param scaleWarmup  the same for the scale rows at 2 processes; longer at 8 and 32 (see
 *                     {@link #warmup(Scenario)})
 * @param scaleMeasure their counted window
 * @param settlingTurns how many uncounted turns, shaped like the counted ones, each contender runs
 *                     after its warm-up
 * @param repetitions  how often each contender runs each scenario but the scale rows
 * @param scaleRepetitions how often each contender runs each scale row
 * @param docs         where BENCHMARKS.md and the charts are written
 * @param contenders   who is measured
 * @param scenarios    what is measured
 * @param arguments    the arguments as given, for the report
 */
record BenchmarkOptions(Duration warmup, Duration measure, Duration kindsWarmup, Duration kindsMeasure,
                        Duration fencedWarmup, Duration fencedMeasure, Duration scaleWarmup, Duration scaleMeasure,
                        int settlingTurns, int repetitions,
                        int scaleRepetitions, Path docs, List<Contender> contenders, List<Scenario> scenarios,
                        List<String> arguments) {

    static final String USAGE = """
            Usage: java -jar benchmarks/target/locksmith-benchmarks.jar [options]
              --quick                 about 8 minutes for every kind, for use while developing:
                                      short windows, one repetition, no telemetry row, scale
                                      rows for 2 and 32 processes only, report into
                                      benchmarks/target/quick unless --docs says otherwise;
                                      options after it override its values; its warmup is too
                                      short for the @Locked row, which settles later than the rest
              --warmup SECONDS        uncounted cycling of each worker JVM, once, before its
                                      first counted window (default 20)
              --measure SECONDS       counted window of each measurement (default 4)
              --kinds-warmup SECONDS  the same for fair, read, write, multi and RedLock
                                      (default 8)
              --kinds-measure SECONDS their counted window (default 2)
              --fenced-warmup SECONDS the same for the fenced-writes rows (default 60)
              --fenced-measure SECONDS
                                      their counted window (default 3)
              --scale-warmup SECONDS  the same for the scale rows at 2 processes; 1.5 times as
                                      long at 8, 3 times at 32 (default 20)
              --scale-measure SECONDS their counted window (default 4)
              --scale-repetitions N   measurements per contender and scale row (default 5)
              --settling-turns N      turns shaped like the counted ones but not counted, per
                                      contender, between the warm-up and the first counted
                                      turn (default 2, 0 with --quick)
              --repetitions N         measurements per contender and scenario (default 3)
              --docs DIR              where BENCHMARKS.md and the charts go (default docs)
              --contenders A,B        some of locksmith, locksmith_telemetry, locksmith_locked,
                                      locksmith_transaction, locksmith_fenced, redisson, raw
                                      (default all)
              --scenarios A,B         some of uncontended_1, uncontended_8, contended, fair, read,
                                      read_write_mixed, write, multi, redlock, virtual_1 and
                                      virtual_4 (1,000 virtual threads over 2 JVMs on 1 and on
                                      4 names; Java 21+ only, left out of the default run on
                                      an older JDK), the fenced-writes
                                      rows fenced_1 and fenced_8 (or fenced, both: a @Locked
                                      @Transactional method writing one row of a PostgreSQL the
                                      run starts, with and without fenced = true, taking turns;
                                      database statements and Redis calls per transaction and
                                      the overhead as a ratio, in a "Fenced writes" section and
                                      benchmarks-fenced.png), and the scale rows (default all):
                                      scale_reentrant, scale_fair, scale_write (each for 2, 8 and
                                      32 processes, 2 and 32 with --quick), scale (all three),
                                      or one row such as scale_fair_8. A scale row runs N lock
                                      managers (Redisson clients), each with its own connections
                                      and one thread, over 2 worker JVMs (N = 2) or 4 (N = 8, 32),
                                      all on one lock name: cycles/s, Redis calls per cycle and
                                      the hand-off latency between processes (p50, p99), in a
                                      "Scale" section and benchmarks-scale.png
              --help                  this text""";

    /**
     * @throws IllegalArgumentException naming the bad argument, with {@link #USAGE}
     */
    static BenchmarkOptions parse(String... args) {
        // Long enough for the JIT compiler to finish with the hot paths of every contender on 2
        // busy CPUs: with 3 s, C2 was still compiling Netty's write path well into the counted window.
        Duration warmup = Duration.ofSeconds(20);
        Duration measure = Duration.ofSeconds(4);
        // Shorter for the five other kinds, so that the whole default run stays near 25 minutes.
        Duration kindsWarmup = Duration.ofSeconds(8);
        Duration kindsMeasure = Duration.ofSeconds(2);
        // A cycle runs Narayana's, pgjdbc's and Weld's code as well, at a few hundred transactions a
        // second, and the fenced variant has more of it to compile: after 20 s the fenced worker
        // still spent 1,251 against 787 us of CPU per transaction and ran at 0.74 of the unfenced
        // one; after 60 s both spent about 590 us, and the ratio was 0.92 (1 thread, load 11).
        Duration fencedWarmup = Duration.ofSeconds(60);
        Duration fencedMeasure = Duration.ofSeconds(3);
        // As long as the reentrant lock's for the scale rows (about 11 of the 25 minutes): with 32
        // managers over 4 JVMs each JVM runs a quarter of the cycles, and after 8 s the JIT compiler
        // was still at work, the counted windows growing 666 -> 727 -> 1,287 cycles/s one after another.
        Duration scaleWarmup = Duration.ofSeconds(20);
        Duration scaleMeasure = Duration.ofSeconds(4);
        // At 32 processes one window in five or so loses a third of its cycles to stalls (p99 above
        // 2 ms where the others show 0.5 ms): five windows give a median that one stall cannot move.
        int scaleRepetitions = 5;
        // The first turns after the warm-up start after a pause, which the warm-up never did: the
        // JIT compiler's log showed the hot acquisition path (Attempts, Acquisition, LineWaiting)
        // deoptimized at the start of the first counted turn, which then ran at 0.3-0.6 of the
        // later ones, and the second one still below them, for every contender alike.
        int settlingTurns = 2;
        int repetitions = 3;
        Path docs = Path.of("docs");
        List<Contender> contenders = List.of(Contender.values());
        List<String> scenarioNames = Arrays.stream(Scenario.values()).map(Scenario::name).toList();
        boolean quick = false;
        boolean scenariosNamed = false;
        for (int i = 0; i < args.length; i += 2) {
            String option = args[i];
            if (option.equals("--quick")) {
                quick = true;
                warmup = Duration.ofSeconds(3);
                measure = Duration.ofSeconds(1);
                kindsWarmup = Duration.ofSeconds(2);
                kindsMeasure = Duration.ofSeconds(1);
                fencedWarmup = Duration.ofSeconds(5);
                fencedMeasure = Duration.ofSeconds(1);
                scaleWarmup = Duration.ofSeconds(8);
                scaleMeasure = Duration.ofSeconds(2);
                settlingTurns = 0;
                repetitions = 1;
                scaleRepetitions = 1;
                docs = Path.of("benchmarks", "target", "quick");
                contenders = Arrays.stream(Contender.values()).filter(c -> c != Contender.LOCKSMITH_TELEMETRY).toList();
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Option " + option + " needs a value.\n" + USAGE);
            }
            String value = args[i + 1];
            switch (option) {
                case "--warmup" -> warmup = Duration.ofSeconds(positive(option, value, 0));
                case "--measure" -> measure = Duration.ofSeconds(positive(option, value, 1));
                case "--kinds-warmup" -> kindsWarmup = Duration.ofSeconds(positive(option, value, 0));
                case "--kinds-measure" -> kindsMeasure = Duration.ofSeconds(positive(option, value, 1));
                case "--fenced-warmup" -> fencedWarmup = Duration.ofSeconds(positive(option, value, 0));
                case "--fenced-measure" -> fencedMeasure = Duration.ofSeconds(positive(option, value, 1));
                case "--scale-warmup" -> scaleWarmup = Duration.ofSeconds(positive(option, value, 0));
                case "--scale-measure" -> scaleMeasure = Duration.ofSeconds(positive(option, value, 1));
                case "--repetitions" -> repetitions = (int) positive(option, value, 1);
                case "--scale-repetitions" -> scaleRepetitions = (int) positive(option, value, 1);
                case "--settling-turns" -> settlingTurns = (int) positive(option, value, 0);
                case "--docs" -> docs = Path.of(value);
                case "--contenders" -> contenders = named(Contender.class, option, value);
                case "--scenarios" -> {
                    scenarioNames = List.of(value.split(","));
                    scenariosNamed = true;
                }
                default -> throw new IllegalArgumentException("Unknown option " + option + ".\n" + USAGE);
            }
        }
        List<Scenario> scenarios = scenarios(scenarioNames, quick, scenariosNamed);
        if (!VirtualThreadFactory.available()) {
            if (scenariosNamed && scenarios.stream().anyMatch(Scenario::virtualThreads)) {
                throw new IllegalArgumentException(VirtualThreadFactory.unavailable());
            }
            scenarios = scenarios.stream().filter(scenario -> !scenario.virtualThreads()).toList();
        }
        return new BenchmarkOptions(warmup, measure, kindsWarmup, kindsMeasure, fencedWarmup, fencedMeasure,
                scaleWarmup, scaleMeasure,
                settlingTurns, repetitions, scaleRepetitions, docs, contenders, scenarios, List.of(args));
    }

    /**
     * @param names    scenario names, scale families ({@code scale}, {@code scale_fair}, ...) and
     *                 {@code fenced} for both fenced-writes rows
     * @param quick    true with {@code --quick}: families and the default cover 2 and 32 processes only
     * @param named    true if the names came from {@code --scenarios}: a scale row named by its
     *                 whole name then runs even with {@code --quick}
     * @return the scenarios, each once, in the order named
     */
    private static List<Scenario> scenarios(List<String> names, boolean quick, boolean named) {
        List<Scenario> chosen = new ArrayList<>();
        for (String name : names) {
            List<Scenario> family = name.trim().equalsIgnoreCase("fenced") ? Scenario.of(Scenario.Group.FENCED)
                    : Scenario.scaleFamily(name, quick);
            List<Scenario> these = !family.isEmpty() ? family : named(Scenario.class, "--scenarios", name);
            for (Scenario scenario : these) {
                boolean skippedByQuick = !named && quick && scenario.group() == Scenario.Group.SCALE
                        && !Scenario.QUICK_SCALE.contains(scenario.processes());
                if (!skippedByQuick && !chosen.contains(scenario)) {
                    chosen.add(scenario);
                }
            }
        }
        return List.copyOf(chosen);
    }

    /**
     * @return the uncounted cycling before a window of a scenario of {@code group}
     */
    Duration warmup(Scenario.Group group) {
        return switch (group) {
            case REENTRANT -> warmup;
            case KINDS -> kindsWarmup;
            case FENCED -> fencedWarmup;
            case SCALE -> scaleWarmup;
        };
    }

    /**
     * The JIT compiler settles after a number of cycles in each JVM, not after a time: at 8 and 32
     * processes each of 4 JVMs runs a quarter of the cycles, not half. After 20 s at 32 processes,
     * windows still grew from 1,782 to 2,879 cycles/s one after another; after 60 s they did not.
     *
     * @return the uncounted cycling before the first window of {@code scenario}
     */
    Duration warmup(Scenario scenario) {
        if (scenario.group() != Scenario.Group.SCALE) {
            return warmup(scenario.group());
        }
        return scenario.processes() <= 2 ? scaleWarmup
                : scaleWarmup.multipliedBy(scenario.processes() <= 8 ? 3 : 6).dividedBy(2);
    }

    /**
     * @return how often each contender is measured in a scenario of {@code group}
     */
    int repetitions(Scenario.Group group) {
        return group == Scenario.Group.SCALE ? scaleRepetitions : repetitions;
    }

    /**
     * @return the counted window of a scenario of {@code group}
     */
    Duration measure(Scenario.Group group) {
        return switch (group) {
            case REENTRANT -> measure;
            case KINDS -> kindsMeasure;
            case FENCED -> fencedMeasure;
            case SCALE -> scaleMeasure;
        };
    }

    /**
     * @return the scenarios chosen, in order, as {@link ScenarioRunner} measures them together:
     *         the scale rows of one kind of lock in one rotation (their N / 2 ratios are then of
     *         interleaved medians), every other scenario alone
     */
    List<List<Scenario>> rotations() {
        Map<Object, List<Scenario>> rotations = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) {
            Object key = scenario.group() == Scenario.Group.SCALE ? scenario.kind() : scenario;
            rotations.computeIfAbsent(key, k -> new ArrayList<>()).add(scenario);
        }
        return List.copyOf(rotations.values());
    }

    /**
     * @return true if a scenario chosen writes to the benchmark's PostgreSQL, which the run then starts
     */
    boolean needsDatabase() {
        return scenarios.stream().anyMatch(Scenario::usesDatabase);
    }

    /**
     * @return the groups of the scenarios chosen, each with its own chart
     */
    List<Scenario.Group> groups() {
        return scenarios.stream().map(Scenario::group).distinct().toList();
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

    /**
     * @return the constants of {@code type} named in the comma-separated {@code value}, in any case
     * @throws IllegalArgumentException naming {@code option} and the unknown name
     */
    private static <E extends Enum<E>> List<E> named(Class<E> type, String option, String value) {
        List<E> chosen = new ArrayList<>();
        for (String name : value.split(",")) {
            try {
                chosen.add(Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": '" + name + "' is none of "
                        + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT) + ".\n" + USAGE, e);
            }
        }
        return List.copyOf(chosen);
    }
}
