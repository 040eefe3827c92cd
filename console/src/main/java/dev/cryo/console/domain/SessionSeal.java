package dev.cryo.console.domain;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Seals an operator's API token and its expiry into the session cookie's value with AES-GCM, so the
 * cookie can neither be read nor altered in the browser, and the console keeps no session state.
 */
public final class SessionSeal {

    /** Key length in bytes (AES-256). */
    public static final int KEY_BYTES = 32;

    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte[] CONTEXT = "cryo-console-session-v1".getBytes(StandardCharsets.UTF_8);

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    public SessionSeal(byte[] key) {
        requireNonNull(key, "key is null");
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("Cannot seal sessions: the key has " + key.length + " bytes, it needs "
                    + KEY_BYTES + " (set cryo.console.session.key to the base64 of " + KEY_BYTES + " random bytes)");
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
    }

    /** A seal with a key made now: sessions end when the console restarts. */
    public static SessionSeal withRandomKey() {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        return new SessionSeal(key);
    }

    /** A seal with the base64 key of the configuration. */
    public static SessionSeal withKey(String base64Key) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64Key.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot seal sessions: cryo.console.session.key is not base64", e);
        }
        return new SessionSeal(key);
    }

    /** The cookie value holding the token until {@code expiresAt}. */
    public String seal(String token, Instant expiresAt) {
        requireNonNull(token, "token is null");
        requireNonNull(expiresAt, "expiresAt is null");
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        byte[] plain = (expiresAt.getEpochSecond() + "\n" + token).getBytes(StandardCharsets.UTF_8);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(CONTEXT);
            byte[] sealed = cipher.doFinal(plain);
            byte[] value = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, value, 0, IV_BYTES);
            System.arraycopy(sealed, 0, value, IV_BYTES, sealed.length);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot seal the session: AES-GCM failed: " + e.getMessage(), e);
        }
    }

    /**
     * The token of a cookie value; empty when the value was not sealed with this key, was altered, or
     * has expired.
     */
    public Optional<String> open(String cookieValue, Instant now) {
        if (cookieValue == null || cookieValue.isBlank()) {
            return Optional.empty();
        }
        byte[] value;
        try {
            value = Base64.getUrlDecoder().decode(cookieValue.trim());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (value.length <= IV_BYTES) {
            return Optional.empty();
        }
        String plain;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, value, 0, IV_BYTES));
            cipher.updateAAD(CONTEXT);
            plain = new String(cipher.doFinal(value, IV_BYTES, value.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            // Another key (a restarted console) or a value altered in the browser: simply not signed in.
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot open the session: AES-GCM failed: " + e.getMessage(), e);
        }
        int newline = plain.indexOf('\n');
        if (newline <= 0) {
            return Optional.empty();
        }
        long expiresAt;
        try {
            expiresAt = Long.parseLong(plain.substring(0, newline));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (now.getEpochSecond() >= expiresAt) {
            return Optional.empty();
        }
        return Optional.of(plain.substring(newline + 1));
    }
}
