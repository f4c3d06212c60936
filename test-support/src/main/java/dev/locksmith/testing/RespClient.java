package dev.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal RESP client for the fixture's own housekeeping, so the fixture does not depend on
 * the library it tests. Reads simple replies, integers, bulk strings and flat arrays.
 */
public final class RespClient {
    private RespClient() {
    }

    /**
     * @return the reply: a String for simple, bulk and integer replies (null for nil), a List for arrays
     * @throws IllegalStateException for an error reply
     */
    public static Object call(int port, String... words) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
            for (String word : words) {
                byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
                request.append('$').append(bytes.length).append("\r\n").append(word).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Redis on 127.0.0.1:" + port + " did not answer " + String.join(" ", words), e);
        }
    }

    /**
     * Sends the commands one after the other on one connection, as a client whose later
     * commands depend on its earlier ones ({@code WAIT} counts the writes of its own connection).
     *
     * @return their replies, in order, as {@link #call} gives them
     * @throws IllegalStateException for an error reply
     */
    public static List<Object> calls(int port, List<String[]> commands) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<Object> replies = new ArrayList<>();
            for (String[] words : commands) {
                StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
                for (String word : words) {
                    byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
                    request.append('$').append(bytes.length).append("\r\n").append(word).append("\r\n");
                }
                out.write(request.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                replies.add(read(in));
            }
            return replies;
        } catch (IOException e) {
            throw new UncheckedIOException("Redis on 127.0.0.1:" + port + " did not answer " + commands.size() + " commands", e);
        }
    }

    private static Object read(BufferedReader in) throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("connection closed");
        }
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+', ':' -> {
                return rest;
            }
            case '-' -> throw new IllegalStateException("Redis error: " + rest);
            case '$' -> {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                char[] buffer = new char[length];
                int read = 0;
                while (read < length) {
                    read += in.read(buffer, read, length - read);
                }
                in.readLine();
                return new String(buffer);
            }
            case '*' -> {
                int count = Integer.parseInt(rest);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    items.add(read(in));
                }
                return items;
            }
            default -> throw new IOException("unexpected reply " + line);
        }
    }
}
