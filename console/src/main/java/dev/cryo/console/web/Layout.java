package dev.cryo.console.web;

import static java.util.Objects.requireNonNull;

/**
 * What every page's frame needs.
 *
 * @param title the page title
 * @param section the navigation entry to mark: fleet, queue, table or login
 * @param signedIn whether an operator session is open (actions are shown as enabled)
 * @param refreshMillis how often live regions fetch fresh content
 * @param notice what the last action did (null: nothing to say)
 * @param alert what went wrong (null: nothing)
 */
public record Layout(String title, String section, boolean signedIn, long refreshMillis, String notice, String alert) {
    public Layout {
        requireNonNull(title, "title is null");
        requireNonNull(section, "section is null");
    }

    public Layout withAlert(String text) {
        return new Layout(title, section, signedIn, refreshMillis, notice, text);
    }
}
