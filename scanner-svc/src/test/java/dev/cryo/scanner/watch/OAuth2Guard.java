package dev.cryo.scanner.watch;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small OAuth2 authorization server and the gate in front of a REST catalog that trusts it, for
 * tests: the token endpoint issues short-lived bearer tokens to one client only (client_credentials
 * with the right id, secret and scope; RFC 8693 token exchange of a live token it issued, which is
 * how Iceberg's client refreshes), and the gate answers 401 with an Iceberg error body to any
 * catalog request without a live token. The client can be revoked (its secret and every token it
 * holds stop working), and every request is counted, so a test can bound what a client sends.
 */
public final class OAuth2Guard {

    static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

    private final String clientId;
    private final String clientSecret;
    private final String scope;
    private final Duration lifetime;
    private final Map<String, Instant> liveTokens = new ConcurrentHashMap<>();
    private final AtomicInteger tokenRequests = new AtomicInteger();
    private final AtomicInteger tokensIssued = new AtomicInteger();
    private final AtomicInteger catalogRequests = new AtomicInteger();
    private final AtomicInteger rejectedCatalogRequests = new AtomicInteger();
    private volatile boolean revoked;

    /** @param lifetime how long an issued token is accepted (its {@code expires_in}) */
    public OAuth2Guard(String clientId, String clientSecret, String scope, Duration lifetime) {
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.scope = scope;
        this.lifetime = lifetime;
    }

    /** The client's credential as Iceberg's {@code credential} property spells it. */
    public String credential() {
        return clientId + ":" + clientSecret;
    }

    /** The client's secret and every token issued to it stop working, for good. */
    public void revoke() {
        revoked = true;
        liveTokens.clear();
    }

    public int tokenRequests() {
        return tokenRequests.get();
    }

    public int tokensIssued() {
        return tokensIssued.get();
    }

    public int catalogRequests() {
        return catalogRequests.get();
    }

    public int rejectedCatalogRequests() {
        return rejectedCatalogRequests.get();
    }

    /** The token endpoint, for an {@code oauth2-server-uri}. */
    public HttpServlet tokenEndpoint() {
        return new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                tokenRequests.incrementAndGet();
                issue(request, response);
            }
        };
    }

    /** The gate in front of the catalog's routes. */
    public Filter gate() {
        return (ServletRequest request, ServletResponse response, FilterChain chain) -> {
            catalogRequests.incrementAndGet();
            String authorization = ((HttpServletRequest) request).getHeader("Authorization");
            if (authorization != null && authorization.startsWith("Bearer ") && live(authorization.substring(7))) {
                passOn(chain, request, response);
                return;
            }
            rejectedCatalogRequests.incrementAndGet();
            write((HttpServletResponse) response, 401, "{\"error\":{\"message\":\"The bearer token is missing, expired or"
                    + " revoked\",\"type\":\"NotAuthorizedException\",\"code\":401}}");
        };
    }

    private static void passOn(FilterChain chain, ServletRequest request, ServletResponse response) throws IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException e) {
            throw new IOException(e);
        }
    }

    private void issue(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String grant = request.getParameter("grant_type");
        if ("client_credentials".equals(grant)) {
            boolean client = clientId.equals(request.getParameter("client_id"))
                    && clientSecret.equals(request.getParameter("client_secret"));
            if (!client || revoked) {
                oauthError(response, 401, "invalid_client", "Unknown client or wrong client secret");
            } else if (!scope.equals(request.getParameter("scope"))) {
                oauthError(response, 400, "invalid_scope", "This client may only ask for scope " + scope);
            } else {
                grant(response);
            }
        } else if (TOKEN_EXCHANGE.equals(grant)) {
            boolean authenticated = authenticated(request.getHeader("Authorization"));
            if (!authenticated || !live(request.getParameter("subject_token"))) {
                oauthError(response, 401, "invalid_client", "The subject token or the client is not valid");
            } else {
                grant(response);
            }
        } else {
            oauthError(response, 400, "unsupported_grant_type", "Unsupported grant type " + grant);
        }
    }

    /** A live bearer token, or the client's own id and secret by HTTP basic authentication. */
    private boolean authenticated(String authorization) {
        if (authorization == null) {
            return false;
        }
        if (authorization.startsWith("Bearer ")) {
            return live(authorization.substring(7));
        }
        if (authorization.startsWith("Basic ") && !revoked) {
            String pair = new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8);
            return pair.equals(credential());
        }
        return false;
    }

    private boolean live(String token) {
        Instant expiry = token == null ? null : liveTokens.get(token);
        return !revoked && expiry != null && Instant.now().isBefore(expiry);
    }

    private void grant(HttpServletResponse response) throws IOException {
        String token = "tok-" + UUID.randomUUID();
        liveTokens.put(token, Instant.now().plus(lifetime));
        tokensIssued.incrementAndGet();
        write(response, 200, "{\"access_token\":\"" + token + "\",\"token_type\":\"bearer\",\"issued_token_type\":"
                + "\"urn:ietf:params:oauth:token-type:access_token\",\"expires_in\":" + lifetime.toSeconds()
                + ",\"scope\":\"" + scope + "\"}");
    }

    private static void oauthError(HttpServletResponse response, int status, String error, String description)
            throws IOException {
        write(response, status, "{\"error\":\"" + error + "\",\"error_description\":\"" + description + "\"}");
    }

    private static void write(HttpServletResponse response, int status, String json) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
    }
}
