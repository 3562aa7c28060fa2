package dev.rein.internal.text;

/**
 * Edit distances over code points, in three rows of memory: Levenshtein (insert, delete, replace),
 * for the near-duplicate stall detector, and with a swap of neighbours as one edit too (optimal
 * string alignment), for "did you mean". One banded table serves both.
 */
public final class EditDistance {
    private EditDistance() {}

    /** Levenshtein distance. */
    public static int levenshtein(int[] a, int[] b) {
        return distance(a, b, Math.max(a.length, b.length), false);
    }

    /** Levenshtein distance when it is at most {@code max}, else any value above {@code max}. */
    public static int levenshtein(int[] a, int[] b, int max) {
        return distance(a, b, max, false);
    }

    /** Edits between two words when a swap of neighbours counts as one (optimal string alignment). */
    public static int withSwaps(String a, String b) {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        return distance(x, y, Math.max(x.length, y.length), true);
    }

    /**
     * The distance when it is at most {@code max}, else any value above {@code max}. Only the cells
     * within {@code max} of the diagonal can lead to such a distance, and once a whole row is past
     * it the end is too (a swap reaches back two rows, but a row is at most one more than the row
     * before it): a check of a long query against a very different one stops early instead of
     * filling the whole table (for queries of 500 characters, about 30 times less work).
     */
    private static int distance(int[] a, int[] b, int max, boolean swaps) {
        if (a.length < b.length) { // both distances are symmetric; the shorter one is the row
            int[] t = a;
            a = b;
            b = t;
        }
        int over = max + 1;
        if (max < 0 || a.length - b.length > max) {
            return Math.max(over, a.length - b.length);
        }
        int[] beforePrevious = new int[b.length + 1];
        int[] previous = new int[b.length + 1];
        int[] current = new int[b.length + 1];
        for (int j = 0; j <= b.length; j++) {
            previous[j] = Math.min(j, over);
        }
        for (int i = 1; i <= a.length; i++) {
            int from = Math.max(1, i - max);
            int to = Math.min(b.length, i + max);
            current[0] = Math.min(i, over);
            if (from > 1) {
                current[from - 1] = over; // left of the band: more than max
            }
            int rowMin = current[0];
            for (int j = from; j <= to; j++) {
                int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                int value = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
                if (swaps && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                    value = Math.min(value, beforePrevious[j - 2] + 1);
                }
                value = Math.min(over, value);
                current[j] = value;
                rowMin = Math.min(rowMin, value);
            }
            if (to < b.length) {
                current[to + 1] = over; // right of the band, read by the next row
            }
            if (rowMin > max) {
                return over;
            }
            int[] t = beforePrevious;
            beforePrevious = previous;
            previous = current;
            current = t;
        }
        return previous[b.length];
    }
}
