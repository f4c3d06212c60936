package dev.locksmith.internal.lock;

import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.internal.store.LockScript;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one lock name's state from Redis for {@link dev.locksmith.LockManager#describe}: every
 * kind's holders from one script call, then the description of each holding manager.
 */
final class LockInspection {
    private final LockContext context;

    LockInspection(LockContext context) {
        this.context = context;
    }

    private static String[] combine(String[] seen, String[] other) {
        String[] combined = (Long.parseLong(other[6]) < Long.parseLong(seen[6]) ? other : seen).clone();
        combined[3] = Long.toString(Math.max(Long.parseLong(seen[3]), Long.parseLong(other[3])));
        return combined;
    }

    LockInfo describe(String name) {
        LockNames.require(name);
        context.state().checkOpen();
        String prefix = context.settings().keyPrefix();
        LockKeys keys = LockKeys.of(prefix, name);
        boolean sharded = context.store().publishCommand().equals("spublish");
        List<String> lines = context.replies().await(context.store().askEveryNode(LockScript.list("inspect",
                new String[] {keys.lock(), keys.readWrite().lock(), keys.queue()}, keys.channel(),
                sharded ? "sharded" : "", keys.readWrite().channel())), "Describing lock '" + name + "'");
        // With RedLock every master answers; the same holder seen on several counts once, with the
        // shortest lease left and the largest token (a RedLock hold's token is its masters' highest).
        Map<String, String[]> holders = new LinkedHashMap<>();
        int queued = 0;
        int processes = 0;
        for (String line : lines) {
            String[] part = line.split("\\|", 8);
            if (part[0].equals("waiting")) {
                queued = Math.max(queued, Integer.parseInt(part[1]));
                processes = Math.max(processes, Integer.parseInt(part[2]));
            } else {
                holders.merge(part[1] + "|" + part[2], part, LockInspection::combine);
            }
        }
        Map<String, String> processOf = new HashMap<>();
        List<LockHolder> result = new ArrayList<>();
        for (String[] holder : holders.values()) {
            String owner = holder[2];
            String managerId = owner.substring(0, Math.max(0, owner.lastIndexOf(':')));
            String process = processOf.computeIfAbsent(managerId, id -> context.replies().await(
                    context.store().value(ManagerDirectory.keyOf(prefix, id)), "Reading who holds lock '" + name + "'"));
            result.add(new LockHolder(owner, holder[1], process, holder[7], Integer.parseInt(holder[4]),
                    Long.parseLong(holder[3]), holder[5].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(holder[5])),
                    Duration.ofMillis(Math.max(0, Long.parseLong(holder[6])))));
        }
        return new LockInfo(name, result, queued, processes);
    }
}
