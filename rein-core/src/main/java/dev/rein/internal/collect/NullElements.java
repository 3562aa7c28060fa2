package dev.rein.internal.collect;

import java.util.List;
import java.util.RandomAccess;

/** Finding a null element of a list given through the public API, in one pass whatever the list. */
public final class NullElements {
    private NullElements() {}

    /**
     * The position (from 0) of the first null element of {@code list}, or -1 when it holds none. Read by
     * index only where that is constant time: a LinkedList walks to each index, which a loop of
     * {@code get(i)} makes quadratic; and not {@code indexOf(null)}, which an immutable list refuses.
     */
    public static int firstNull(List<?> list) {
        if (list instanceof RandomAccess) {
            for (int i = 0, n = list.size(); i < n; i++) {
                if (list.get(i) == null) {
                    return i;
                }
            }
            return -1;
        }
        int i = 0;
        for (Object element : list) {
            if (element == null) {
                return i;
            }
            i++;
        }
        return -1;
    }
}
