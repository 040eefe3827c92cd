package dev.cryo.platform.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Turns a bearer token into the caller's identity and roles (an operator is also a viewer). */
@ApplicationScoped
public class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final ApiTokens tokens;

    TokenIdentityProvider(SecurityConfig config) {
        this.tokens = ApiTokens.parse(config.tokens());
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return tokens.find(request.getToken().getToken())
                .map(caller -> {
                    QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
                            .setPrincipal(new QuarkusPrincipal(caller.principal()))
                            .addRole(caller.role())
                            .addCredential(request.getToken());
                    if (Roles.OPERATOR.equals(caller.role())) {
                        identity.addRole(Roles.VIEWER);
                    }
                    return Uni.createFrom().<SecurityIdentity>item(identity.build());
                })
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("unknown token")));
    }
}
