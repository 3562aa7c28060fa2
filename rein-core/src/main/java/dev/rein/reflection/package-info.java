/**
 * Reflection strategies A-D ({@link dev.rein.reflection.Reflection}): none, an evaluation prompt
 * after each tool step, checkpoint prompts, and a critic that reviews proposed final answers.
 */
package dev.rein.reflection;
