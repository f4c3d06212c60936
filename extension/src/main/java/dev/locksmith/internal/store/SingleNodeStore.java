package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.redis.ScriptRunner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Locks on one Redis deployment: a master (perhaps found through Sentinel) or a cluster. Every
 * answer is taken as the server gave it.
 */
final class SingleNodeStore implements LockStore {
    private final RedisEndpoint endpoint;
    private final ScriptRunner scripts;
    private final ReleaseChannels channels;

    SingleNodeStore(RedisEndpoint endpoint) {
        this.endpoint = endpoint;
        this.scripts = new ScriptRunner(endpoint.commands());
        this.channels = new ReleaseChannels(List.of(endpoint.pubSub()), 1, endpoint.shardedPubSub());
        endpoint.onTopologyChange(channels::renewSubscriptions);
    }

    @Override
    public CompletionStage<List<Long>> acquire(ScriptCall acquisition, ScriptCall undo, long leaseMillis) {
        return acquisition.runOn(scripts);
    }

    @Override
    public boolean tokensNeedPublishing() {
        return false;
    }

    @Override
    public boolean oneNodeDecides() {
        return true;
    }

    @Override
    public CompletionStage<Void> publishToken(String fenceKey, long token, long lifetimeMillis) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Long> update(ScriptCall call, long lostAnswer) {
        return call.runOn(scripts);
    }

    @Override
    public CompletionStage<List<Long>> renew(ScriptCall call) {
        return call.runOn(scripts);
    }

    @Override
    public CompletionStage<Long> everywhere(ScriptCall call) {
        return call.runOn(scripts);
    }

    @Override
    public CompletionStage<List<String>> hashFields(String key) {
        return endpoint.commands().hkeys(key);
    }

    @Override
    public CompletionStage<List<String>> askEveryNode(ScriptCall call) {
        return call.runOn(scripts);
    }

    @Override
    public CompletionStage<String> value(String key) {
        return endpoint.commands().get(key);
    }

    @Override
    public CompletionStage<Long> timeToLive(String key) {
        return endpoint.commands().pttl(key);
    }

    @Override
    public CompletionStage<Long> awaitReplicas(String key, int replicas, long timeoutMillis) {
        return endpoint.awaitReplicas(key, replicas, timeoutMillis);
    }

    @Override
    public CompletionStage<Void> ping() {
        return endpoint.commands().ping().thenApply(pong -> null);
    }

    @Override
    public boolean sharded() {
        return endpoint.shardedPubSub();
    }

    @Override
    public ReleaseChannels channels() {
        return channels;
    }

    @Override
    public int partitionOf(String key) {
        return endpoint.partitionOf(key);
    }

    @Override
    public String description() {
        return endpoint.description();
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
