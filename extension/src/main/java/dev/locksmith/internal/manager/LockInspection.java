package dev.locksmith.internal.manager;

import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockOffer;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import dev.locksmith.internal.wire.InspectLine;
import dev.locksmith.internal.wire.RunRecordFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one lock name's state from Redis for {@link dev.locksmith.LockManager#describe}: every
 * kind's holders and a standing offer from one script call, then the description of each holding
 * manager and of the manager offered to; and a job's recent runs for
 * {@link dev.locksmith.LockManager#describeJob}.
 */
final class LockInspection {
    private final LockStore store;
    private final RedisReplies replies;
    private final String keyPrefix;

    LockInspection(LockStore store, RedisReplies replies, String keyPrefix) {
        this.store = store;
        this.replies = replies;
        this.keyPrefix = keyPrefix;
    }

    /**
     * @param name a valid lock name
     */
    LockInfo describe(String name) {
        LockKeys keys = LockKeys.of(keyPrefix, name);
        boolean sharded = store.sharded();
        List<String> lines = replies.await(store.askEveryNode(LockScript.call("inspect").key("lock", keys.lock())
                .key("rw-lock", keys.readWrite().lock()).key("queue", keys.queue()).key("last-run", keys.lastRun())
                .arg("channel", keys.channel()).arg("sharded", sharded ? "sharded" : "")
                .arg("rw-channel", keys.readWrite().channel()).list()), "Describing lock '" + name + "'");
        // With RedLock every master answers; the same holder seen on several counts once.
        Map<String, InspectLine.Holder> holders = new LinkedHashMap<>();
        int queued = 0;
        int processes = 0;
        LastRun lastRun = null;
        InspectLine.Offer offer = null;
        for (String text : lines) {
            InspectLine line = InspectLine.parse(text);
            if (line instanceof InspectLine.Holder holder) {
                holders.merge(holder.mode() + "|" + holder.owner(), holder, LockInspection::merged);
            } else if (line instanceof InspectLine.Offer offered) {
                // Offers are made where one node decides (never with RedLock); the reentrant lock's comes first.
                offer = offer == null ? offered : offer;
            } else if (line instanceof InspectLine.Waiting waiting) {
                queued = Math.max(queued, waiting.queued());
                processes = Math.max(processes, waiting.processes());
            } else if (line instanceof InspectLine.LatestRun latest) {
                LastRun run = latest.run();
                if (lastRun == null || run.started().isAfter(lastRun.started())) {
                    lastRun = run; // with RedLock, the latest any master remembers
                }
            }
        }
        Map<String, String> processOf = new HashMap<>();
        List<LockHolder> result = new ArrayList<>();
        for (InspectLine.Holder holder : holders.values()) {
            String process = processOf.computeIfAbsent(holder.managerId(), id -> process(id, name));
            result.add(new LockHolder(holder.owner(), holder.mode(), process, holder.thread(), holder.holdCount(),
                    holder.fencingToken(), holder.since(), holder.leaseLeft()));
        }
        Optional<LockOffer> standing = offer == null ? Optional.empty()
                : Optional.of(new LockOffer(offer.mode(), offer.managerId(),
                processOf.computeIfAbsent(offer.managerId(), id -> process(id, name)), offer.since(),
                offer.reservationLeft(), offer.passedOn()));
        return new LockInfo(name, result, queued, processes, Optional.ofNullable(lastRun), standing);
    }

    /**
     * The same holder seen on another master (RedLock): the shortest lease left and the largest
     * token, since a RedLock hold's token is its masters' highest.
     */
    private static InspectLine.Holder merged(InspectLine.Holder one, InspectLine.Holder other) {
        InspectLine.Holder shorter = other.leaseLeft().compareTo(one.leaseLeft()) < 0 ? other : one;
        return new InspectLine.Holder(one.mode(), one.owner(), Math.max(one.fencingToken(), other.fencingToken()),
                shorter.holdCount(), shorter.since(), shorter.leaseLeft(), shorter.thread());
    }

    /**
     * @return how the manager of that id describes itself, or null when it no longer does
     */
    private String process(String managerId, String name) {
        return replies.await(store.value(ManagerDirectory.keyOf(keyPrefix, managerId)),
                "Reading who holds lock '" + name + "'");
    }

    /**
     * @param job a valid job name
     */
    JobInfo describeJob(String job) {
        LockKeys keys = LockKeys.of(keyPrefix, job);
        List<String> records = replies.await(store.askEveryNode(LockScript.call("recent-runs")
                .key("runs", keys.recentRuns()).list()), "Describing job '" + job + "'");
        // With RedLock every master answers; a run that several remember counts once.
        Map<String, LastRun> runs = new LinkedHashMap<>();
        for (String record : records) {
            runs.putIfAbsent(record, RunRecordFormat.read(record));
        }
        List<LastRun> recent = runs.values().stream()
                .sorted(Comparator.comparing(LastRun::started).reversed())
                .limit(JobInfo.RECENT_RUNS)
                .toList();
        Optional<LastRun> last = recent.isEmpty() ? describe(job).lastRun() : Optional.of(recent.get(0));
        return new JobInfo(job, last, recent);
    }
}
