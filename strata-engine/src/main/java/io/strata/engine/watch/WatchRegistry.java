package io.strata.engine.watch;

import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Active watches, by key.
 *
 * <p>Concurrency: the map is owned by the commit sequencer — registration, firing and
 * removal all run there, between or after batches — so a watch can never miss a write that
 * lands between "compare" and "register". Only the outstanding-watch counter is shared,
 * because {@code Transaction.watch} reserves a slot on the caller's thread to fail fast
 * with {@code too_many_watches} (1032).
 *
 * <p>A watch fires when the key's value differs from the value its transaction saw; a
 * change away and back between two batches is missed, which FoundationDB allows.
 */
public final class WatchRegistry {
    /** FoundationDB's default {@code max_watches} per database. */
    public static final int DEFAULT_MAX_WATCHES = 10_000;

    private final TreeMap<byte[], List<Watch>> byKey = new TreeMap<>(ByteKeys.COMPARATOR);
    /** Watches found changed during a batch, fired only once the batch is visible. */
    private final List<Watch> changed = new ArrayList<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile int maxWatches = DEFAULT_MAX_WATCHES;

    /** Sets the limit ({@code DatabaseOptions.setMaxWatches}). */
    public void setMaxWatches(int max) {
        this.maxWatches = max;
    }

    /** Reserves a slot for a new watch; false when the database already has the maximum. */
    public boolean tryReserve() {
        if (outstanding.incrementAndGet() > maxWatches) {
            outstanding.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Returns a slot reserved by {@link #tryReserve()}; called once per watch when it ends. */
    public void release() {
        outstanding.decrementAndGet();
    }

    /** Watches outstanding: reserved, registered, not yet fired, failed or cancelled. */
    public int outstanding() {
        return outstanding.get();
    }

    /** True when there is nothing registered to check after a batch; sequencer only. */
    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** Registers {@code w}, firing it at once if the key already changed; sequencer only. */
    public void register(Watch w, byte[] currentValue) {
        if (w.isDone()) {
            return;
        }
        if (!Arrays.equals(w.expected(), currentValue)) {
            changed.add(w);
            return;
        }
        byKey.computeIfAbsent(w.key(), k -> new ArrayList<>(2)).add(w);
    }

    /** Removes the watch of {@code key} with this future (its user cancelled it); sequencer only. */
    public void remove(byte[] key, java.util.concurrent.CompletableFuture<?> future) {
        List<Watch> list = byKey.get(key);
        if (list != null && list.removeIf(w -> w.future() == future) && list.isEmpty()) {
            byKey.remove(key);
        }
    }

    /** Fires the watches of {@code key} whose expected value differs from {@code newValue}; sequencer only. */
    public void onWrite(byte[] key, byte[] newValue) {
        List<Watch> list = byKey.get(key);
        if (list == null) {
            return;
        }
        fireChanged(list, newValue);
        if (list.isEmpty()) {
            byKey.remove(key);
        }
    }

    /** Fires the watches of keys in {@code [begin, end)} that had a value; sequencer only. */
    public void onClearRange(byte[] begin, byte[] end) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        Iterator<Map.Entry<byte[], List<Watch>>> it = byKey.subMap(begin, true, end, false).entrySet().iterator();
        while (it.hasNext()) {
            List<Watch> list = it.next().getValue();
            fireChanged(list, null);
            if (list.isEmpty()) {
                it.remove();
            }
        }
    }

    /**
     * Fires the watches found changed since the last call. The sequencer calls this after it
     * publishes the batch's version, so a woken client always reads the change.
     */
    public void fireChanged() {
        for (Watch w : changed) {
            if (!w.isDone()) {
                w.fire();
            }
        }
        changed.clear();
    }

    private void fireChanged(List<Watch> list, byte[] newValue) {
        Iterator<Watch> it = list.iterator();
        while (it.hasNext()) {
            Watch w = it.next();
            if (w.isDone()) {
                it.remove();
            } else if (!Arrays.equals(w.expected(), newValue)) {
                it.remove();
                changed.add(w);
            }
        }
    }
}
