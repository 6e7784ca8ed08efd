package io.strata.redis.server;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class IterationHandOffTest {
    @Test
    void tasksStartedOnTheEventLoopReachTheTargetOnlyAfterTheLoopsCurrentWorkInOrder() throws Exception {
        List<String> handedOff = Collections.synchronizedList(new ArrayList<>());
        List<String> target = Collections.synchronizedList(new ArrayList<>());
        Executor recording = task -> {
            handedOff.add("handed off");
            task.run();
        };
        IterationHandOff handOff = new IterationHandOff(recording);
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            EventLoop loop = group.next();
            CompletableFuture<List<String>> seenDuringTheTask = new CompletableFuture<>();
            loop.execute(() -> {
                handOff.execute(() -> target.add("lane 1"));
                handOff.execute(() -> target.add("lane 2"));
                seenDuringTheTask.complete(new ArrayList<>(target));
            });
            assertThat(seenDuringTheTask.get(10, TimeUnit.SECONDS)).isEmpty();
            CompletableFuture<Void> after = new CompletableFuture<>();
            loop.execute(() -> after.complete(null));
            after.get(10, TimeUnit.SECONDS);
            assertThat(target).containsExactly("lane 1", "lane 2");
            assertThat(handedOff).hasSize(2);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void tasksStartedElsewhereReachTheTargetAtOnce() {
        List<String> target = new ArrayList<>();
        new IterationHandOff(Runnable::run).execute(() -> target.add("lane"));
        assertThat(target).containsExactly("lane");
    }
}
