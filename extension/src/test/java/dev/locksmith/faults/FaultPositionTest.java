package dev.locksmith.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.faults.FaultRunner.Position;
import dev.locksmith.faults.FaultRunner.Recording;
import dev.locksmith.faults.FaultRunner.RunResult;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fault-position matrix: every {@link Scenarios scenario} is run once to record the Redis
 * commands and pub/sub messages it causes, then again with one fault at one position (the
 * {@code n}-th command or message of a signature), of each {@link FaultKind kind}, and after each
 * run {@link FaultRunner}'s checks must hold. Each run is one test named
 * {@code scenario / signature#n / kind}.
 *
 * <p>By default a deterministic sample runs. The signatures of connecting and of the manager's
 * description ({@code HELLO}, {@code CLIENT …}, {@code EVALSHA access}, {@code EVALSHA manager})
 * are the same in every scenario of a topology, so only {@code reentrant} and {@code redlock}
 * fault them: each signature once, the kind rotating. Every other position of a scenario (its
 * protocol) is faulted once, with the kind rotating over the eight command kinds (offset by the
 * scenario's index) — in a scenario of more than {@value #SAMPLED_POSITIONS} such positions, that
 * many spread evenly over it and the first of every signature the spread missed — a kind the rotation missed in a short scenario is added at its first
 * positions, so that every scenario meets every kind, and every message is lost once. With
 * {@code -Dlocksmith.faults=full} every position gets every kind. A summary line per scenario
 * gives the runs, positions, positions not reached and the time.
 */
class FaultPositionTest {
    private static final boolean FULL = "full".equals(System.getProperty("locksmith.faults"));
    /** {@code -Dlocksmith.faults=record}: only the runs without a fault, to look at what each scenario sends. */
    private static final boolean RECORD_ONLY = "record".equals(System.getProperty("locksmith.faults"));
    /** {@code -Dlocksmith.faults.scenarios=nested,hand-over}: only those scenarios. */
    /**
     * {@code -Dlocksmith.faults.runs="hold-count#2 / BUSY|pass-offer#1 / BUSY"}: only the runs whose
     * name contains one of those texts.
     */
    private static final List<String> RUNS = List.of(System.getProperty("locksmith.faults.runs", "").split("\\|"));
    private static final List<String> ONLY = Arrays.stream(System.getProperty("locksmith.faults.scenarios", "")
            .split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
    /** The most protocol positions of one scenario the sample faults. */
    private static final int SAMPLED_POSITIONS = 10;
    private static final List<FaultKind> COMMAND_KINDS = Arrays.stream(FaultKind.values())
            .filter(kind -> !kind.picksPush()).toList();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static IndependentMasters masters;
    private static FaultRunner runner;

    @BeforeAll
    static void startMasters() {
        masters = IndependentMasters.start(3);
        runner = new FaultRunner(redis.node(), masters);
    }

    @AfterAll
    static void stopMasters() {
        if (masters != null) {
            masters.close();
        }
    }

    @TestFactory
    Stream<DynamicNode> everyScenarioWithAFaultAtEachPosition() {
        List<FaultScenario> all = Scenarios.all();
        return java.util.stream.IntStream.range(0, all.size()).boxed()
                .filter(index -> ONLY.isEmpty() || ONLY.contains(all.get(index).name()))
                .map(index -> scenario(all.get(index), index));
    }

    private static DynamicContainer scenario(FaultScenario scenario, int rotation) {
        AtomicReference<Recording> recording = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger unreached = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicLong nanos = new AtomicLong();
        DynamicTest record = DynamicTest.dynamicTest(scenario.name() + " / recording", () -> {
            Recording made = runner.record(scenario);
            recording.set(made);
            nanos.addAndGet(made.run().took().toNanos());
            System.out.printf("[faults] %s records %d commands and %d messages: %s%n", scenario.name(),
                    made.positions().stream().filter(p -> !p.push()).count(),
                    made.positions().stream().filter(Position::push).count(), made.positions());
            assertThat(made.run().failures()).as("%s without a fault", scenario.name()).isEmpty();
        });
        Stream<DynamicNode> faulted = Stream.of(0).flatMap(ignored -> {
            Recording made = recording.get();
            if (made == null || !made.usable()) {
                return Stream.empty(); // the recording test failed and says why
            }
            return plan(made, scenario.name().equals("reentrant") || scenario.name().equals("redlock"),
                    rotation).stream().filter(planned -> RUNS.stream().anyMatch(
                    (scenario.name() + " / " + planned.position() + " / " + planned.kind())::contains))
                    .map(planned -> DynamicTest.dynamicTest(
                    scenario.name() + " / " + planned.position() + " / " + planned.kind(), () -> {
                        RunResult result = runner.run(scenario, planned.position(), planned.kind());
                        runs.incrementAndGet();
                        nanos.addAndGet(result.took().toNanos());
                        if (!result.reached()) {
                            unreached.incrementAndGet();
                        }
                        if (!result.failures().isEmpty()) {
                            failed.incrementAndGet();
                            System.out.printf("[faults] FAILED %s (%d ms):%n  %s%n", result.name(),
                                    result.took().toMillis(), String.join("\n  ", result.failures()));
                        }
                        assertThat(result.failures()).as(result.name() + (result.reached() ? "" : " (position not reached)"))
                                .isEmpty();
                    }));
        });
        DynamicTest summary = DynamicTest.dynamicTest(scenario.name() + " / summary", () -> {
            Recording made = recording.get();
            System.out.printf(Locale.ROOT, "[faults] %-18s %s: %d runs, %d positions (%d commands, %d messages, %d"
                            + " signatures), %d not reached, %d failed, %.1f s%n", scenario.name(), FULL ? "full" : "sample",
                    runs.get(), made == null ? 0 : made.positions().size(),
                    made == null ? 0 : made.positions().stream().filter(p -> !p.push()).count(),
                    made == null ? 0 : made.positions().stream().filter(Position::push).count(),
                    made == null ? 0 : made.commandSignatures().size() + made.pushSignatures().size(),
                    unreached.get(), failed.get(), nanos.get() / 1e9);
        });
        return DynamicContainer.dynamicContainer(scenario.name() + ": " + scenario.covers(),
                Stream.of(Stream.<DynamicNode>of(record), faulted, Stream.<DynamicNode>of(summary)).flatMap(s -> s));
    }

    /** Connecting, the permission check and the manager's description: the same in every scenario. */
    private static boolean isSetup(String signature) {
        return signature.startsWith("HELLO") || signature.startsWith("CLIENT ") || signature.equals("EVALSHA access")
                || signature.equals("EVALSHA manager");
    }

    /**
     * At most {@value #SAMPLED_POSITIONS} positions, spread evenly over the scenario, and the first
     * of every signature the spread missed.
     */
    private static List<Position> spread(List<Position> positions) {
        if (positions.size() <= SAMPLED_POSITIONS) {
            return positions;
        }
        java.util.Set<Position> chosen = new java.util.LinkedHashSet<>();
        for (int i = 0; i < SAMPLED_POSITIONS; i++) {
            chosen.add(positions.get(i * positions.size() / SAMPLED_POSITIONS));
        }
        for (Position position : positions) {
            if (chosen.stream().noneMatch(p -> p.signature().equals(position.signature()))) {
                chosen.add(position);
            }
        }
        return positions.stream().filter(chosen::contains).toList();
    }

    private static Planned at(Recording recording, String signature, int rotation, FaultKind kind) {
        return new Planned(new Position(signature, 1 + rotation % recording.occurrences(signature), false), kind);
    }

    /** One planned run. */
    record Planned(Position position, FaultKind kind) {
    }

    /**
     * The runs for one scenario: every position with every kind under {@code -Dlocksmith.faults=full};
     * otherwise the sample the class comment describes.
     */
    static List<Planned> plan(Recording recording, boolean coversSetup, int rotation) {
        List<Planned> planned = new ArrayList<>();
        if (RECORD_ONLY) {
            return planned;
        }
        if (FULL) {
            for (Position position : recording.positions()) {
                if (position.push()) {
                    planned.add(new Planned(position, FaultKind.LOSE_PUSH));
                } else {
                    COMMAND_KINDS.forEach(kind -> planned.add(new Planned(position, kind)));
                }
            }
            return planned;
        }
        if (coversSetup) {
            // Connecting and describing the manager are the same in every scenario of a topology: one covers them.
            List<String> setup = recording.commandSignatures().stream().filter(FaultPositionTest::isSetup).toList();
            for (int j = 0; j < setup.size(); j++) {
                planned.add(at(recording, setup.get(j), j + rotation, COMMAND_KINDS.get((j + rotation) % COMMAND_KINDS.size())));
            }
        }
        List<Position> protocol = spread(recording.positions().stream()
                .filter(position -> !position.push() && !isSetup(position.signature())).toList());
        java.util.Set<FaultKind> hit = java.util.EnumSet.noneOf(FaultKind.class);
        for (int i = 0; i < protocol.size(); i++) {
            FaultKind kind = COMMAND_KINDS.get((i + rotation) % COMMAND_KINDS.size());
            planned.add(new Planned(protocol.get(i), kind));
            hit.add(kind);
        }
        int next = 0;
        for (FaultKind kind : COMMAND_KINDS) {
            if (!hit.contains(kind) && !protocol.isEmpty()) {
                planned.add(new Planned(protocol.get((next + rotation) % protocol.size()), kind));
                next++;
            }
        }
        recording.positions().stream().filter(Position::push)
                .forEach(position -> planned.add(new Planned(position, FaultKind.LOSE_PUSH)));
        return planned;
    }
}
