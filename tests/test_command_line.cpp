// The command line people expect: `pcisim help COMMAND`, `run -` (the scenario from stdin), -q,
// a receive-only run's receive summary, latencies in us or ms.
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace test_command_line {

using namespace pcisim::test;
using nlohmann::json;

namespace {

std::string window_sets() {
    std::string sets;
    for (const auto& s : fixed_window(200, 200)) sets += " --set " + s;
    return sets;
}

// Runs the built pcisim with a shell line around it ("< FILE", pipes); exit code, stdout, stderr.
struct Shell {
    int exit_code;
    std::string out, err;
};
Shell shell(const std::string& line) {
    TempDir dir;
    const std::string out = dir / "out.txt", err = dir / "err.txt";
    int status = std::system(("(" + line + ") >" + out + " 2>" + err).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace

TEST_CASE("pcisim help COMMAND prints the command's options, as COMMAND --help does") {
    const std::string bin = pcisim_binary();
    for (const char* command : {"run", "sweep", "validate", "explain", "fit", "bench"}) {
        INFO(command);
        Shell help = shell(bin + " help " + command);
        Shell option = shell(bin + " " + command + " --help");
        CHECK(help.exit_code == 0);
        CHECK(help.out == option.out);
        CHECK(contains(help.out, "--help"));
    }
    Shell usage = shell(bin + " help");
    CHECK(usage.exit_code == 0);
    CHECK(contains(usage.out, "  help [COMMAND]"));
    Shell unknown = shell(bin + " help nonsense");
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "pcisim: unknown command 'nonsense'"));
}

TEST_CASE("run - reads the scenario from stdin and gives the file's results") {
    TempDir dir;
    const std::string bin = pcisim_binary(), scenario = scenario_path("phi-32-66-82541");
    const std::string from_file = dir / "file.json", from_stdin = dir / "stdin.json";
    // The scenario names its platform relatively: from stdin it is looked up from the current
    // directory, then in the data directory.
    Shell a = shell(bin + " run " + scenario + window_sets() + " -q --json " + from_file);
    Shell b = shell("cd " + dir.path.string() + " && " + bin + " run -" + window_sets() +
                    " -q --json " + from_stdin + " < " + scenario);
    INFO(b.err);
    REQUIRE(a.exit_code == 0);
    REQUIRE(b.exit_code == 0);
    json fa = json::parse(slurp(from_file)), fb = json::parse(slurp(from_stdin));
    fa.erase("provenance"), fb.erase("provenance");
    CHECK(fa == fb);
    CHECK(shell("echo '{\"name\": \"x\"}' | " + bin + " check -").out == "-: ok\n");
    Shell bad = shell("printf '{\"bus\": {\"clock_mhz\": 66,}}' | " + bin + " check -");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "pcisim: <stdin>:1:"));
    Shell unknown_key = shell("echo '{\"bus\": {\"clok\": 1}}' | " + bin + " run -");
    CHECK(unknown_key.exit_code == 2);
    CHECK(contains(unknown_key.err, "bus.clok: unknown key"));
}

TEST_CASE("quiet (-q) leaves only errors: no summary, no progress, the files asked for still written") {
    TempDir dir;
    const std::string bin = pcisim_binary(), out = dir / "r.json";
    Shell quiet = shell(bin + " -q run " + scenario_path("phi-32-66-82541") + window_sets() +
                        " --json " + out);
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.out.empty());
    CHECK(quiet.err.empty());
    json r = json::parse(slurp(out));
    CHECK(r["tx_pps"].get<double>() > 0);
    // -q is not part of what made the results.
    for (const auto& arg : r["provenance"]["command_line"]) CHECK(arg != "-q");
    Shell loud = shell(bin + " run " + scenario_path("phi-32-66-82541") + window_sets());
    CHECK(contains(loud.out, "tx: "));
    // Errors still show.
    Shell bad = shell(bin + " run " + scenario_path("phi-32-66-82541") + " -q --set bus.clok=1");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "bus.clok"));
    Shell sweep = shell(bin + " sweep " + scenario_path("bus-demo") +
                        " --vary masters.0.bytes=64,128 -j 1 -q -o " + (dir / "s.csv"));
    CHECK(sweep.exit_code == 0);
    CHECK(sweep.out.empty());
    CHECK(sweep.err.empty());
}

TEST_CASE("a receive-only run prints a receive summary, not a transmit side of zeros") {
    Shell rx = shell(pcisim_binary() + " run " + scenario_path("xeon-pcix-133-rx") + window_sets());
    INFO(rx.out);
    REQUIRE(rx.exit_code == 0);
    CHECK(contains(rx.out, "rx: "));
    CHECK(contains(rx.out, "rx over the bus: "));
    CHECK(contains(rx.out, "nic 82546 receive: "));
    CHECK_FALSE(contains(rx.out, "tx: "));
    CHECK_FALSE(contains(rx.out, "packet stages"));
    CHECK_FALSE(contains(rx.out, " - "));
}

