package dev.cryo.console.web;

import dev.cryo.console.domain.FleetQuery;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** The read-only pages, open to everyone, and their live parts. */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class ConsolePages {

    private final ConsoleViews views;
    private final Layouts layouts;

    ConsolePages(ConsoleViews views, Layouts layouts) {
        this.views = views;
        this.layouts = layouts;
    }

    /** The fleet: every table with its grade, filtered and sorted by the query parameters. */
    @GET
    public TemplateInstance fleet(@QueryParam("grade") List<String> grades, @QueryParam("catalog") String catalog,
                                  @QueryParam("namespace") String namespace, @QueryParam("search") String search,
                                  @QueryParam("sort") String sort, @QueryParam("order") String order,
                                  @QueryParam("notice") String notice, @QueryParam("ref") String reference,
                                  @CookieParam(OperatorSession.COOKIE) String session) {
        FleetQuery query = FleetQuery.parse(grades, catalog, namespace, search, sort, order);
        return Pages.fleet(layouts.of("Fleet", "fleet", session, notice, reference), views.fleet(query));
    }

    @GET
    @Path("live/fleet")
    public TemplateInstance fleetLive(@QueryParam("grade") List<String> grades, @QueryParam("catalog") String catalog,
                                      @QueryParam("namespace") String namespace, @QueryParam("search") String search,
                                      @QueryParam("sort") String sort, @QueryParam("order") String order) {
        return Pages.fleetLive(views.fleet(FleetQuery.parse(grades, catalog, namespace, search, sort, order)));
    }

    /** One table: deductions, history, heat map, plan with SQL, jobs, timeline, and the operator's actions. */
    @GET
    @Path("tables/{table}")
    public TemplateInstance table(@PathParam("table") String table, @QueryParam("notice") String notice,
                                  @QueryParam("ref") String reference,
                                  @CookieParam(OperatorSession.COOKIE) String session) {
        String id = Tables.valid(table);
        return Pages.table(layouts.of(id, "table", session, notice, reference), views.table(id));
    }

    @GET
    @Path("live/tables/{table}")
    public TemplateInstance tableLive(@PathParam("table") String table) {
        return Pages.tableLive(views.table(Tables.valid(table)));
    }

    /** What runs, what waits and why; engine slots and load. */
    @GET
    @Path("queue")
    public TemplateInstance queue(@QueryParam("catalog") String catalog, @QueryParam("namespace") String namespace,
                                  @CookieParam(OperatorSession.COOKIE) String session) {
        return Pages.queue(layouts.of("Queue", "queue", session, null, null),
                views.queue(Tables.filter("catalog", catalog), Tables.filter("namespace", namespace)));
    }

    @GET
    @Path("live/queue")
    public TemplateInstance queueLive(@QueryParam("catalog") String catalog, @QueryParam("namespace") String namespace) {
        return Pages.queueLive(views.queue(Tables.filter("catalog", catalog), Tables.filter("namespace", namespace)));
    }

    /** The operator's sign-in form. */
    @GET
    @Path("login")
    public TemplateInstance login(@QueryParam("next") String next, @QueryParam("notice") String notice,
                                  @CookieParam(OperatorSession.COOKIE) String session) {
        return Pages.login(layouts.of("Sign in", "login", session, notice, null), Tables.localPath(next));
    }
}
