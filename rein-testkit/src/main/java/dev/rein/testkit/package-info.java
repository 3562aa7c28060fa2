/**
 * Fakes for testing agents built on Rein.
 *
 * <p>{@link dev.rein.testkit.FakeMessagesServer} is a scripted fake of the Anthropic Messages API
 * HTTP server: queue {@link dev.rein.testkit.FakeReply} answers, point a client at its base URL,
 * and inspect the {@link dev.rein.testkit.RecordedRequest}s it received.
 */
package dev.rein.testkit;
