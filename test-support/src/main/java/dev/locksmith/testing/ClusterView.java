package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One cluster node's view of the cluster, read from its {@code CLUSTER NODES} reply: who is
 * there, who is master of which slots, who replicates whom, who is failing.
 */
final class ClusterView {
    private final List<Entry> entries;

    private ClusterView(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * @param node the node to ask
     * @return its view now
     * @throws java.io.UncheckedIOException if the node does not answer
     */
    static ClusterView of(RedisNode node) {
        return parse(String.valueOf(RespClient.call(node.port(), "CLUSTER", "NODES")));
    }

    static ClusterView parse(String clusterNodes) {
        List<Entry> entries = new ArrayList<>();
        for (String line : clusterNodes.split("\r?\n")) {
            if (!line.isBlank()) {
                entries.add(Entry.parse(line));
            }
        }
        return new ClusterView(entries);
    }

    /**
     * @return every node this one knows, itself included
     */
    List<Entry> entries() {
        return entries;
    }

    /**
     * @return the asked node's own entry
     */
    Entry myself() {
        return entries.stream().filter(e -> e.flags().contains("myself")).findFirst()
                .orElseThrow(() -> new IllegalStateException("CLUSTER NODES has no 'myself' entry: " + entries));
    }

    /**
     * @param slot a hash slot, 0 to 16383
     * @return the master that serves it in this view, unless no healthy master does
     */
    Optional<Entry> ownerOf(int slot) {
        return entries.stream().filter(Entry::isHealthyMaster).filter(e -> e.serves(slot)).findFirst();
    }

    /**
     * @param port a node's port
     * @return that node's entry, if this view knows it
     */
    Optional<Entry> entryOf(int port) {
        return entries.stream().filter(e -> e.port() == port).findFirst();
    }

    /**
     * @param masterId a master's node id
     * @return the nodes this view lists as its replicas
     */
    List<Entry> replicasOf(String masterId) {
        return entries.stream().filter(e -> masterId.equals(e.masterId())).toList();
    }

    /**
     * @return how many slots healthy masters serve in this view
     */
    int servedSlots() {
        return entries.stream().filter(Entry::isHealthyMaster)
                .mapToInt(e -> e.slotRanges().stream().mapToInt(r -> r[1] - r[0] + 1).sum()).sum();
    }

    /**
     * One line of {@code CLUSTER NODES}.
     *
     * @param id        the node id
     * @param port      its client port
     * @param busPort   its cluster bus port
     * @param flags     such as {@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}
     * @param masterId  the id of its master, or {@code -} for a master
     * @param slotRanges the slot ranges it serves, each {@code [first, last]}
     */
    record Entry(String id, int port, int busPort, Set<String> flags, String masterId, List<int[]> slotRanges) {

        static Entry parse(String line) {
            String[] fields = line.trim().split(" ");
            String address = fields[1].split(",")[0];
            String ports = address.substring(address.lastIndexOf(':') + 1);
            int at = ports.indexOf('@');
            List<int[]> ranges = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot being imported or migrated
                }
                String[] bounds = fields[i].split("-");
                int first = Integer.parseInt(bounds[0]);
                ranges.add(new int[] {first, bounds.length > 1 ? Integer.parseInt(bounds[1]) : first});
            }
            return new Entry(fields[0], Integer.parseInt(ports.substring(0, at)),
                    Integer.parseInt(ports.substring(at + 1)), Set.of(fields[2].split(",")), fields[3], ranges);
        }

        boolean isMaster() {
            return flags.contains("master");
        }

        boolean isFailing() {
            return flags.contains("fail") || flags.contains("fail?") || flags.contains("handshake")
                    || flags.contains("noaddr");
        }

        boolean isHealthyMaster() {
            return isMaster() && !isFailing();
        }

        boolean serves(int slot) {
            return slotRanges.stream().anyMatch(r -> r[0] <= slot && slot <= r[1]);
        }

        @Override
        public String toString() {
            return id + " 127.0.0.1:" + port + " " + flags;
        }
    }
}
