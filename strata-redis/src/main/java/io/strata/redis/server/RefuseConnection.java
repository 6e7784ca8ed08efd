package io.strata.redis.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.strata.redis.protocol.Reply;
import io.strata.redis.protocol.RespEncoder;

/** Answers a connection over {@code maxclients} with Redis's error, then closes it, reading nothing. */
final class RefuseConnection extends ChannelInboundHandlerAdapter {
    private final String message;

    RefuseConnection(String message) {
        this.message = message;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ByteBuf out = ctx.alloc().buffer();
        RespEncoder.write(Reply.error(message), 2, out);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        io.netty.util.ReferenceCountUtil.release(msg);
    }
}