TEST_CASE("latencies print in us, and in ms once they reach a millisecond") {
    // A 4096-descriptor ring at the bus's rate: each packet waits milliseconds in the ring.
    Shell long_ring = shell(pcisim_binary() + " run " + scenario_path("phi-32-33-82540") +
                            " --set driver.ring_size=4096");
    INFO(long_ring.out);
    REQUIRE(long_ring.exit_code == 0);
    CHECK(contains(long_ring.out, "port 0 packet latency (xmit to last byte on the wire): p50 "));
    CHECK(contains(long_ring.out, " ms\nport 0 frame interval: "));
    CHECK(contains(long_ring.out, " us\nport 0 packet stages (ms)"));
}

TEST_CASE("bash completion offers the commands, a command's options and the scenario keys") {
    // What _pcisim (completion/pcisim.bash) offers for the words typed so far.
    auto complete = [](const std::string& words) {
        Shell s = shell("bash -c 'source " + std::string(PCISIM_SOURCE_DIR) +
                        "/completion/pcisim.bash; COMP_WORDS=(" + pcisim_binary() + " " + words +
                        "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _pcisim; "
                        "printf \"%s\\n\" \"${COMPREPLY[@]}\"'");
        REQUIRE(s.exit_code == 0);
        return s.out;
    };
    CHECK(complete("ru") == "run\n");
    CHECK(complete("va") == "validate\n");
    CHECK(complete("help swe") == "sweep\n");
    CHECK(complete("-q run x.json --pc") == "--pcap\n");
    CHECK(complete("validate --str") == "--strict\n");
    CHECK(complete("sweep x.json --vary bus.clock_m") == "bus.clock_mhz=\n");
    CHECK(complete("run " + std::string(PCISIM_SOURCE_DIR) + "/scenarios/phi-32-66-8254") ==
          std::string(PCISIM_SOURCE_DIR) + "/scenarios/phi-32-66-82541.json\n");
}

TEST_CASE("a sweep's CSV puts the headline metrics first, and --columns chooses them") {
    TempDir dir;
    const std::string bin = pcisim_binary(), csv = dir / "s.csv";
    const std::string sweep = bin + " sweep " + scenario_path("phi-32-66-82541") +
                              " --vary packet.size=60,128 -j 1 -q" + window_sets() + " -o " + csv;
    REQUIRE(shell(sweep).exit_code == 0);
    std::string all = slurp(csv);
    CHECK(all.rfind("packet.size,status,error,tx_pps,tx_mbps,wire_limit_pps,bus.utilisation_fraction,"
                    "bus.clock_mhz,", 0) == 0);
    REQUIRE(shell(sweep + " --columns tx_pps,cpus.0.busy_fraction").exit_code == 0);
    std::string some = slurp(csv);
    CHECK(some.rfind("packet.size,status,error,tx_pps,cpus.0.busy_fraction\n60,ok,,", 0) == 0);
    // The JSON beside it keeps every metric.
    json doc = json::parse(slurp(dir / "s.json"));
    CHECK(doc["rows"][0]["metrics"].contains("bus.utilisation_fraction"));
    Shell bad = shell(sweep + " --columns tx_pps,tx_ppz");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "--columns: \"tx_ppz\" is not a metric"));
}

TEST_CASE("pcisim-tlm-example prints its version and refuses a scenario it cannot run, exit 2") {
    const std::string example =
        (std::filesystem::path(pcisim_binary()).parent_path() / "pcisim-tlm-example").string();
    Shell version = shell(example + " --version");
    CHECK(version.exit_code == 0);
    CHECK(version.out.rfind("pcisim-tlm-example 0.1.0 (git ", 0) == 0);
    CHECK(contains(version.out, "), SystemC 2.3"));
    // Receive-only: nothing it could run.
    Shell rx = shell(example + " " + scenario_path("xeon-pcix-133-rx"));
    CHECK(rx.exit_code == 2);
    CHECK(rx.out.empty());
    CHECK(contains(rx.err, "wire_source.enabled: true: the TLM example has no wire source"));
    Shell silent = shell(example + " " + scenario_path("phi-32-66-82541") +
                         " --set wire_source.enabled=true --set pktgen.enabled=false");
    CHECK(silent.exit_code == 2);
    Shell tcp = shell(example + " " + scenario_path("hp-ia64-netperf"));
    CHECK(tcp.exit_code == 2);
    CHECK(contains(tcp.err, "workload.kind: \"tcp_stream\""));
}

}  // namespace test_command_line
