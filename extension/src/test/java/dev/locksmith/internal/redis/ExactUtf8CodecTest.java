package dev.locksmith.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The codec tells Lettuce the exact length of what it writes, so that Lettuce can write each key and
 * argument straight into the command: a length one byte off would corrupt the request. It writes the
 * bytes Lettuce's own UTF-8 codec writes.
 */
class ExactUtf8CodecTest {
    private static final List<String> VALID = List.of("", "locksmith:{orders}:unlock:Xy_9-abc:42", "ünïcødé ✓",
            "\uD83D\uDD12 vault", "日本語のスレッド");
    // No UTF-8 form: written as '?', as Lettuce's own codec writes it.
    private static final String LONE_SURROGATES = "a lone high surrogate \uD800 and a lone low one \uDC00";

    @Test
    void eachTextIsAsLongAsItsSizeSaysAndEncodedAsLettuceEncodesIt() {
        for (String text : concat(VALID, LONE_SURROGATES)) {
            ByteBuf ours = Unpooled.buffer();
            ByteBuf lettuces = Unpooled.buffer();

            ExactUtf8Codec.INSTANCE.encodeValue(text, ours);
            StringCodec.UTF8.encodeValue(text, lettuces);

            assertThat(ExactUtf8Codec.INSTANCE.estimateSize(text)).as("the size of %s", text).isEqualTo(ours.readableBytes());
            assertThat(bytes(ours)).as("the bytes of %s", text).isEqualTo(bytes(lettuces));
        }
        assertThat(ExactUtf8Codec.INSTANCE.isEstimateExact()).isTrue();
    }

    @Test
    void whatItWritesReadsBackAsTheSameText() {
        for (String text : VALID) {
            ByteBuf buffer = Unpooled.buffer();
            ExactUtf8Codec.INSTANCE.encodeKey(text, buffer);
            assertThat(ExactUtf8Codec.INSTANCE.decodeKey(buffer.nioBuffer())).isEqualTo(text);
            assertThat(new String(bytes(buffer), StandardCharsets.UTF_8)).isEqualTo(text);
        }
    }

    private static List<String> concat(List<String> texts, String more) {
        return Stream.concat(texts.stream(), Stream.of(more)).toList();
    }

    private static byte[] bytes(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.getBytes(buffer.readerIndex(), bytes);
        return bytes;
    }
}
