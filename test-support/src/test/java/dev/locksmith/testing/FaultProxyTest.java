package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fault proxy keeps a pipelined connection's replies in order whatever it does to one
 * command, and each kind of fault does what it says to the command it picks, and to nothing else.
 */
class FaultProxyTest {
    private final LocalRedisServer redis = LocalRedisServer.start();
    private final FaultProxy proxy = FaultProxy.inFrontOf(redis);
    private final RedisClient client = LettuceClients.standalone(Duration.ofMillis(300));

    @AfterEach
    void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        proxy.close();
        assertThat(proxy.threadsAlive()).as("threads of the closed proxy").isEmpty();
        redis.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void pipelinedCommandsWithAnErrorInTheMiddleKeepEveryOtherReplyRight() throws Exception {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(proxy.uri()))) {
            RedisAsyncCommands<String, String> commands = connection.async();
            proxy.arm(FaultProxy.Fault.errorReply("INCRBY", 5, FaultProxy.BUSY));

            connection.setAutoFlushCommands(false);
            List<RedisFuture<Long>> replies = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                replies.add(commands.incrby("counter-" + i, i));
            }
            connection.flushCommands();
            connection.setAutoFlushCommands(true);

            for (int i = 1; i <= 10; i++) {
                RedisFuture<Long> reply = replies.get(i - 1);
                if (i == 5) {
                    assertThatThrownBy(() -> reply.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                            .hasCauseInstanceOf(RedisBusyException.class);
                } else {
                    assertThat(reply.get(5, TimeUnit.SECONDS)).as("reply %d", i).isEqualTo((long) i);
                }
            }
            assertThat(redis.command("GET", "counter-5")).as("the refused command never reached Redis").isNull();
            assertThat(proxy.fired()).isNotNull();
            assertThat(proxy.trace()).filteredOn(entry -> entry.signature().equals("INCRBY")).hasSize(10);
        }
    }

    @Test
    void noAnswerHoldsTheReplyAndThoseAfterItButTheCommandRuns() throws Exception {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(proxy.uri()))) {
            RedisAsyncCommands<String, String> commands = connection.async();
            proxy.arm(FaultProxy.Fault.noAnswer("INCR", 1, Duration.ofSeconds(1)));

            RedisFuture<Long> held = commands.incr("held");
            RedisFuture<Long> behind = commands.incrby("behind", 7);

            assertThatThrownBy(() -> held.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(RedisCommandTimeoutException.class);
            assertThatThrownBy(() -> behind.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(RedisCommandTimeoutException.class);
            assertThat(redis.command("GET", "held")).as("Redis ran the command whose reply was held").isEqualTo("1");
            Await.until("the held replies delivered and the connection in step again", Duration.ofSeconds(5),
                    () -> answered(commands.incrby("after-" + System.nanoTime(), 3)) == 3L, redis::describe);
        }
    }

    @Test
    void aHeldErrorReplyLetsTheCommandsSentMeanwhileReachRedisAndHoldsTheirReplies() throws Exception {
        proxy.arm(FaultProxy.Fault.heldErrorReply("INCR", 1, FaultProxy.NOSCRIPT, Duration.ofSeconds(2)));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(resp("INCR", "refused"));
            out.write(resp("INCRBY", "behind", "7"));
            out.flush();
            InputStream in = socket.getInputStream();

            Await.until("the command sent after the refused one ran in Redis", Duration.ofSeconds(5),
                    () -> "7".equals(redis.command("GET", "behind")), redis::describe);
            assertThat(in.available()).as("the error, and the reply behind it, are still held").isZero();
            BufferedReader replies = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            assertThat(replies.readLine()).isEqualTo("-" + FaultProxy.NOSCRIPT);
            assertThat(replies.readLine()).isEqualTo(":7");
        }
        assertThat(redis.command("GET", "refused")).as("the refused command never reached Redis").isNull();
    }

    @Test
    void dropBeforeClosesTheConnectionWithoutForwardingTheCommandOrAnythingAfterIt() throws IOException {
        proxy.arm(FaultProxy.Fault.dropBefore("INCR", 2));

        List<String> replies = pipelineRaw("INCR", "first", "INCR", "second", "INCR", "third");

        assertThat(replies).as("the reply before the dropped command, then the end").containsExactly(":1");
        assertThat(redis.command("GET", "first")).isEqualTo("1");
        assertThat(redis.command("GET", "second")).isNull();
        assertThat(redis.command("GET", "third")).isNull();
        Await.until("the connection closed on both sides", Duration.ofSeconds(5), () -> proxy.connections() == 0);
    }

    @Test
    void dropAfterClosesTheConnectionOnceRedisRanTheCommandWithoutDeliveringItsReply() throws IOException {
        proxy.arm(FaultProxy.Fault.dropAfter("INCR", 2));

        List<String> replies = pipelineRaw("INCR", "first", "INCR", "second", "INCR", "third");

        assertThat(replies).as("the reply before the dropped command, then the end").containsExactly(":1");
        assertThat(redis.command("GET", "first")).isEqualTo("1");
        assertThat(redis.command("GET", "second")).as("it ran").isEqualTo("1");
        assertThat(redis.command("GET", "third")).as("nothing after it reached Redis").isNull();
    }

    @Test
    void aLostPushIsTheOnlyMessageMissingAndSubscriptionsStillAnswerInOrder() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub(LettuceClients.uri(proxy.uri()))) {
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    heard.add(channel + "=" + message);
                }
            });
            pubSub.async().subscribe("news", "sport").get(5, TimeUnit.SECONDS);
            assertThat(pubSub.async().ping().get(5, TimeUnit.SECONDS)).isEqualToIgnoringCase("pong");
            proxy.arm(FaultProxy.Fault.losePush("MESSAGE news", 2));

            for (int i = 1; i <= 3; i++) {
                RespClient.call(redis.port(), "PUBLISH", "news", "n" + i);
                RespClient.call(redis.port(), "PUBLISH", "sport", "s" + i);
            }

            Await.until("every message but the lost one heard", Duration.ofSeconds(5), () -> heard.size() == 5);
            assertThat(heard).containsExactly("news=n1", "sport=s1", "sport=s2", "news=n3", "sport=s3");
            assertThat(proxy.fired().push()).isTrue();
            pubSub.async().unsubscribe().get(5, TimeUnit.SECONDS);
            assertThat(pubSub.async().ping().get(5, TimeUnit.SECONDS)).isEqualToIgnoringCase("pong");
        }
    }

    @Test
    void anErrorInPlaceOfASubscribeLeavesTheChannelUnsubscribed() throws Exception {
        try (StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub(LettuceClients.uri(proxy.uri()))) {
            proxy.arm(FaultProxy.Fault.errorReply("SUBSCRIBE", 1, "NOPERM this user has no permissions to access one of the channels"));

            assertThatThrownBy(() -> pubSub.async().subscribe("refused").get(5, TimeUnit.SECONDS))
                    .hasMessageContaining("NOPERM");
            assertThat(RespClient.call(redis.port(), "PUBSUB", "NUMSUB", "refused")).isEqualTo(List.of("refused", "0"));
            pubSub.async().subscribe("granted").get(5, TimeUnit.SECONDS);
            assertThat(RespClient.call(redis.port(), "PUBSUB", "NUMSUB", "granted")).isEqualTo(List.of("granted", "1"));
        }
    }

    @Test
    void aLostPushOnAResp2ConnectionLeavesTheOthers() throws IOException {
        proxy.arm(FaultProxy.Fault.losePush("MESSAGE old", 1));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(resp("SUBSCRIBE", "old"));
            out.flush();
            RespFrame.Reader in = new RespFrame.Reader(socket.getInputStream());
            assertThat(in.next().head()).containsExactly("subscribe", "old", "1");

            RespClient.call(redis.port(), "PUBLISH", "old", "lost");
            RespClient.call(redis.port(), "PUBLISH", "old", "kept");

            assertThat(in.next().head()).containsExactly("message", "old", "kept");
            assertThat(proxy.trace()).extracting(FaultProxy.Traced::signature)
                    .containsExactly("SUBSCRIBE", "MESSAGE old", "MESSAGE old");
        }
    }

    @Test
    void scriptsAreLabelledBySha() throws Exception {
        String script = "return 1";
        String sha = redis.command("SCRIPT", "LOAD", script);
        try (FaultProxy labelled = FaultProxy.inFrontOf(redis, s -> s.equals(sha) ? "one" : null, channel -> channel);
             StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(labelled.uri()))) {
            connection.sync().evalsha(sha, io.lettuce.core.ScriptOutputType.INTEGER);
            connection.sync().eval(script, io.lettuce.core.ScriptOutputType.INTEGER);

            assertThat(labelled.trace()).extracting(FaultProxy.Traced::signature)
                    .contains("EVALSHA one", "EVAL one", "HELLO");
        }
    }

    private static long answered(RedisFuture<Long> reply) {
        try {
            return reply.get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends the commands in one write over a raw RESP2 connection, and reads replies until it closes. */
    private List<String> pipelineRaw(String... words) throws IOException {
        List<String> replies = new ArrayList<>();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < words.length; i += 2) {
                out.write(resp(words[i], words[i + 1]));
            }
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int next;
            while ((next = in.read()) >= 0) {
                if (next == '\n') {
                    replies.add(line.toString().trim());
                    line.setLength(0);
                } else {
                    line.append((char) next);
                }
            }
        }
        return replies;
    }

    private static byte[] resp(String... words) {
        StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            request.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
        }
        return request.toString().getBytes(StandardCharsets.UTF_8);
    }
}
