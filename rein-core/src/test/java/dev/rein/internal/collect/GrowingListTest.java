package dev.rein.internal.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class GrowingListTest {
    /**
     * Any mix of appends to any earlier version, replacements and removals of the last element:
     * every version ever made still holds exactly what it held when it was made.
     */
    @Property(tries = 300)
    void everyVersionKeepsWhatItHadWhateverIsAppendedToWhichVersion(
            @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 999) Integer> operations) {
        List<GrowingList<Integer>> versions = new ArrayList<>(List.of(GrowingList.empty()));
        List<List<Integer>> expected = new ArrayList<>(List.of(List.of()));
        for (int op : operations) {
            int from = op % versions.size();
            GrowingList<Integer> base = versions.get(from);
            List<Integer> model = new ArrayList<>(expected.get(from));
            GrowingList<Integer> next;
            if (op % 10 == 7 && !model.isEmpty()) {
                next = base.withLast(op);
                model.set(model.size() - 1, op);
            } else if (op % 10 == 8 && !model.isEmpty()) {
                next = base.withoutLast();
                model.remove(model.size() - 1);
            } else if (op % 10 == 9) {
                next = base.withAll(List.of(op, op + 1));
                model.addAll(List.of(op, op + 1));
            } else {
                next = base.with(op);
                model.add(op);
            }
            versions.add(next);
            expected.add(List.copyOf(model));
            for (int v = 0; v < versions.size(); v++) {
                assertThat(versions.get(v)).containsExactlyElementsOf(expected.get(v));
                assertThat(versions.get(v)).isEqualTo(expected.get(v)).hasSameHashCodeAs(expected.get(v));
            }
        }
    }

    @Test
    void appendingToTheNewestVersionSharesItsArrayAndCopiesNothing() {
        GrowingList<String> list = GrowingList.<String>empty().with("a");
        GrowingList<String> longer = list.with("b").with("c");
        assertThat(GrowingList.of(longer)).isSameAs(longer);
        assertThat(longer).containsExactly("a", "b", "c");
        assertThat(list).containsExactly("a");
    }

    @Test
    void twoThreadsAppendingToTheSameVersionGetListsOfTheirOwn() throws Exception {
        for (int round = 0; round < 200; round++) {
            GrowingList<Integer> base = GrowingList.<Integer>empty().with(0).with(1);
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<GrowingList<Integer>> left = new AtomicReference<>();
            AtomicReference<GrowingList<Integer>> right = new AtomicReference<>();
            Thread a = Thread.ofPlatform().start(() -> {
                await(go);
                left.set(base.with(10).with(11));
            });
            Thread b = Thread.ofPlatform().start(() -> {
                await(go);
                right.set(base.with(20).with(21));
            });
            go.countDown();
            a.join();
            b.join();
            assertThat(left.get()).containsExactly(0, 1, 10, 11);
            assertThat(right.get()).containsExactly(0, 1, 20, 21);
            assertThat(base).containsExactly(0, 1);
        }
    }

    @Test
    void itIsImmutableAndRefusesNullsAsListCopyOfDoes() {
        GrowingList<String> list = GrowingList.of(List.of("a", "b"));
        assertThatThrownBy(() -> list.add("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.set(0, "c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.with(null)).isInstanceOf(NullPointerException.class);
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> GrowingList.of(withNull)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> GrowingList.empty().withoutLast()).isInstanceOf(IndexOutOfBoundsException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
