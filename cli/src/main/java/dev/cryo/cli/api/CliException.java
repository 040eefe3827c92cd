package dev.cryo.cli.api;

/** Something the command could not do, said in one line that names what to change. Exit code 2. */
public class CliException extends RuntimeException {

    public CliException(String message) {
        super(message);
    }

    public CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
