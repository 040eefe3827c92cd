package dev.cryo.console.client;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;

import java.util.Optional;

/**
 * Sends the console's read token ({@code cryo.console.read-token}) with every call that carries
 * no {@code Authorization} of its own: the console's reads. An operator's action keeps the
 * operator's token.
 */
final class ReadToken implements ClientRequestFilter {

    private final Optional<String> token;

    ReadToken(Optional<String> token) {
        this.token = token.map(String::trim).filter(value -> !value.isEmpty());
    }

    @Override
    public void filter(ClientRequestContext request) {
        if (token.isPresent() && !request.getHeaders().containsKey(HttpHeaders.AUTHORIZATION)) {
            request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, "Bearer " + token.get());
        }
    }
}
