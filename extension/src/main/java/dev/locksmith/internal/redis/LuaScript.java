package dev.locksmith.internal.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script, with the SHA-1 Redis knows it by; its source is in {@code dev/locksmith/scripts/}.
 */
public final class LuaScript {
    private static final String FOLDER = "/dev/locksmith/scripts/";

    private final String name;
    private final String body;
    private final String sha;

    private LuaScript(String name, String body) {
        this.name = name;
        this.body = body;
        this.sha = sha1(body);
    }

    /**
     * @param name names the script in messages
     * @param body its Lua text
     * @return the script
     */
    public static LuaScript of(String name, String body) {
        return new LuaScript(name, body);
    }

    /**
     * @param name the file name without {@code .lua}
     * @return the text of the file
     * @throws IllegalStateException if it is not on the class path (a broken build)
     */
    public static String source(String name) {
        String path = FOLDER + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + path + " is missing from the locksmith jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Lua script " + path, e);
        }
    }

    public String name() {
        return name;
    }

    public String body() {
        return body;
    }

    public String sha() {
        return sha;
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM has no SHA-1, which every Java platform must have", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
