package io.strata.redis.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.ReplyHandOff;
import io.strata.redis.command.ServerStats;
import io.strata.redis.command.SpecialKeys;
import io.strata.redis.protocol.ProtocolException;
import io.strata.redis.protocol.RespEncoder;
import io.strata.redis.protocol.Reply;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One client connection: executes its requests strictly in order, one at a time, and writes
 * each reply before the next request starts — so a pipelined connection sees Redis's order —
 * while other connections' requests run at the same time.
 *
 * <h2>Concurrency</h2>
 * Every field is used only on the channel's event loop. A request whose future completes on
 * another thread (the database's) comes back to the event loop to write its reply and start
 * the next one; so does a line sent to a MONITOR connection by another client ({@link #send}).
 *
 * <h2>Hostile input</h2>
 * A protocol error is answered and the connection closed; every request before it in the
 * same read still runs. A request named {@code POST} or {@code Host:} is a browser's HTTP
 * request delivered to Redis's port (a cross-protocol attack): the connection closes at once
 * without running it, as in Redis. Nothing of one connection's failure reaches another.
 *
 * <h2>Flow control</h2>
 * A client that pipelines faster than its requests run fills {@link #pending}; past
 * {@link #PAUSE_READING_AT} requests the connection stops reading from the socket until the
 * queue drains below {@link #RESUME_READING_AT}, so one client's pipeline cannot exhaust the
 * heap. Replies are flushed when the connection has nothing left to run, or every
 * {@link #FLUSH_EVERY} replies, so a deep pipeline gets its replies in large writes.
 *
 * <h2>Pushed messages</h2>
 * Pub/sub messages reach the connection through its session's push sink: they are written
 * by a task on the event loop, in the order pushed, beside whatever reply is pending (a
 * reply is always written whole, so they never split one). A subscriber that stops reading
 * is disconnected by {@code client-output-buffer-limit}'s {@code pubsub} class, any other client
 * by its {@code normal} class (no limit by default), as in Redis: at once past its hard limit,
 * after its seconds past its soft one ({@link OutputBufferLimit}); the replies that would pass
 * it are not sent.
 * After each reply the connection runs the session's after-reply actions (SUBSCRIBE's: its
 * channels go live once confirmed).
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(ClientConnection.class.getName());
    /** Requests queued before reading pauses: deep enough for any benchmark's pipeline. */
    private static final int PAUSE_READING_AT = 4096;
    private static final int RESUME_READING_AT = 1024;
    /** Replies written before a flush even if more are queued: bounds the outbound buffer. */
    private static final int FLUSH_EVERY = 256;
    /**
     * Bytes of encoded replies gathered before they go to the channel even if more are coming:
     * a large reply (a 100 MB GET) goes out on its own, small ones share a buffer.
     */
    private static final int GATHER_BYTES = 64 * 1024;
    /** Data requests of one connection sent to the database as one unit. */
    private static final int MAX_UNIT = 64;
    /**
     * Bytes a MONITOR client may leave unread before it is closed: Redis's hard output limit
     * for its class of clients is 256 MB; a client that cannot keep up must not exhaust the heap.
     */
    static final long MONITOR_OUTPUT_LIMIT = 256L * 1024 * 1024;

    private final ClientSession session;
    private final CommandExecutor executor;
    private final ServerStats stats;
    private final Runnable onClose;
    /** The {@code client-output-buffer-limit} classes, as now configured. */
    private final Supplier<OutputBufferLimit.Classes> outputLimits;
    private final LongSupplier clock;
    /** When the client's class's soft output limit was first passed (0: it is not): {@link OutputBufferLimit#reached}. */
    private final long[] softLimitSince = new long[1];
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean running;
    private int unflushed;
    /**
     * Replies encoded but not yet handed to the channel, in order; null when none. One buffer
     * for a batch's replies, not one each: a pipeline of 16 replies then costs the channel one
     * message and the socket one write of one buffer instead of sixteen.
     */
    private ByteBuf gathered;
    private boolean closing;
    /**
     * The client has shut down its side (a FIN): what it sent before still runs and is
     * answered, then the connection closes, as Redis answers every request it read before
     * the end of the stream; a blocked or paused request is dropped, as Redis frees a blocked
     * client when it reads the end.
     */
    private boolean inputShut;
    /** A request waits for CLIENT PAUSE to end ({@link #holdUntilUnpaused}). */
    private boolean pausedHold;
    /** A request prepared while gathering a run that it could not join: the next to run. */
    private CommandExecutor.Prepared held;

    ClientConnection(ClientSession session, CommandExecutor executor, ServerStats stats,
                     Supplier<OutputBufferLimit.Classes> outputLimits, LongSupplier clock, Runnable onClose) {
        this.session = session;
        this.executor = executor;
        this.stats = stats;
        this.outputLimits = outputLimits;
        this.clock = clock;
        this.onClose = onClose;
    }

    ClientSession session() {
        return session;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        // Read from any thread: the outbound buffer's byte count is a volatile field.
        io.netty.channel.Channel channel = ctx.channel();
        session.unsentOutput(() -> {
            ChannelOutboundBuffer waiting = channel.unsafe().outboundBuffer();
            return waiting == null ? 0 : waiting.totalPendingWriteBytes();
        });
        session.pushTo(messages -> {
            try {
                ctx.executor().execute(() -> writePushes(messages));
            } catch (RejectedExecutionException e) {
                // the server is stopping: the connection is about to close
            }
        });
    }

    /**
     * Queues a request; they run once the read that brought them is complete, so that the
     * requests of one read start together (one unit for the database) and their replies
     * leave in one write, as Redis answers what one read brought.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            return;
        }
        pending.add(msg);
        if (pending.size() >= PAUSE_READING_AT) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!running) {
            runPending();
        }
    }

    /** The client shut down its output: answer what it sent, then close ({@link #inputShut}). */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShut = true;
            if (pausedHold) {
                ctx.close();
            } else if (!running) {
                runPending(); // closes once nothing is left
            } else {
                // A request that is blocked, or blocks later, is dropped with the connection.
                session.closeWhenBlocked(() -> ctx.executor().execute(ctx::close));
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    /**
     * Runs queued requests until one must wait for the database, or none is left. Consecutive
     * data requests go to the database together as one unit (see {@code CommandLanes}), so a
     * pipeline costs one commit, not one per command.
     */
    private void runPending() {
        while ((held != null || !pending.isEmpty()) && !closing) {
            CommandExecutor.Prepared prepared = held != null ? held : prepareNext();
            held = null;
            if (prepared == null) {
                return;
            }
            if (prepared.immediate() != null) {
                answer(prepared.immediate());
                continue;
            }
            if (prepared.heldUntil() != null) {
                holdUntilUnpaused(prepared);
                return;
            }
            CompletableFuture<List<Reply>> replies;
            if (prepared.joinsDataRun()) {
                List<CommandExecutor.Prepared> run = new ArrayList<>();
                run.add(prepared);
                while (run.size() < MAX_UNIT && pending.peek() instanceof byte[][] && !isHttp((byte[][]) pending.peek())) {
                    // Prepared once: a request that cannot join waits, prepared, for the run's replies.
                    CommandExecutor.Prepared p = executor.prepare(session, (byte[][]) pending.poll());
                    if (p.immediate() != null || !p.joinsDataRun()) {
                        held = p;
                        break;
                    }
                    run.add(p);
                }
                replies = executor.runData(run);
            } else {
                replies = executor.run(prepared).thenApply(List::of);
                if (!replies.isDone()) {
                    flush(); // it may wait long (a blocked pop): replies before it go now
                }
            }
            if (replies.isDone()) {
                if (!writeAll(replies.join())) {
                    return;
                }
                continue;
            }
            running = true;
            replies.whenComplete((r, e) -> ReplyHandOff.execute(ctx.executor(), () -> {
                running = false;
                if (closing) {
                    return; // the connection closed meanwhile (a blocked request dropped at the end of its input)
                }
                if (!writeAll(r != null ? r : List.of(executor.errorReply(e)))) {
                    return;
                }
                runPending();
            }));
            return;
        }
        if (inputShut && !closing) {
            closeAfterReplies();
            return;
        }
        flush();
    }

    /**
     * CLIENT PAUSE holds the request: the connection waits (counted among the blocked
     * clients, as Redis counts a postponed client), then prepares it again — the pause may
     * have been followed by another, or the request may now be refused — and goes on.
     */
    private void holdUntilUnpaused(CommandExecutor.Prepared prepared) {
        running = true;
        pausedHold = true;
        stats.blockedClients.incrementAndGet();
        flush();
        byte[][] request = prepared.heldArgs();
        prepared.heldUntil().whenComplete((v, e) -> ctx.executor().execute(() -> {
            stats.blockedClients.decrementAndGet();
            running = false;
            pausedHold = false;
            if (closing) {
                return;
            }
            held = executor.prepare(session, request);
            runPending();
        }));
    }

    /**
     * Takes the next queued request and prepares it; null when the connection is closing
     * instead (a protocol error, answered, or an HTTP request).
     */
    private CommandExecutor.Prepared prepareNext() {
        Object next = pending.poll();
        if (pending.size() < RESUME_READING_AT && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
        if (next instanceof ProtocolException) {
            ProtocolException e = (ProtocolException) next;
            if (e.replies()) {
                write(Reply.error(e.getMessage()));
            }
            closeAfterReplies();
            return null;
        }
        byte[][] request = (byte[][]) next;
        if (isHttp(request)) {
            closing = true;
            pending.clear();
            ctx.close();
            return null;
        }
        return executor.prepare(session, request);
    }

    /** Writes replies (each unless CLIENT REPLY OFF or SKIP drops it); false when the connection is to close after them. */
    private boolean writeAll(List<Reply> replies) {
        for (Reply r : replies) {
            answer(r);
        }
        if (session.closeRequested()) {
            closeAfterReplies();
            return false;
        }
        return true;
    }

    /**
     * Writes a command's reply — only its pushed parts under CLIENT REPLY OFF/SKIP, as Redis
     * still sends subscription confirmations then — and runs the session's after-reply actions.
     */
    private void answer(Reply reply) {
        if (!session.dropReply()) {
            write(reply);
        } else if (reply instanceof Reply.Push) {
            write(reply);
        } else if (reply instanceof Reply.Sequence) {
            for (Reply r : ((Reply.Sequence) reply).replies()) {
                if (r instanceof Reply.Push) {
                    write(r);
                }
            }
        }
        session.runAfterReply();
    }

    /** Redis's guard against HTTP requests sent to its port: {@code POST} or {@code Host:} as a command. */
    private static boolean isHttp(byte[][] request) {
        // Checked for every request: compared as bytes, no string made.
        return SpecialKeys.equalsIgnoreCase(request[0], "POST") || SpecialKeys.equalsIgnoreCase(request[0], "HOST:");
    }

    /**
     * Sends a message (a MONITOR line) from any thread; it is written by a task on the
     * connection's event loop, even when sent from that loop: lines sent from other threads
     * (a script's commands, run elsewhere) wait there as tasks, and a line written at once
     * would overtake them.
     */
    void send(Reply reply) {
        if (ctx == null) {
            return;
        }
        try {
            ctx.executor().execute(() -> {
                if (closing) {
                    return;
                }
                if (ctx.channel().bytesBeforeWritable() > MONITOR_OUTPUT_LIMIT) {
                    ctx.close();
                    return;
                }
                write(reply);
                if (!running) {
                    flush();
                }
            });
        } catch (RejectedExecutionException e) {
            // the server is stopping: the connection is about to close
        }
    }

    /** Writes pushed messages (event loop only), flushes, and drops a subscriber too far behind. */
    private void writePushes(List<Reply> messages) {
        if (closing) {
            return;
        }
        for (Reply m : messages) {
            write(m);
        }
        flush();
    }

    /** Writes a reply now (a pub/sub message, a woken blocked client) in the connection's protocol. */
    void write(Reply reply) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (gathered == null) {
            gathered = ctx.alloc().ioBuffer();
        }
        int before = gathered.writerIndex();
        RespEncoder.write(reply, session.protocol(), gathered);
        stats.netOutputBytes.add(gathered.writerIndex() - before);
        if (++unflushed >= FLUSH_EVERY || gathered.readableBytes() >= GATHER_BYTES) {
            flush();
        }
    }

    /**
     * Hands the gathered replies to the channel and flushes it — unless they would take the
     * bytes waiting to be sent past the client's {@code client-output-buffer-limit}: then, as
     * Redis does, the client is closed and they are never sent.
     */
    void flush() {
        if (unflushed > 0) {
            unflushed = 0;
            ByteBuf out = gathered;
            gathered = null;
            if (out != null) {
                if (outputLimitReached(out.readableBytes())) {
                    out.release();
                    closeOverOutputLimit();
                    return;
                }
                ctx.write(out, ctx.voidPromise());
            }
            ctx.flush();
        }
    }

    /** Whether {@code adding} more bytes takes the client past its class's output limit (now, or for too long). */
    private boolean outputLimitReached(long adding) {
        ChannelOutboundBuffer waiting = ctx.channel().unsafe().outboundBuffer();
        long pending = adding + (waiting == null ? 0 : waiting.totalPendingWriteBytes());
        return outputLimits.get().of(session.subscribed()).reached(pending, clock.getAsLong(), softLimitSince);
    }

    private void closeOverOutputLimit() {
        LOG.log(System.Logger.Level.INFO, "Client " + session.id() + " closed for overcoming of output buffer limits.");
        closing = true;
        pending.clear();
        dropGathered();
        ctx.close();
    }

    /** Frees replies gathered but never to be sent (the connection is gone). */
    private void dropGathered() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
        unflushed = 0;
    }

    private void closeAfterReplies() {
        closing = true;
        pending.clear();
        if (gathered != null) {
            ctx.write(gathered, ctx.voidPromise());
            gathered = null;
        }
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

    /** Closes the connection for idleness ({@code timeout}) unless a command is running (a blocked client). */
    void closeIfIdle() {
        ctx.executor().execute(() -> {
            if (!running) {
                ctx.close();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        pending.clear();
        dropGathered();
        // A blocked command (BLPOP) stops waiting: it must not take an element nobody will read.
        session.connectionClosed();
        session.runAfterReply();
        onClose.run();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset by the peer or a failed write: the connection is gone, other clients are not affected.
        ctx.close();
    }
}
