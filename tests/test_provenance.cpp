// Results that say what made them: pcisim --version, and the "provenance" object of every JSON
// output (cli/provenance.h).  The sweep's (and its resume's) is checked in test_sweep*.cpp,
// validate's in test_validation.cpp.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace test_provenance {

using nlohmann::json;
using namespace pcisim::test;

namespace {

const char* kShortRun = " --set simulation.warmup_us=20 --set simulation.batch_us=200"
                        " --set simulation.min_window_us=200";

// The provenance every JSON output carries, for a command that began with `command`.
void check_provenance(const json& doc, const std::string& command) {
    INFO(doc.value("provenance", json()).dump());
    REQUIRE(doc.contains("provenance"));
    const json& p = doc["provenance"];
    CHECK(std::regex_match(p.at("pcisim_version").get<std::string>(),
                           std::regex(R"(\d+\.\d+\.\d+)")));
    CHECK_FALSE(p.at("git").get<std::string>().empty());
    CHECK(p.at("systemc_version").get<std::string>().rfind("2.3.", 0) == 0);
    REQUIRE(p.at("command_line").size() >= 2);
    CHECK(p["command_line"][0].get<std::string>().find("pcisim") != std::string::npos);
    CHECK(p["command_line"][1] == command);
}

}  // namespace

TEST_CASE("pcisim --version and pcisim version print the version, git commit and SystemC") {
    TempDir dir;
    for (const std::string args : {"--version", "version"}) {
        INFO("pcisim " << args);
        const std::string out = dir / "version.txt";
        CHECK(run_pcisim(args, out).exit_code == 0);
        CHECK(std::regex_search(slurp(out),
                                std::regex(R"(^pcisim \d+\.\d+\.\d+ \(git [^)]+\), SystemC 2\.3\.)")));
    }
    const std::string usage = dir / "usage.txt";
    CHECK(run_pcisim("--help", usage).exit_code == 0);
    CHECK(contains(slurp(usage), "--version"));
}

TEST_CASE("run --json carries the provenance beside the resolved scenario") {
    TempDir dir;
    const std::string out = dir / "run.json";
    REQUIRE(run_pcisim("run " + scenario_path("bus-demo") + kShortRun + " --json " + out)
                .exit_code == 0);
    const json r = json::parse(slurp(out));
    check_provenance(r, "run");
    CHECK(r["provenance"]["command_line"].dump().find("simulation.min_window_us=200") !=
          std::string::npos);
    CHECK(r.at("scenario").at("simulation").at("min_window_us") == 200);
    // Where the results went is left out: two runs that differ only there give the same bytes.
    CHECK(r["provenance"]["command_line"].dump().find("--json") == std::string::npos);
    CHECK(r["provenance"]["command_line"].dump().find(out) == std::string::npos);
}

TEST_CASE("run's provenance keeps --window as it can change the results") {
    TempDir dir;
    const std::string plain = dir / "plain.json", recorded = dir / "recorded.json";
    const std::string run = "run " + scenario_path("bus-demo") + kShortRun + " --json ";
    REQUIRE(run_pcisim(run + plain).exit_code == 0);
    // A window past the run's own end makes the run go on until it has closed.
    REQUIRE(run_pcisim(run + recorded + " --vcd " + (dir / "w.vcd") + " --window 0:1000")
                .exit_code == 0);
    const json a = json::parse(slurp(plain)), b = json::parse(slurp(recorded));
    CHECK(a["window_us"] != b["window_us"]);
    const std::string line = b["provenance"]["command_line"].dump();
    INFO(line);
    CHECK(contains(line, "\"--window\",\"0:1000\""));
    CHECK_FALSE(contains(line, "--vcd"));
    CHECK_FALSE(contains(line, "w.vcd"));
}

TEST_CASE("explain --json carries the provenance and the resolved scenario") {
    TempDir dir;
    const std::string out = dir / "explain.json";
    REQUIRE(run_pcisim("explain " + scenario_path("intel-server-32-66") + " --json " + out)
                .exit_code == 0);
    const json x = json::parse(slurp(out));
    check_provenance(x, "explain");
    CHECK(x.at("resolved_scenario").at("name") == "intel-server-32-66");
    CHECK(x.at("resolved_scenario").at("bus").at("clock_mhz") == 66);
}

TEST_CASE("sweep, fit and bench JSON carry the provenance") {
    TempDir dir;
    const std::string csv = dir / "sweep.csv";
    REQUIRE(run_pcisim("sweep " + scenario_path("phi-32-33-82540") +
                       " --vary packet.size=60,64,68 -j 2" + kShortRun + " -o " + csv)
                .exit_code == 0);
    check_provenance(json::parse(slurp(dir / "sweep.json")), "sweep");
    // The CSV stays plain (plots/regenerate and fit read it): its provenance is in the JSON.
    CHECK(slurp(csv).rfind("packet.size,", 0) == 0);
    const std::string fits = dir / "fits.json";
    REQUIRE(run_pcisim("fit " + csv + " --json " + fits).exit_code == 0);
    check_provenance(json::parse(slurp(fits)), "fit");
    const std::string bench = dir / "bench.json";
    REQUIRE(run_pcisim("bench --case stock-60 --packets 1000 --runs 1 --json " + bench).exit_code ==
            0);
    check_provenance(json::parse(slurp(bench)), "bench");
}

}  // namespace test_provenance
