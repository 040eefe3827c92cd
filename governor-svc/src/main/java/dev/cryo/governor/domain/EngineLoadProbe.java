package dev.cryo.governor.domain;

/** Port: reads how busy an engine is with work that is not Cryo's. */
public interface EngineLoadProbe {

    /**
     * The queries running or queued on the engine now that Cryo did not send.
     *
     * @throws RuntimeException with a message for operators when the engine cannot be asked
     */
    int foreignQueries();
}
