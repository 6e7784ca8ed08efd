package io.strata.redis.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.protocol.ProtocolException;
import io.strata.redis.protocol.RespEncoder;
import io.strata.redis.protocol.Reply;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * One client connection: executes its requests strictly in order, one at a time, and writes
 * each reply before the next request starts — so a pipelined connection sees Redis's order —
 * while other connections' requests run at the same time.
 *
 * <h2>Concurrency</h2>
 * Every field is used only on the channel's event loop. A request whose future completes on
 * another thread (the database's) comes back to the event loop to write its reply and start
 * the next one.
 *
 * <h2>Flow control</h2>
 * A client that pipelines faster than its requests run fills {@link #pending}; past
 * {@link #PAUSE_READING_AT} requests the connection stops reading from the socket until the
 * queue drains below {@link #RESUME_READING_AT}, so one client's pipeline cannot exhaust the
 * heap. Replies are flushed when the connection has nothing left to run, or every
 * {@link #FLUSH_EVERY} replies, so a deep pipeline gets its replies in large writes.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
    /** Requests queued before reading pauses: deep enough for any benchmark's pipeline. */
    private static final int PAUSE_READING_AT = 4096;
    private static final int RESUME_READING_AT = 1024;
    /** Replies written before a flush even if more are queued: bounds the outbound buffer. */
    private static final int FLUSH_EVERY = 256;

    private final ClientSession session;
    private final CommandExecutor executor;
    private final Runnable onClose;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean running;
    private int unflushed;
    private boolean closing;

    ClientConnection(ClientSession session, CommandExecutor executor, Runnable onClose) {
        this.session = session;
        this.executor = executor;
        this.onClose = onClose;
    }

    ClientSession session() {
        return session;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            return;
        }
        pending.add(msg);
        if (pending.size() >= PAUSE_READING_AT) {
            ctx.channel().config().setAutoRead(false);
        }
        if (!running) {
            runPending();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!running) {
            flush();
        }
    }

    /** Runs queued requests until one must wait for the database, or none is left. */
    private void runPending() {
        while (!pending.isEmpty() && !closing) {
            Object next = pending.poll();
            if (pending.size() < RESUME_READING_AT && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
            if (next instanceof ProtocolException) {
                write(Reply.error(((ProtocolException) next).getMessage()));
                closeAfterReplies();
                return;
            }
            CompletableFuture<Reply> reply = executor.execute(session, (byte[][]) next);
            if (reply.isDone()) {
                write(reply.join());
                if (session.closeRequested()) {
                    closeAfterReplies();
                    return;
                }
                continue;
            }
            running = true;
            reply.whenComplete((r, e) -> ctx.executor().execute(() -> {
                running = false;
                write(r != null ? r : executor.errorReply(e));
                if (session.closeRequested()) {
                    closeAfterReplies();
                    return;
                }
                runPending();
                if (!running) {
                    flush();
                }
            }));
            return;
        }
        flush();
    }

    /** Writes a reply now (a pub/sub message, a woken blocked client) in the connection's protocol. */
    void write(Reply reply) {
        if (!ctx.channel().isActive()) {
            return;
        }
        ByteBuf out = ctx.alloc().ioBuffer();
        RespEncoder.write(reply, session.protocol(), out);
        ctx.write(out, ctx.voidPromise());
        if (++unflushed >= FLUSH_EVERY) {
            flush();
        }
    }

    void flush() {
        if (unflushed > 0) {
            unflushed = 0;
            ctx.flush();
        }
    }

    private void closeAfterReplies() {
        closing = true;
        pending.clear();
        unflushed = 0;
        ctx.writeAndFlush(ctx.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
    }

    /** Closes the connection after whatever reply is being written (CLIENT KILL, SHUTDOWN). */
    void kill() {
        ctx.executor().execute(() -> {
            if (running) {
                session.requestClose();
                // A blocked command would hold the connection open until its timeout.
                session.unblock(null);
            } else {
                closeAfterReplies();
            }
        });
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && !running) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        pending.clear();
        // A blocked command (BLPOP) stops waiting: it must not take an element nobody will read.
        session.connectionClosed();
        onClose.run();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset by the peer or a failed write: the connection is gone, other clients are not affected.
        ctx.close();
    }
}
