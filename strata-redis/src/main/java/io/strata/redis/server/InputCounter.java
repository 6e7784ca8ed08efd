package io.strata.redis.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.LongAdder;

/** Counts the bytes clients send ({@code total_net_input_bytes}) before the decoder sees them. */
final class InputCounter extends ChannelInboundHandlerAdapter {
    private final LongAdder bytes;

    InputCounter(LongAdder bytes) {
        this.bytes = bytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf) {
            bytes.add(((ByteBuf) msg).readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
