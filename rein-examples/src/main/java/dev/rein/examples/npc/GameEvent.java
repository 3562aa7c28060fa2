package dev.rein.examples.npc;

/** What happens in the game at one tick. */
public sealed interface GameEvent {
    /** Nothing new. */
    record Quiet() implements GameEvent {}

    /** A traveller walks up to the gate. */
    record TravellerArrives() implements GameEvent {}

    /** The traveller speaks to Mira: an important moment, unless it was answered before. */
    record TravellerSays(String words) implements GameEvent {}

    /** The traveller now carries {@code item} (shown to Mira). */
    record TravellerGets(String item) implements GameEvent {}

    /** A wolf comes out of the forest. */
    record WolfAppears() implements GameEvent {}

    /** The traveller goes through the gate, or away. */
    record TravellerLeaves() implements GameEvent {}
}
