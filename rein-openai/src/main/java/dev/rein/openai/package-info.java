/**
 * OpenAI Chat Completions as a Rein {@link dev.rein.model.Model}: {@link dev.rein.openai.OpenAiModel},
 * for OpenAI and every server that speaks the protocol (Ollama, vLLM, LM Studio, llama.cpp).
 * Everything else in this package is internal translation between Rein's provider-neutral types
 * and the wire format; no SDK type appears in Rein's core API.
 */
package dev.rein.openai;
