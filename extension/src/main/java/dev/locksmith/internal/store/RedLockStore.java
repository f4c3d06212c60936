package dev.locksmith.internal.store;

import dev.locksmith.LockException;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.redis.RedisUris;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.redis.ScriptRunner;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The RedLock algorithm: locks live on N independent masters (N odd, at least 3) and a hold
 * exists while a majority has it. An acquisition asks every master at once, each with a
 * timeout far below the lease, and succeeds only with a majority and time left on the lease
 * (validity = lease - elapsed - clock drift); otherwise it is undone everywhere and the caller
 * retries after a random back-off. Fencing tokens: the largest token of the granting majority,
 * written back to every master before the hold is handed out.
 */
final class RedLockStore implements LockStore {
    /** Drift allowed between the masters' clocks: 1% of the lease plus 2 ms, as the RedLock description suggests. */
    static final double CLOCK_DRIFT_FACTOR = 0.01;
    private static final long CLOCK_DRIFT_FLOOR_MILLIS = 2;
    private static final LuaScript RAISE_FENCE = LuaScript.load("raise-fence");

    private final List<RedisEndpoint> masters;
    private final List<ScriptRunner> scripts;
    private final int majority;
    private final long nodeTimeoutMillis;
    private final ReleaseChannels channels;
    private final String description;

    private RedLockStore(List<RedisEndpoint> masters, Duration commandTimeout, Duration lease, String description) {
        this.masters = List.copyOf(masters);
        this.scripts = masters.stream().map(master -> new ScriptRunner(master.commands())).toList();
        this.majority = masters.size() / 2 + 1;
        // Far below the lease, so a dead master cannot eat the validity of an acquisition.
        this.nodeTimeoutMillis = Math.max(5, Math.min(commandTimeout.toMillis(), lease.toMillis() / 20));
        this.channels = new ReleaseChannels(masters.stream().map(RedisEndpoint::pubSub).toList(), false);
        this.description = description;
    }

    /**
     * Connects to every master; all must answer at start.
     *
     * @throws LockException naming the master that could not be reached
     */
    static RedLockStore connect(RedisResources resources, List<RedisURI> uris, Duration commandTimeout, Duration lease) {
        List<RedisEndpoint> connected = new ArrayList<>();
        try {
            for (RedisURI uri : uris) {
                connected.add(RedisEndpoint.connect(resources, RedisMode.STANDALONE, List.of(uri), commandTimeout));
            }
        } catch (LockException e) {
            connected.forEach(RedisEndpoint::close);
            throw e;
        }
        return new RedLockStore(connected, commandTimeout, lease, RedisMode.REDLOCK + " " + RedisUris.redacted(uris));
    }

    @Override
    public CompletionStage<List<Long>> acquire(ScriptCall acquisition, ScriptCall undo, long leaseMillis) {
        long started = System.nanoTime();
        return askAll(master -> acquisition.<List<Long>>runOn(scripts.get(master))).thenCompose(answers -> {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            long drift = (long) (leaseMillis * CLOCK_DRIFT_FACTOR) + CLOCK_DRIFT_FLOOR_MILLIS;
            List<Integer> granted = new ArrayList<>();
            long soonestFree = Long.MAX_VALUE;
            for (int i = 0; i < answers.size(); i++) {
                List<Long> answer = answers.get(i);
                if (answer != null && answer.get(0) == 1L) {
                    granted.add(i);
                } else if (answer != null) {
                    soonestFree = Math.min(soonestFree, answer.get(1));
                }
            }
            if (granted.size() >= majority && leaseMillis - elapsed - drift > 0) {
                long token = granted.stream().mapToLong(i -> answers.get(i).get(1)).max().orElseThrow();
                return publishToken(acquisition.keys()[1], token).thenCompose(raised -> raised >= majority
                        ? CompletableFuture.completedFuture(List.of(1L, token))
                        : undoOn(granted, undo).thenApply(undone -> List.of(0L, backOff())));
            }
            long wait = granted.isEmpty() && soonestFree != Long.MAX_VALUE ? soonestFree : backOff();
            return undoOn(granted, undo).thenApply(undone -> List.of(0L, wait));
        });
    }

    private CompletionStage<Integer> publishToken(String fenceKey, long token) {
        ScriptCall raise = ScriptCall.integer(RAISE_FENCE, new String[] {fenceKey}, Long.toString(token));
        return askAll(master -> raise.<Long>runOn(scripts.get(master))).thenApply(answers -> (int) answers.stream().filter(Objects::nonNull).count());
    }

    /**
     * Takes back the grants of a failed attempt, so that nothing of it is left when the caller
     * hears "not acquired"; a master that does not answer keeps the grant until its lease ends.
     */
    private CompletionStage<Void> undoOn(List<Integer> granted, ScriptCall undo) {
        CompletableFuture<?>[] undone = granted.stream()
                .map(master -> undo.runOn(scripts.get(master)).toCompletableFuture()
                        .orTimeout(nodeTimeoutMillis, TimeUnit.MILLISECONDS).exceptionally(failure -> null))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(undone);
    }

