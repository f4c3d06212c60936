package dev.locksmith.internal.store.redlock;

import dev.locksmith.LockException;
import dev.locksmith.internal.redis.RedisErrors;
import dev.locksmith.internal.redis.ScriptRunner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Asks every RedLock master at once, each within the node timeout, and reads what a majority
 * of them says.
 */
final class MasterVote {
    private final List<Master> masters;
    private final int majority;
    private final long nodeTimeoutMillis;

    MasterVote(List<Master> masters, int majority, long nodeTimeoutMillis) {
        this.masters = masters;
        this.majority = majority;
        this.nodeTimeoutMillis = nodeTimeoutMillis;
    }

    <T> CompletionStage<List<T>> askAll(Function<ScriptRunner, CompletionStage<T>> request) {
        return askAllReplies(request).thenApply(replies -> replies.stream().map(MasterReply::value).toList());
    }

    <T> CompletionStage<List<MasterReply<T>>> askAllReplies(Function<ScriptRunner, CompletionStage<T>> request) {
        return collect(masters.stream().map(master -> master.ask(request, nodeTimeoutMillis)).toList());
    }

    /**
     * Fails when so many masters refused the request itself (a missing permission, a wrong key
     * type) that no majority can grant it: asking again would only meet the same refusal.
     */
    <T> void refusedByMajority(List<MasterReply<T>> replies, String operation) {
        List<Throwable> refusals = replies.stream().map(MasterReply::failure)
                .filter(failure -> failure != null && !RedisErrors.isTransient(failure)).toList();
        if (refusals.size() > masters.size() - majority) {
            throw new LockException("The " + operation + " operation was refused by " + refusals.size() + " of "
                    + masters.size() + " RedLock masters: " + RedisErrors.describe(refusals.get(0)), refusals.get(0));
        }
    }

    <T> CompletionStage<List<T>> askAllCommands(Function<Master, CompletionStage<T>> request) {
        return collect(masters.stream().map(master -> master.command(request, nodeTimeoutMillis)).toList())
                .thenApply(replies -> replies.stream().map(MasterReply::value).toList());
    }

    /**
     * Waits for every master's reply; one that failed, did not answer within the node timeout,
     * or is not connected has no value.
     */
    private static <T> CompletionStage<List<MasterReply<T>>> collect(List<CompletableFuture<MasterReply<T>>> pending) {
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(done -> pending.stream().map(CompletableFuture::join).toList());
    }

    /**
     * @param identity what makes two answers the same answer
     * @return an answer a majority of masters agree on, or null
     */
    <T> T agreed(List<T> answers, Function<T, Object> identity) {
        Map<Object, Integer> votes = new HashMap<>();
        for (T answer : answers) {
            if (answer != null && votes.merge(identity.apply(answer), 1, Integer::sum) >= majority) {
                return answer;
            }
        }
        return null;
    }
}
