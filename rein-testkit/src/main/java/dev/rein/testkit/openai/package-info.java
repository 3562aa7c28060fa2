/**
 * A fake OpenAI Chat Completions server for tests: {@link dev.rein.testkit.openai.FakeChatCompletionsServer}
 * answering from {@link dev.rein.testkit.openai.ChatReply} scripts, in the real wire format.
 */
package dev.rein.testkit.openai;
