package dev.locksmith.internal.redis;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Keys and values as UTF-8 strings, as Lettuce's {@code StringCodec.UTF8} encodes and decodes them,
 * that tell Lettuce the exact length of each one's encoding, so that every key and argument of a
 * command is written straight into the command's buffer. Lettuce writes an argument whose length it
 * only estimates into a buffer of its own first and then copies it: a buffer allocated per argument,
 * about ten per script call, and with Netty's leak detector at its default level a stack trace
 * recorded for one in every 128 of them.
 */
final class ExactUtf8Codec extends StringCodec {
    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private ExactUtf8Codec() {
        super(StandardCharsets.UTF_8);
    }

    /**
     * @return the exact number of bytes {@link #encodeKey} or {@link #encodeValue} writes for it:
     *         {@code ByteBufUtil.writeUtf8} writes what {@code ByteBufUtil.utf8Bytes} counts, an
     *         unpaired surrogate included (one byte, {@code '?'})
     */
    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue instanceof CharSequence text ? ByteBufUtil.utf8Bytes(text) : 0;
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }
}
