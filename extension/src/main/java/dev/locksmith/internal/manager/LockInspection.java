package dev.locksmith.internal.manager;

import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockOffer;
import dev.locksmith.internal.lock.RunRecordFormat;
import dev.locksmith.internal.lock.LockKeys;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
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
    private static final String LAST_RUN = "last-run|";

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
        Map<String, InspectedLine> holders = new LinkedHashMap<>();
        int queued = 0;
        int processes = 0;
        LastRun lastRun = null;
        InspectedOffer offer = null;
        for (String text : lines) {
            if (text.startsWith(InspectedOffer.PREFIX)) {
                // Offers are made where one node decides (never with RedLock); the reentrant lock's comes first.
                offer = offer == null ? InspectedOffer.parse(text) : offer;
                continue;
            }
            if (text.startsWith(LAST_RUN)) {
                LastRun run = RunRecordFormat.read(text.substring(LAST_RUN.length()));
                if (lastRun == null || run.started().isAfter(lastRun.started())) {
                    lastRun = run; // with RedLock, the latest any master remembers
                }
                continue;
            }
            InspectedLine line = InspectedLine.parse(text);
            if (line.holder()) {
                holders.merge(line.mode() + "|" + line.owner(), line, InspectedLine::mergedWith);
            } else {
                queued = Math.max(queued, line.queued());
                processes = Math.max(processes, line.processes());
            }
        }
        Map<String, String> processOf = new HashMap<>();
        List<LockHolder> result = new ArrayList<>();
        for (InspectedLine holder : holders.values()) {
            String process = processOf.computeIfAbsent(holder.managerId(), id -> process(id, name));
            result.add(new LockHolder(holder.owner(), holder.mode(), process, holder.thread(), holder.holdCount(),
                    holder.fencingToken(), holder.since(), holder.leaseLeft()));
        }
        Optional<LockOffer> standing = offer == null ? Optional.empty()
                : Optional.of(offer.describedAs(processOf.computeIfAbsent(offer.managerId(), id -> process(id, name))));
        return new LockInfo(name, result, queued, processes, Optional.ofNullable(lastRun), standing);
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
