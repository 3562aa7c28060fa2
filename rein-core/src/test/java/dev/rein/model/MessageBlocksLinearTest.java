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
 * A message's blocks, a response's blocks, a request's messages, a model's options and a verdict's reasons given as a
 * list without fast indexed access (a LinkedList) are checked in one pass. Before, each null check read them by index
 * in a loop: for a LinkedList each read walks from an end, n²/4 steps in all.
 */
class MessageBlocksLinearTest {
    /** A sequential list over {@code blocks} that counts the elements its iterators step over. */
    private static final class CountingList<T> extends AbstractSequentialList<T> {
        private final List<T> blocks;
        long steps;

        CountingList(List<T> blocks) {
            this.blocks = blocks;
        }

        @Override
        public int size() {
            return blocks.size();
        }

        @Override
        public ListIterator<T> listIterator(int index) {
            ListIterator<T> it = blocks.listIterator();
            for (int i = 0; i < index; i++) { // as a linked list finds a position: walking to it
                steps++;
                it.next();
            }
            return new ListIterator<>() {
                public boolean hasNext() { return it.hasNext(); }
                public T next() { steps++; return it.next(); }
                public boolean hasPrevious() { return it.hasPrevious(); }
                public T previous() { steps++; return it.previous(); }
                public int nextIndex() { return it.nextIndex(); }
                public int previousIndex() { return it.previousIndex(); }
                public void remove() { throw new UnsupportedOperationException(); }
                public void set(T e) { throw new UnsupportedOperationException(); }
                public void add(T e) { throw new UnsupportedOperationException(); }
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
        CountingList<ContentBlock> given = new CountingList<>(blocks);

        Message message = Message.user(given);

        assertThat(message.content()).hasSize(n).isEqualTo(blocks);
        assertThat(given.steps).as("steps over %d blocks", n).isLessThanOrEqualTo(4L * n);

        CountingList<ContentBlock> answered = new CountingList<>(blocks);
        new ModelResponse("r", "m", answered, StopReason.END_TURN, null, Usage.ZERO);
        assertThat(answered.steps).as("a response's blocks").isLessThanOrEqualTo(4L * n);

        List<Message> history = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            history.add(Message.user("質問 " + i));
        }
        CountingList<Message> messages = new CountingList<>(history);
        ModelRequest.builder("m").messages(messages).maxTokens(10).build();
        assertThat(messages.steps).as("a request's messages").isLessThanOrEqualTo(4L * n);

        List<String> why = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            why.add("理由 " + i);
        }
        CountingList<String> reasons = new CountingList<>(why);
        assertThat(((dev.rein.run.Verdict.Fail) dev.rein.run.Verdict.fail(reasons)).missing()).hasSize(n);
        assertThat(reasons.steps).as("a verdict's reasons").isLessThanOrEqualTo(4L * n);

        List<ModelOption> someOptions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            someOptions.add(new ModelOption() {});
        }
        CountingList<ModelOption> options = new CountingList<>(someOptions);
        dev.rein.provider.OptionedModel.of((request, context) -> null, options);
        assertThat(options.steps).as("a model's options").isLessThanOrEqualTo(4L * n);
    }

    @Test
    void aNullBlockInASequentialListIsStillNamedByItsPosition() {
        List<ContentBlock> blocks = new java.util.LinkedList<>(List.of(new TextBlock("a"), new TextBlock("b")));
        blocks.add(null);
        assertThatThrownBy(() -> Message.assistant(blocks)).isInstanceOf(ReinException.class)
                .hasMessageContaining("content block 3 of 3 is null");
    }
}
