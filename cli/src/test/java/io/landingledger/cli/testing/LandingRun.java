package io.landingledger.cli.testing;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.Landing;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** One run of a {@code landing} command: its exit status and everything it printed. */
public record LandingRun(int exit, String stdout, String stderr) {
    /** Standard output as the JSON object a {@code --json} run prints. */
    public Map<String, Object> json() throws IOException {
        return JSON.std.mapFrom(stdout);
    }

    /** The command run in this JVM (through {@link Landing#run}), as the script would run it, output captured. */
    public static LandingRun inProcess(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Landing.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new LandingRun(exit, out.toString(), err.toString());
    }
}
