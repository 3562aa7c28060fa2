package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.AbstractSequentialList;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import org.junit.jupiter.api.Test;

/**
 * A message's blocks given as a list without fast indexed access (a LinkedList) are checked in one pass. Before, the
 * null-block check read them by index in a loop: for a LinkedList each read walks from an end, n²/4 steps in all.
 */
class MessageBlocksLinearTest {
    /** A sequential list over {@code blocks} that counts the elements its iterators step over. */
    private static final class CountingList extends AbstractSequentialList<ContentBlock> {
        private final List<ContentBlock> blocks;
        long steps;

        CountingList(List<ContentBlock> blocks) {
            this.blocks = blocks;
        }

        @Override
        public int size() {
            return blocks.size();
        }

        @Override
        public ListIterator<ContentBlock> listIterator(int index) {
            ListIterator<ContentBlock> it = blocks.listIterator();
            for (int i = 0; i < index; i++) { // as a linked list finds a position: walking to it
                steps++;
                it.next();
            }
            return new ListIterator<>() {
                public boolean hasNext() { return it.hasNext(); }
                public ContentBlock next() { steps++; return it.next(); }
                public boolean hasPrevious() { return it.hasPrevious(); }
                public ContentBlock previous() { steps++; return it.previous(); }
                public int nextIndex() { return it.nextIndex(); }
                public int previousIndex() { return it.previousIndex(); }
                public void remove() { throw new UnsupportedOperationException(); }
                public void set(ContentBlock e) { throw new UnsupportedOperationException(); }
                public void add(ContentBlock e) { throw new UnsupportedOperationException(); }
            };
        }
    }

    @Test
    void aSequentialListOfBlocksIsCheckedAndCopiedInLinearSteps() {
        int n = 2_000;
        List<ContentBlock> blocks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            blocks.add(new TextBlock("ブロック " + i));
        }
        CountingList given = new CountingList(blocks);

        Message message = Message.user(given);

        assertThat(message.content()).hasSize(n).isEqualTo(blocks);
        assertThat(given.steps).as("steps over %d blocks", n).isLessThanOrEqualTo(4L * n);
    }

    @Test
    void aNullBlockInASequentialListIsStillNamedByItsPosition() {
        List<ContentBlock> blocks = new java.util.LinkedList<>(List.of(new TextBlock("a"), new TextBlock("b")));
        blocks.add(null);
        assertThatThrownBy(() -> Message.assistant(blocks)).isInstanceOf(ReinException.class)
                .hasMessageContaining("content block 3 of 3 is null");
    }
}
