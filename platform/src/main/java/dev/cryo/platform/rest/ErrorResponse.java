package dev.cryo.platform.rest;

/**
 * The body of every error answer.
 *
 * @param code the stable error code, e.g. {@code INVALID_REQUEST}
 * @param type USER, EXTERNAL or INTERNAL
 * @param message what went wrong and what to change
 */
public record ErrorResponse(String code, String type, String message) {
}