    private static long backOff() {
        return ThreadLocalRandom.current().nextLong(5, 50);
    }

    @Override
    public CompletionStage<Long> update(ScriptCall call, long lostAnswer) {
        return askAll(master -> call.<Long>runOn(scripts.get(master))).thenApply(answers -> {
            Long agreed = agreedValue(answers.stream().filter(answer -> answer != null && answer != lostAnswer).toList());
            return agreed == null ? lostAnswer : agreed;
        });
    }

    @Override
    public CompletionStage<List<Long>> renew(ScriptCall call) {
        return askAll(master -> call.<List<Long>>runOn(scripts.get(master))).thenApply(answers -> {
            List<Long> renewed = new ArrayList<>();
            for (int key = 0; key < call.keys().length; key++) {
                int index = key;
                long votes = answers.stream().filter(answer -> answer != null && answer.get(index) == 1L).count();
                renewed.add(votes >= majority ? 1L : 0L);
            }
            return renewed;
        });
    }

    @Override
    public CompletionStage<Long> everywhere(ScriptCall call) {
        return askAll(master -> call.<Long>runOn(scripts.get(master))).thenApply(answers -> {
            if (answers.stream().allMatch(Objects::isNull)) {
                throw new LockException("No RedLock master answered " + call.script() + " (" + description + ")");
            }
            return answers.stream().filter(Objects::nonNull).max(Long::compare).orElseThrow();
        });
    }

    @Override
    public CompletionStage<List<String>> hashFields(String key) {
        return askAll(master -> masters.get(master).commands().hkeys(key)).thenApply(answers -> {
            Map<String, Integer> votes = new HashMap<>();
            answers.stream().filter(Objects::nonNull).flatMap(List::stream).forEach(field -> votes.merge(field, 1, Integer::sum));
            return votes.entrySet().stream().filter(vote -> vote.getValue() >= majority).map(Map.Entry::getKey).toList();
        });
    }

    @Override
    public CompletionStage<String> hashField(String key, String field) {
        return askAll(master -> masters.get(master).commands().hget(key, field))
                .thenApply(RedLockStore.this::agreedValue);
    }

    @Override
    public CompletionStage<Long> timeToLive(String key) {
        return askAll(master -> masters.get(master).commands().pttl(key)).thenApply(answers -> {
            // A hold lasts while a majority keeps it: the majority-th longest time to live.
            List<Long> known = answers.stream().filter(Objects::nonNull).sorted(Comparator.reverseOrder()).toList();
            return known.size() >= majority ? known.get(majority - 1) : -2L;
        });
    }

    @Override
    public CompletionStage<Long> awaitReplicas(int replicas, long timeoutMillis) {
        throw new UnsupportedOperationException("RedLock masters have no replicas to wait for");
    }

    @Override
    public CompletionStage<Void> ping() {
        return askAll(master -> masters.get(master).commands().ping()).thenApply(answers -> {
            long answered = answers.stream().filter(Objects::nonNull).count();
            if (answered < majority) {
                throw new LockException("Only " + answered + " of " + masters.size() + " RedLock masters answer; "
                        + majority + " are needed (" + description + ")");
            }
            return null;
        });
    }

    /**
     * Sends one request (given the master's index) to every master at once and collects every answer; a master that
     * failed or did not answer within the node timeout contributes null.
     */
    private <T> CompletionStage<List<T>> askAll(IntFunction<CompletionStage<T>> request) {
        List<CompletableFuture<T>> pending = new ArrayList<>();
        for (int master = 0; master < masters.size(); master++) {
            CompletableFuture<T> answer;
            try {
                answer = request.apply(master).toCompletableFuture();
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            pending.add(answer.orTimeout(nodeTimeoutMillis, TimeUnit.MILLISECONDS).exceptionally(failure -> null));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(done -> pending.stream().map(CompletableFuture::join).toList());
    }

    /**
     * @return the answer a majority of masters gave, or null when no answer has a majority
     */
    private <T> T agreedValue(List<T> answers) {
        Map<T, Integer> votes = new HashMap<>();
        answers.stream().filter(Objects::nonNull).forEach(answer -> votes.merge(answer, 1, Integer::sum));
        return votes.entrySet().stream().filter(vote -> vote.getValue() >= majority).map(Map.Entry::getKey)
                .findFirst().orElse(null);
    }

    @Override
    public String publishCommand() {
        return "publish";
    }

    @Override
    public ReleaseChannels channels() {
        return channels;
    }

    @Override
    public int partitionOf(String key) {
        return 0;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        masters.forEach(RedisEndpoint::close);
    }
}
