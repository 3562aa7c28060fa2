/**
 * The model provider plug-in SPI: {@link dev.rein.provider.ModelProvider}, found with
 * {@link java.util.ServiceLoader}, builds a {@link dev.rein.model.Model} from configuration and
 * publishes its default model and prices.
 */
package dev.rein.provider;
