package dev.cryo.console.web;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/**
 * The console's templates ({@code src/main/resources/templates/<name>.html}), checked at build time.
 * Each page has a live part that the browser fetches again every few seconds and swaps in place.
 */
@CheckedTemplate
public class Pages {

    public static native TemplateInstance fleet(Layout layout, FleetPage page);

    public static native TemplateInstance fleetLive(FleetPage page);

    public static native TemplateInstance table(Layout layout, TablePage page);

    public static native TemplateInstance tableLive(TablePage page);

    public static native TemplateInstance queue(Layout layout, QueuePage page);

    public static native TemplateInstance queueLive(QueuePage page);

    public static native TemplateInstance login(Layout layout, String next);

    public static native TemplateInstance error(Layout layout, int status, String message);
}
