package dev.rein.store.jdbc;

import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunStore;

/** The in-memory store of rein-core meets the same contract. */
class InMemoryRunStoreContractTest extends RunStoreContract {
    private final InMemoryRunStore store = new InMemoryRunStore();

    @Override
    protected RunStore store() {
        return store;
    }
}
