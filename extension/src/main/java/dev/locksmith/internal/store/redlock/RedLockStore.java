package dev.locksmith.internal.store.redlock;

import dev.locksmith.LockException;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.RedisErrors;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.redis.RedisUris;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import io.lettuce.core.RedisURI;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The RedLock algorithm: locks live on N independent masters (N odd, at least 3) and a hold
 * exists while a majority has it. An acquisition asks every master at once, each with a
 * timeout far below the lease, and succeeds only with a majority and time left on the lease
 * (validity = lease - elapsed - clock drift); otherwise it is undone everywhere and the caller
 * retries after a random back-off. One round trip acquires and one releases.
 *
 * <p>The fencing token of a hold is the largest token of the granting majority. Before anyone
 * relies on it ({@link #publishToken}, on the first {@code fencingToken()} call), it is written
 * back to every master, so that any later majority includes a master that knows it.
 *
 * <p>It starts with a majority of masters reachable; the others are connected in the background
 * as they come up, and take part from then on.
 */
public final class RedLockStore implements LockStore {
    /** Drift allowed between the masters' clocks: 1% of the lease plus 2 ms, as the RedLock description suggests. */
    static final double CLOCK_DRIFT_FACTOR = 0.01;
    private static final long CLOCK_DRIFT_FLOOR_MILLIS = 2;
    private static final Logger LOG = System.getLogger(RedLockStore.class.getName());

    private final List<Master> masters;
    private final int majority;
    private final long nodeTimeoutMillis;
    private final ReleaseChannels channels;
    private final String description;
    private final MasterVote votes;
    private final List<MasterRejoin> rejoins = new CopyOnWriteArrayList<>();
    private final Duration connectPatience;
    private volatile boolean closed;

    private RedLockStore(List<Master> masters, Duration commandTimeout, Duration lease, String description) {
        this.masters = List.copyOf(masters);
        this.majority = masters.size() / 2 + 1;
        // Far below the lease, so a dead master cannot eat the validity of an acquisition.
        this.nodeTimeoutMillis = Math.max(5, Math.min(commandTimeout.toMillis(), lease.toMillis() / 20));
        this.channels = new ReleaseChannels(masters.stream().filter(Master::isConnected)
                .map(master -> master.endpoint.pubSub()).toList(), majority, false);
        this.description = description;
        this.votes = new MasterVote(this.masters, majority, nodeTimeoutMillis);
        this.connectPatience = commandTimeout.plusSeconds(1);
    }

    /**
     * Connects to every master it can; a majority must answer at start, the rest join later.
     *
     * @throws LockException naming every master that could not be reached, when fewer than a majority could
     */
    public static RedLockStore connect(RedisResources resources, List<RedisURI> uris, Duration commandTimeout, Duration lease) {
        String description = RedisMode.REDLOCK + " " + RedisUris.redacted(uris);
        List<Master> masters = new ArrayList<>();
        List<LockException> failures = new ArrayList<>();
        for (int i = 0; i < uris.size(); i++) {
            Master master = new Master(resources, uris.get(i), commandTimeout, RedisMode.REDLOCK + " master " + (i + 1)
                    + " of " + uris.size() + " " + RedisUris.redacted(List.of(uris.get(i))));
            try {
                master.connect();
            } catch (LockException e) {
                failures.add(e);
            }
            masters.add(master);
        }
        int needed = uris.size() / 2 + 1;
        if (uris.size() - failures.size() < needed) {
            closeAll(masters);
            LockException failure = new LockException("Only " + (uris.size() - failures.size()) + " of " + uris.size()
                    + " RedLock masters answer; " + needed + " are needed to lock (" + description + "): "
                    + failures.stream().map(LockException::getMessage).toList());
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
        RedLockStore store = new RedLockStore(masters, commandTimeout, lease, description);
        for (Master master : masters) {
            if (!master.isConnected()) {
                LOG.log(Level.WARNING, master.name + " does not answer; locking goes on with the majority, and it"
                        + " joins once it answers");
                store.rejoinLater(master);
            }
        }
        return store;
    }

    private void rejoinLater(Master master) {
        MasterRejoin rejoin = new MasterRejoin(master.resources, master.name, () -> {
            master.connect();
            if (!closed) { // once closed, close() closes every master it connected
                channels.join(master.endpoint.pubSub());
            }
        }, master::close);
        rejoins.add(rejoin);
        rejoin.start();
    }

    @Override
    public CompletionStage<List<Long>> acquire(ScriptCall acquisition, ScriptCall undo, long leaseMillis) {
        long started = System.nanoTime();
        return votes.askAllReplies(scripts -> acquisition.<List<Long>>runOn(scripts)).thenCompose(replies -> {
            votes.refusedByMajority(replies, "acquire");
            List<List<Long>> answers = replies.stream().map(MasterReply::value).toList();
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
                return CompletableFuture.completedFuture(List.of(1L, token));
            }
            long wait = granted.isEmpty() && soonestFree != Long.MAX_VALUE ? soonestFree : backOff();
            return undoOn(granted, undo).thenApply(undone -> List.of(0L, wait));
        });
    }

    @Override
    public boolean tokensNeedPublishing() {
        return true;
    }

    @Override
    public boolean oneNodeDecides() {
        return false;
    }

    @Override
    public CompletionStage<Void> publishToken(String fenceKey, long token, long lifetimeMillis) {
        ScriptCall raise = LockScript.call("raise-fence").key("fence", fenceKey).arg("token", token)
                .arg("fence-life", lifetimeMillis).integer();
        return votes.askAll(scripts -> raise.<Long>runOn(scripts)).thenApply(answers -> {
            long told = answers.stream().filter(Objects::nonNull).count();
            if (told < majority) {
                throw new LockException("Only " + told + " of " + masters.size() + " RedLock masters learned fencing"
                        + " token " + token + "; " + majority + " must, or a later holder could get a smaller one ("
                        + description + ")");
            }
            return null;
        });
    }

    /**
     * Takes back the grants of a failed attempt, so that nothing of it is left when the caller
     * hears "not acquired"; a master that does not answer keeps the grant until its lease ends.
     */
    private CompletionStage<Void> undoOn(List<Integer> granted, ScriptCall undo) {
        CompletableFuture<?>[] undone = granted.stream()
                .map(index -> masters.get(index).ask(scripts -> undo.runOn(scripts), nodeTimeoutMillis))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(undone);
    }

    private static long backOff() {
        return ThreadLocalRandom.current().nextLong(5, 50);
    }

    @Override
    public CompletionStage<Long> update(ScriptCall call, long lostAnswer) {
        return votes.askAll(scripts -> call.<Long>runOn(scripts)).thenApply(answers -> {
            Long agreed = votes.agreed(answers.stream().filter(answer -> answer != null && answer != lostAnswer).toList(),
                    answer -> answer);
            return agreed == null ? lostAnswer : agreed;
        });
    }

    @Override
    public CompletionStage<List<Long>> renew(ScriptCall call) {
        return votes.askAll(scripts -> call.<List<Long>>runOn(scripts)).thenApply(answers -> {
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
        return votes.askAll(scripts -> call.<Long>runOn(scripts)).thenApply(answers -> {
            if (answers.stream().allMatch(Objects::isNull)) {
                throw new LockException("No RedLock master answered the " + call.args()[0] + " operation ("
                        + description + ")");
            }
            return answers.stream().filter(Objects::nonNull).max(Long::compare).orElseThrow();
        });
    }

    @Override
    public CompletionStage<List<String>> askEveryNode(ScriptCall call) {
        return votes.askAllReplies(scripts -> call.<List<String>>runOn(scripts)).thenApply(replies -> {
            if (replies.stream().allMatch(reply -> reply.value() == null)) {
                Throwable failure = replies.get(0).failure();
                throw new LockException("No RedLock master answered (" + description + "): "
                        + RedisErrors.describe(failure), failure);
            }
            return replies.stream().filter(reply -> reply.value() != null).flatMap(reply -> reply.value().stream())
                    .distinct().toList();
        });
    }

    @Override
    public CompletionStage<String> value(String key) {
        return votes.askAllCommands(master -> master.endpoint.commands().get(key))
                .thenApply(answers -> votes.agreed(answers, value -> value.split("\\|", 2)[0]));
    }

    @Override
    public CompletionStage<List<String>> hashFields(String key) {
        return votes.askAllCommands(master -> master.endpoint.commands().hkeys(key)).thenApply(answers -> {
            Map<String, Integer> fieldVotes = new HashMap<>();
            answers.stream().filter(Objects::nonNull).flatMap(List::stream).forEach(field -> fieldVotes.merge(field, 1, Integer::sum));
            return fieldVotes.entrySet().stream().filter(vote -> vote.getValue() >= majority).map(Map.Entry::getKey).toList();
        });
    }

    @Override
    public CompletionStage<Long> timeToLive(String key) {
        return votes.askAllCommands(master -> master.endpoint.commands().pttl(key)).thenApply(answers -> {
            // A hold lasts while a majority keeps it: the majority-th longest time to live.
            List<Long> known = answers.stream().filter(Objects::nonNull).sorted(Comparator.reverseOrder()).toList();
            return known.size() >= majority ? known.get(majority - 1) : -2L;
        });
    }

    @Override
    public CompletionStage<Long> awaitReplicas(String key, int replicas, long timeoutMillis) {
        throw new UnsupportedOperationException("RedLock masters have no replicas to wait for");
    }

    @Override
    public CompletionStage<Void> ping() {
        return votes.askAllCommands(master -> master.endpoint.commands().ping()).thenApply(answers -> {
            long answered = answers.stream().filter(Objects::nonNull).count();
            if (answered < majority) {
                throw new LockException("Only " + answered + " of " + masters.size() + " RedLock masters answer; "
                        + majority + " are needed (" + description + ")");
            }
            return null;
        });
    }

    @Override
    public boolean sharded() {
        return false; // independent masters, each a whole server
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
        closed = true;
        // A master joining now would otherwise keep a Lettuce thread connecting past close().
        rejoins.forEach(rejoin -> rejoin.stop(connectPatience));
        closeAll(masters);
    }

    /** Closes the connected masters together, so that closing waits once, not once per master. */
    private static void closeAll(List<Master> masters) {
        RedisEndpoint.closeAll(masters.stream().map(master -> master.endpoint).filter(Objects::nonNull).toList());
    }
}
