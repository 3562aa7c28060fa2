/** Fakes for testing agents built on Rein. */
package dev.rein.testkit;
