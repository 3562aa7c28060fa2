package dev.rein.internal.collect;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable list that grows by {@link #with appending} in constant time: the lists a run keeps
 * (its history, the attempted actions, the facts) get one element per step, and each step hands
 * the list to a request, a checkpoint and the trace. Copying it for each of those would make every
 * step cost time proportional to the whole run.
 *
 * <p>All versions of a list share one array. Appending to the newest version writes the slot after
 * its last element and returns a longer view of the same array; the shorter views never read that
 * far. Appending to a version that is no longer the newest (a branch) copies. Elements are never
 * written where any view can see them, and each view keeps its array in a final field, so a view
 * handed to another thread is as safe as any immutable list. Nulls are refused, as by
 * {@link List#copyOf}.
 *
 * @param <E> the element type
 */
public final class GrowingList<E> extends AbstractList<E> implements RandomAccess {
    private static final GrowingList<Object> EMPTY = new GrowingList<>(new Object[0], 0, new AtomicInteger());

    private final Object[] elements;
    private final int size;
    /** The length of the newest version of this array's lists: who may append in place. */
    private final AtomicInteger newest;

    private GrowingList(Object[] elements, int size, AtomicInteger newest) {
        this.elements = elements;
        this.size = size;
        this.newest = newest;
    }

    /** The empty list. */
    @SuppressWarnings("unchecked")
    public static <E> GrowingList<E> empty() {
        return (GrowingList<E>) EMPTY;
    }

    /**
     * {@code list} itself when it is a {@code GrowingList}, else an immutable copy: what the
     * records that hold such lists do in their constructors instead of {@link List#copyOf}.
     *
     * @throws NullPointerException if {@code list} or an element is null
     */
    @SuppressWarnings("unchecked")
    public static <E> GrowingList<E> of(Collection<? extends E> list) {
        if (list instanceof GrowingList<?> growing) {
            return (GrowingList<E>) growing;
        }
        Object[] copy = list.toArray();
        for (Object element : copy) {
            Objects.requireNonNull(element, "element");
        }
        return copy.length == 0 ? empty() : new GrowingList<>(copy, copy.length, new AtomicInteger(copy.length));
    }

    /** This list with {@code element} appended; this list is unchanged. */
    public GrowingList<E> with(E element) {
        Objects.requireNonNull(element, "element");
        if (size > 0 && newest.compareAndSet(size, size + 1)) {
            Object[] array = size < elements.length ? elements : Arrays.copyOf(elements, size + Math.max(8, size >> 1));
            array[size] = element;
            return new GrowingList<>(array, size + 1, newest);
        }
        // The empty list, or a version something was already appended to: start an array of its own.
        Object[] array = Arrays.copyOf(elements, size + Math.max(8, size >> 1));
        array[size] = element;
        return new GrowingList<>(array, size + 1, new AtomicInteger(size + 1));
    }

    /** This list with {@code elements} appended, in their order; this list is unchanged. */
    public GrowingList<E> withAll(Collection<? extends E> more) {
        GrowingList<E> list = this;
        for (E element : more) {
            list = list.with(element);
        }
        return list;
    }

    /** This list with its last element replaced (a copy: only the newest slot may be written). */
    public GrowingList<E> withLast(E element) {
        Objects.requireNonNull(element, "element");
        Objects.checkIndex(0, size);
        Object[] copy = Arrays.copyOf(elements, size);
        copy[size - 1] = element;
        return new GrowingList<>(copy, size, new AtomicInteger(size));
    }

    /** This list without its last element. */
    public GrowingList<E> withoutLast() {
        Objects.checkIndex(0, size);
        return size == 1 ? empty() : new GrowingList<>(Arrays.copyOf(elements, size - 1), size - 1, new AtomicInteger(size - 1));
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) elements[index];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Object[] toArray() {
        return Arrays.copyOf(elements, size);
    }
}
