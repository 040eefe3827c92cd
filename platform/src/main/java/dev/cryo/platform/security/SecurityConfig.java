package dev.cryo.platform.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Optional;

/** Who may call the APIs. Tokens come from the environment only ({@code CRYO_SECURITY_TOKENS}). */
@ConfigMapping(prefix = "cryo.security")
public interface SecurityConfig {

    /**
     * API tokens, comma separated, each {@code <principal>=<role>:<token>}, e.g.
     * {@code alice=operator:2f9c…,dashboards=viewer:81aa…}. Set it through the environment variable
     * {@code CRYO_SECURITY_TOKENS}; {@code ./cryo} generates one operator and one viewer token at first start.
     */
    Optional<String> tokens();

    /** Whether read-only endpoints answer without a token. */
    @WithDefault("true")
    boolean openReads();
}
