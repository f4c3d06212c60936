package dev.locksmith.it;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;

/**
 * One HTTP answer of the sample: its status and its JSON body ({@code {"raw": text}} when the
 * body is not JSON, such as Liberty's own error pages).
 *
 * @param status   the HTTP status
 * @param body     the body
 * @param mappedBy the sample's {@code X-Mapped-By} header: which exception mapper answered, or null
 */
record Reply(int status, JsonObject body, String mappedBy) {

    static Reply of(int status, String text) {
        return of(status, text, null);
    }

    static Reply of(int status, String text, String mappedBy) {
        if (text == null || text.isBlank()) {
            return new Reply(status, JsonObject.EMPTY_JSON_OBJECT, mappedBy);
        }
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return new Reply(status, reader.readObject(), mappedBy);
        } catch (JsonException | IllegalStateException e) {
            return new Reply(status, Json.createObjectBuilder().add("raw", text).build(), mappedBy);
        }
    }

    int integer(String key) {
        return body.getInt(key);
    }

    String string(String key) {
        return body.getString(key, null);
    }

    boolean flag(String key) {
        return body.getBoolean(key);
    }

    /**
     * @return the error code of an error answer, such as {@code OUT_OF_STOCK}
     */
    String code() {
        return string("code");
    }

    @Override
    public String toString() {
        return status + " " + body + (mappedBy == null ? "" : " (mapped by " + mappedBy + ")");
    }
}
