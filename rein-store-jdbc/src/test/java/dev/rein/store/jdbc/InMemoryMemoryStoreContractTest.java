package dev.rein.store.jdbc;

import dev.rein.memory.InMemoryMemoryStore;
import dev.rein.memory.MemoryStore;

class InMemoryMemoryStoreContractTest extends MemoryStoreContract {
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();

    @Override
    protected MemoryStore store() {
        return store;
    }

    @Override
    protected int indexedTerms(String id) {
        return -1;
    }
}
