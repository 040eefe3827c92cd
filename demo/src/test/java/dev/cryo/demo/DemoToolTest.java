package dev.cryo.demo;

import dev.cryo.demo.fleet.Fleet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class DemoToolTest {

    @Test
    void listShowsEveryTableWithItsStory() {
        StringWriter out = new StringWriter();
        CommandLine tool = DemoTool.commandLine();
        tool.setOut(new PrintWriter(out));

        int exit = tool.execute("list");

        assertThat(exit).isZero();
        assertThat(out.toString().lines()).hasSize(13);
        Fleet.tables().forEach(table -> assertThat(out.toString()).contains(table.name() + "\t" + table.story()));
    }

    @Test
    void liveListsOnlyTheTablesThatKeepChanging() {
        StringWriter out = new StringWriter();
        CommandLine tool = DemoTool.commandLine();
        tool.setOut(new PrintWriter(out));

        assertThat(tool.execute("list", "--live")).isZero();
        assertThat(out.toString().lines().map(line -> line.split("\t")[0])).containsExactly("clickstream", "accounts_cdc", "ledger");
    }

    @Test
    void anUnknownTableIsAnErrorNamingTheFleet() {
        StringWriter err = new StringWriter();
        CommandLine tool = DemoTool.commandLine();
        tool.setErr(new PrintWriter(err));

        int exit = tool.execute("create", "--warehouse", "/tmp/never-used", "--catalog-uri", "jdbc:postgresql://127.0.0.1:1/none",
                "--table", "no_such_table");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Cannot create [no_such_table]: the fleet's tables are [customers, payments");
    }
}
