package dev.cryo.console.domain;

/** Input from the browser that the console refuses, with a message that says what to write instead. */
public class InvalidInputException extends RuntimeException {
    public InvalidInputException(String message) {
        super(message);
    }
}
