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
 * handed to another thread is as safe as any immutable list. Replacing the last element (as a
 * request's last user message is replaced by one carrying Rein's state block) shares the array too:
 * the new view holds its own last element, and appending to it copies. Nulls are refused, as by
 * {@link List#copyOf}.
 *
 * @param <E> the element type
 */
public final class GrowingList<E> extends AbstractList<E> implements RandomAccess {
    private static final GrowingList<Object> EMPTY = new GrowingList<>(new Object[0], 0, new AtomicInteger(), null);

    private final Object[] elements;
    private final int size;
    /** The length of the newest version of this array's lists: who may append in place. */
    private final AtomicInteger newest;
    /** The last element in place of the array's at {@code size - 1} (a {@link #withLast} view), or null. */
    private final Object last;

    private GrowingList(Object[] elements, int size, AtomicInteger newest, Object last) {
        this.elements = elements;
        this.size = size;
        this.newest = newest;
        this.last = last;
    }

    private GrowingList(Object[] elements, int size, AtomicInteger newest) {
        this(elements, size, newest, null);
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
        if (size > 0 && last == null && newest.compareAndSet(size, size + 1)) {
            Object[] array = size < elements.length ? elements : Arrays.copyOf(elements, size + Math.max(8, size >> 1));
            array[size] = element;
            return new GrowingList<>(array, size + 1, newest);
        }
        // The empty list, a version something was already appended to, or one with its own last element: start an
        // array of its own.
        Object[] array = Arrays.copyOf(elements, size + Math.max(8, size >> 1));
        if (last != null) {
            array[size - 1] = last;
        }
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

    /**
     * This list with its last element replaced, in constant time: the new list shares this one's array and holds the
     * element itself (the array's slot may be seen by other views, so it is never written); appending to it copies.
     */
    public GrowingList<E> withLast(E element) {
        Objects.requireNonNull(element, "element");
        Objects.checkIndex(0, size);
        // a counter of its own that never matches its size, so no append writes in place from this view
        return new GrowingList<>(elements, size, new AtomicInteger(-1), element);
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
        return (E) (last != null && index == size - 1 ? last : elements[index]);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Object[] toArray() {
        Object[] copy = Arrays.copyOf(elements, size);
        if (last != null) {
            copy[size - 1] = last;
        }
        return copy;
    }
}
