package dev.locksmith.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One whole RESP2 or RESP3 frame as it travelled on the wire: its bytes, to forward unchanged,
 * and what a proxy needs to route it (its type and, for an aggregate, its first few scalar
 * elements). Read by {@link Reader}, which understands every RESP3 type Redis sends, attributes
 * ({@code |}) included, which it keeps with the frame they annotate.
 */
record RespFrame(byte[] raw, char type, List<String> head, int size) {
    /** How many elements of an aggregate are kept as text: a command's name and a push's kind and channel. */
    private static final int KEPT = 3;

    /**
     * @return true for an error reply ({@code -} or RESP3's blob error {@code !})
     */
    boolean isError() {
        return type == '-' || type == '!';
    }

    /**
     * @param index from 0
     * @return the element's text, lower-cased, or "" where there is none or it is no scalar
     */
    String lowerHead(int index) {
        return index < head.size() && head.get(index) != null ? head.get(index).toLowerCase(java.util.Locale.ROOT) : "";
    }

    /**
     * Reads frames from one side of a connection, whole, keeping their bytes.
     */
    static final class Reader {
        private final InputStream in;
        private final byte[] buffer = new byte[16 * 1024];
        private int position;
        private int limit;
        private ByteArrayOutputStream capture = new ByteArrayOutputStream();

        Reader(InputStream in) {
            this.in = in;
        }

        /**
         * @return the next frame
         * @throws EOFException when the other side closed the connection between frames
         * @throws IOException  on a broken connection or bytes that are no RESP
         */
        RespFrame next() throws IOException {
            capture = new ByteArrayOutputStream();
            List<String> head = new ArrayList<>();
            char type = (char) peek();
            if (type != '*' && type != '>' && type != '$' && type != '+' && type != '-' && type != ':'
                    && type != '%' && type != '~' && type != '_' && type != '#' && type != ',' && type != '('
                    && type != '!' && type != '=' && type != '|') {
                // An inline command (telnet style): words separated by spaces on one line.
                String line = readLine();
                for (String word : line.trim().split("\\s+")) {
                    if (head.size() < KEPT) {
                        head.add(word);
                    }
                }
                return new RespFrame(capture.toByteArray(), '*', List.copyOf(head), line.trim().split("\\s+").length);
            }
            int[] size = new int[1];
            char read = value(head, size, true);
            return new RespFrame(capture.toByteArray(), read, java.util.Collections.unmodifiableList(head), size[0]);
        }

        /** Reads one value; at the top level, an aggregate's first scalars go to {@code head}. */
        private char value(List<String> head, int[] size, boolean top) throws IOException {
            String line = readLine();
            char type = line.charAt(0);
            String rest = line.substring(1);
            switch (type) {
                case '+', '-', ':', '_', '#', ',', '(' -> {
                    if (top) {
                        head.add(rest);
                    }
                    return type;
                }
                case '$', '!', '=' -> {
                    int length = Integer.parseInt(rest);
                    String text = length < 0 ? null : new String(readExact(length), StandardCharsets.UTF_8);
                    if (length >= 0) {
                        readLine(); // the CRLF after the payload
                    }
                    if (top) {
                        head.add(text);
                    }
                    return type;
                }
                case '*', '~', '>', '%', '|' -> {
                    int count = Integer.parseInt(rest);
                    int elements = type == '%' || type == '|' ? 2 * count : count;
                    if (top) {
                        size[0] = Math.max(count, 0);
                    }
                    for (int i = 0; i < elements; i++) {
                        List<String> scalar = new ArrayList<>(1);
                        value(scalar, new int[1], true);
                        if (top && type != '|' && head.size() < KEPT) {
                            head.add(scalar.isEmpty() ? null : scalar.get(0));
                        }
                    }
                    if (type == '|') {
                        // An attribute annotates the value that follows: both travel as one frame.
                        return value(head, size, top);
                    }
                    return type;
                }
                default -> throw new IOException("not RESP: a line starting with '" + type + "': " + line);
            }
        }

        private int peek() throws IOException {
            if (position == limit) {
                fill();
            }
            return buffer[position] & 0xff;
        }

        private void fill() throws IOException {
            int read = in.read(buffer);
            if (read < 0) {
                throw new EOFException("connection closed");
            }
            position = 0;
            limit = read;
        }

        private String readLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean carriageReturn = false;
            while (true) {
                if (position == limit) {
                    fill();
                }
                byte next = buffer[position++];
                capture.write(next);
                if (carriageReturn && next == '\n') {
                    byte[] bytes = line.toByteArray();
                    return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
                }
                carriageReturn = next == '\r';
                line.write(next);
            }
        }

        private byte[] readExact(int length) throws IOException {
            byte[] bytes = new byte[length];
            int filled = 0;
            while (filled < length) {
                if (position == limit) {
                    fill();
                }
                int chunk = Math.min(length - filled, limit - position);
                System.arraycopy(buffer, position, bytes, filled, chunk);
                position += chunk;
                filled += chunk;
            }
            capture.write(bytes, 0, length);
            return bytes;
        }
    }
}
