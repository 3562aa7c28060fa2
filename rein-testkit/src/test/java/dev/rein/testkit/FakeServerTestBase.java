package dev.rein.testkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh fake server per test, and an HTTP client for it. */
abstract class FakeServerTestBase {
    protected FakeMessagesServer server;
    protected Api api;

    @BeforeEach
    void startServer() {
        server = FakeMessagesServer.start();
        api = new Api(server);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }
}
