package dev.cryo.enginesql;

import java.util.ArrayList;
import java.util.List;

/**
 * An independent reading of rendered SQL, written from the dialects' documented lexical rules
 * (not from the renderers' code): it splits a statement into tokens and decodes quoted names and
 * string literals, so tests can check that hostile input became exactly one identifier or one
 * literal with exactly the intended content, and nothing else.
 */
final class SqlTokens {

    enum Kind { IDENTIFIER, STRING, WORD, NUMBER, SYMBOL, COMMENT }

    record Token(Kind kind, String text) {
        @Override
        public String toString() {
            return kind + "(" + text + ")";
        }
    }

    /** Trino: "name" with "" doubled; 'text' with '' doubled; U&'…' with \XXXX, \+XXXXXX and \\; X'…'. */
    static List<Token> trino(String sql) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
                tokens.add(new Token(Kind.COMMENT, sql.substring(i)));
                break;
            } else if (c == '"') {
                StringBuilder name = new StringBuilder();
                i = quoted(sql, i + 1, '"', name);
                tokens.add(new Token(Kind.IDENTIFIER, name.toString()));
            } else if (c == '\'') {
                StringBuilder text = new StringBuilder();
                i = quoted(sql, i + 1, '\'', text);
                tokens.add(new Token(Kind.STRING, text.toString()));
            } else if (sql.startsWith("U&'", i)) {
                StringBuilder raw = new StringBuilder();
                i = quoted(sql, i + 3, '\'', raw);
                tokens.add(new Token(Kind.STRING, trinoUnicode(raw.toString())));
            } else {
                i = plain(sql, i, tokens);
            }
        }
        return tokens;
    }

    /** Spark: `name` with `` doubled; 'text' or "text" with backslash escapes (\', \\, \n, \\uXXXX, …). */
    static List<Token> spark(String sql) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
                tokens.add(new Token(Kind.COMMENT, sql.substring(i)));
                break;
            } else if (c == '`') {
                StringBuilder name = new StringBuilder();
                i = quoted(sql, i + 1, '`', name);
                tokens.add(new Token(Kind.IDENTIFIER, name.toString()));
            } else if (c == '\'' || c == '"') {
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= sql.length()) {
                        throw new IllegalArgumentException("unterminated string literal in " + sql);
                    }
                    char d = sql.charAt(j);
                    if (d == '\\') {
                        char e = sql.charAt(j + 1);
                        if (e == 'u') {
                            text.append((char) Integer.parseInt(sql.substring(j + 2, j + 6), 16));
                            j += 6;
                            continue;
                        }
                        text.append(switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case '0' -> '\0';
                            case 'b' -> '\b';
                            default -> e;
                        });
                        j += 2;
                    } else if (d == c) {
                        j++;
                        break;
                    } else {
                        text.append(d);
                        j++;
                    }
                }
                i = j;
                tokens.add(new Token(Kind.STRING, text.toString()));
            } else {
                i = plain(sql, i, tokens);
            }
        }
        return tokens;
    }

    private static int quoted(String sql, int start, char quote, StringBuilder out) {
        int j = start;
        while (true) {
            if (j >= sql.length()) {
                throw new IllegalArgumentException("unterminated " + quote + " in " + sql);
            }
            char d = sql.charAt(j);
            if (d == quote) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
                    out.append(quote);
                    j += 2;
                } else {
                    return j + 1;
                }
            } else {
                out.append(d);
                j++;
            }
        }
    }

    private static String trinoUnicode(String raw) {
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < raw.length(); ) {
            char d = raw.charAt(j);
            if (d != '\\') {
                text.append(d);
                j++;
            } else if (raw.charAt(j + 1) == '\\') {
                text.append('\\');
                j += 2;
            } else if (raw.charAt(j + 1) == '+') {
                text.appendCodePoint(Integer.parseInt(raw.substring(j + 2, j + 8), 16));
                j += 8;
            } else {
                text.appendCodePoint(Integer.parseInt(raw.substring(j + 1, j + 5), 16));
                j += 5;
            }
        }
        return text.toString();
    }

    private static int plain(String sql, int i, List<Token> tokens) {
        char c = sql.charAt(i);
        int j = i;
        if (Character.isLetter(c) || c == '_' || c == '$') {
            while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
                j++;
            }
            tokens.add(new Token(Kind.WORD, sql.substring(i, j)));
        } else if (Character.isDigit(c) || (c == '-' && j + 1 < sql.length() && Character.isDigit(sql.charAt(j + 1)))) {
            j++;
            while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                j++;
            }
            tokens.add(new Token(Kind.NUMBER, sql.substring(i, j)));
        } else if (sql.startsWith("=>", i) || sql.startsWith(">=", i) || sql.startsWith("<=", i)) {
            j += 2;
            tokens.add(new Token(Kind.SYMBOL, sql.substring(i, j)));
        } else {
            j++;
            tokens.add(new Token(Kind.SYMBOL, sql.substring(i, j)));
        }
        return j;
    }

    static Token identifier(String text) {
        return new Token(Kind.IDENTIFIER, text);
    }

    static Token string(String text) {
        return new Token(Kind.STRING, text);
    }

    static Token word(String text) {
        return new Token(Kind.WORD, text);
    }

    static Token symbol(String text) {
        return new Token(Kind.SYMBOL, text);
    }

    private SqlTokens() {
    }
}
