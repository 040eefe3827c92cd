package dev.cryo.platform.error;

/**
 * Who can fix an error: the caller (USER, a 4xx), a system Cryo depends on (EXTERNAL, worth a
 * retry), or Cryo itself (INTERNAL, a bug). Consumers retry EXTERNAL errors and dead-letter the rest.
 */
public enum ErrorType {
    USER, EXTERNAL, INTERNAL
}
