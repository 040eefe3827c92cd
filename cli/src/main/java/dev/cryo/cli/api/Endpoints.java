package dev.cryo.cli.api;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the services are and which token to send: service URLs from {@code CRYO_<SERVICE>_URL}
 * (default: the local ports), the token from {@code CRYO_TOKEN}, else the operator token that
 * {@code ./cryo demo} wrote to {@code .cryo-runtime/tokens.env} ({@code CRYO_TOKENS_FILE}).
 */
public record Endpoints(Map<Service, URI> urls, Optional<String> token, Optional<Path> tokensFile) {

    /** The key of the operator token in the tokens file. */
    public static final String OPERATOR_TOKEN_KEY = "CRYO_OPERATOR_TOKEN";
    /** The key of the viewer token in the tokens file. */
    public static final String VIEWER_TOKEN_KEY = "CRYO_VIEWER_TOKEN";

    public Endpoints {
        urls = Map.copyOf(requireNonNull(urls, "urls is null"));
        requireNonNull(token, "token is null");
        requireNonNull(tokensFile, "tokensFile is null");
    }

    public static Endpoints fromEnvironment(Map<String, String> environment) {
        Map<Service, URI> urls = new EnumMap<>(Service.class);
        for (Service service : Service.values()) {
            String url = blankToNull(environment.get(service.urlVariable()));
            urls.put(service, parse(url == null ? service.defaultUrl() : url, service));
        }
        String runtime = blankToNull(environment.get("CRYO_RUNTIME_DIR"));
        String tokensFile = blankToNull(environment.get("CRYO_TOKENS_FILE"));
        Optional<Path> file = tokensFile != null ? Optional.of(Path.of(tokensFile))
                : Optional.of(Path.of(runtime != null ? runtime : ".cryo-runtime", "tokens.env"));
        return new Endpoints(urls, Optional.ofNullable(blankToNull(environment.get("CRYO_TOKEN"))), file);
    }

    public URI url(Service service) {
        return urls.get(service);
    }

    /**
     * The token reads send, when there is one: {@code CRYO_TOKEN}, else the viewer token of the
     * tokens file. Reads are open by default and need none; a Cryo that closes them
     * ({@code cryo.security.open-reads=false}) needs one.
     */
    public Optional<String> readToken() {
        if (token.isPresent()) {
            return token;
        }
        try {
            return fromTokensFile(VIEWER_TOKEN_KEY);
        } catch (CliException e) {
            return Optional.empty();
        }
    }

    /** The token for state-changing calls, or a message saying where to put one. */
    public String requireToken() {
        if (token.isPresent()) {
            return token.get();
        }
        Optional<String> operator = fromTokensFile(OPERATOR_TOKEN_KEY);
        if (operator.isPresent()) {
            return operator.get();
        }
        throw new CliException("Cannot change anything without an operator token: set CRYO_TOKEN, or start Cryo with "
                + "./cryo demo, which writes one to " + tokensFile.map(Path::toString).orElse(".cryo-runtime/tokens.env"));
    }

    private Optional<String> fromTokensFile(String key) {
        if (tokensFile.isEmpty() || !Files.isReadable(tokensFile.get())) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(tokensFile.get())) {
                String trimmed = line.trim();
                if (trimmed.startsWith(key + "=")) {
                    String value = trimmed.substring(key.length() + 1).trim();
                    if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
                        value = value.substring(1, value.length() - 1);
                    }
                    if (!value.isEmpty()) {
                        return Optional.of(value);
                    }
                }
            }
            return Optional.empty();
        } catch (java.io.IOException e) {
            throw new CliException("Cannot read " + key + " from " + tokensFile.get() + ": " + e.getMessage(), e);
        }
    }

    private static URI parse(String url, Service service) {
        try {
            URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new CliException("Cannot use " + service.urlVariable() + "='" + url + "': expected a URL such as "
                    + service.defaultUrl());
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
