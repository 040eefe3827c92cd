package dev.cryo.cli;

import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Endpoints;
import dev.cryo.cli.command.AuditCommand;
import dev.cryo.cli.command.DlqCommand;
import dev.cryo.cli.command.FixCommand;
import dev.cryo.cli.command.GradeCommand;
import dev.cryo.cli.command.JobsCommand;
import dev.cryo.cli.command.PauseCommand;
import dev.cryo.cli.command.PlanCommand;
import dev.cryo.cli.command.ReplayCommand;
import dev.cryo.cli.command.ResumeCommand;
import dev.cryo.cli.command.SweepCommand;
import dev.cryo.cli.command.TablesCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.time.Clock;
import java.time.ZoneId;

import static java.util.Objects.requireNonNull;

/**
 * {@code ./cryo <command>}: the operator's command line over the services' REST APIs. Human
 * tables by default, {@code --json} for scripts. Exit codes CI can use: {@value #HEALTHY}
 * healthy (or done), {@value #FINDINGS} findings (a table loses points, a job failed, work was
 * deferred), {@value #ERROR} error (bad usage, a service down or refusing).
 */
@Command(name = "cryo", mixinStandardHelpOptions = true, version = "cryo 0.1.0",
        description = "Cryo's command line: grades, plans, fixes and the audit of your Iceberg tables.",
        subcommands = {TablesCommand.class, GradeCommand.class, PlanCommand.class, FixCommand.class, PauseCommand.class,
                ResumeCommand.class, SweepCommand.class, JobsCommand.class, AuditCommand.class, ReplayCommand.class,
                DlqCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Local runtime (the ./cryo script): infra up|down|status, demo, up, down, status, test.",
                "Exit codes: 0 healthy, 1 findings, 2 error.",
                "Services: CRYO_SCANNER_URL ... CRYO_AUDIT_URL (default http://127.0.0.1:8181 ... 8186);",
                "token: CRYO_TOKEN, else CRYO_OPERATOR_TOKEN from .cryo-runtime/tokens.env."})
public final class CryoCli {

    public static final int HEALTHY = 0;
    public static final int FINDINGS = 1;
    public static final int ERROR = 2;

    private final Endpoints endpoints;
    private final Clock clock;
    private final ZoneId zone;
    private ApiClient api;

    public CryoCli(Endpoints endpoints, Clock clock, ZoneId zone) {
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.zone = requireNonNull(zone, "zone is null");
    }

    public static void main(String[] args) {
        CryoCli cli = new CryoCli(Endpoints.fromEnvironment(System.getenv()), Clock.systemUTC(), ZoneId.systemDefault());
        System.exit(commandLine(cli).execute(args));
    }

    /** The command line of {@code cli}, with Cryo's exit codes for errors. */
    public static CommandLine commandLine(CryoCli cli) {
        CommandLine commandLine = new CommandLine(cli);
        commandLine.setExecutionExceptionHandler((error, command, parsed) -> {
            String message = error instanceof CliException ? error.getMessage()
                    : error.getClass().getSimpleName() + ": " + error.getMessage();
            command.getErr().println("error: " + message);
            command.getErr().flush();
            return ERROR;
        });
        return commandLine;
    }

    public synchronized ApiClient api() {
        if (api == null) {
            api = new ApiClient(endpoints);
        }
        return api;
    }

    public Clock clock() {
        return clock;
    }

    public ZoneId zone() {
        return zone;
    }
}
