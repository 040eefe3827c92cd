package dev.cryo.audit.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The chain's hash: SHA-256 over the previous row's hash followed by the row's canonical content
 * ({@code audit_canonical} in the migration), in hex. The database computes it when a row is
 * written and again when the chain is verified; this is the same formula, for anyone who checks an
 * export outside the database.
 */
public final class Hashes {

    /** The previous hash of the first row of a chain. */
    public static final String GENESIS = "0".repeat(64);

    /** {@code hex(sha256(utf8(previousHash + canonicalContent)))}, as the database's chain trigger computes it. */
    public static String rowHash(String previousHash, String canonicalContent) {
        return sha256(previousHash + canonicalContent);
    }

    public static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private Hashes() {
    }
}
