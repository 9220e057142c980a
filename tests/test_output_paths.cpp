// No command writes over what it reads or over another of its outputs (issue 32, item 1): each
// checks all its output paths before it simulates, fits or merges, and exits 2 naming the
// option and the file.  With the built binary, as a user would run it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tools/output/output_paths.h"
#include "test_support.h"

namespace test_output_paths {

namespace fs = std::filesystem;
using namespace pcisim::test;

namespace {

// A scenario copied into `dir` with its own platform file beside it.
std::string copied_scenario(const TempDir& dir) {
    fs::copy_file(scenario_path("platforms/phi"), dir / "phi.json");
    std::ofstream(dir / "s.json") << R"({"name": "s", "platform": "phi.json",
        "bus": {"kind": "pci", "width_bits": 32, "clock_mhz": 66}, "nic": {"model": "82541"},
        "simulation": {"min_window_us": 500, "warmup_us": 200}})";
    return dir / "s.json";
}

}  // namespace

TEST_CASE("run refuses every output aimed at its scenario, its platform or another output",
          "[outputs]") {
    TempDir dir;
    const std::string s = copied_scenario(dir);
    const std::string scenario_text = slurp(s), platform_text = slurp(dir / "phi.json");
    fs::create_symlink("s.json", dir / "link.json");
    struct Case {
        std::string args, message;
    };
    const Case cases[] = {
        {"--vcd " + s, "--vcd " + s + ": is the input file " + s},
        {"--trace " + (dir / "phi.json"), "--trace " + (dir / "phi.json") + ": is the input file"},
        {"--json " + (dir / "phi.json"), ": is the input file"},
        {"--json " + (dir / "link.json"), "--json " + (dir / "link.json") + ": is the input file " + s},
        {"--vcd " + (dir / "o") + " --json " + (dir / "o"), "is also the output of --json"},
        {"--json - --trace -", "--trace -: the standard output already takes --json"},
        {"--pcap " + s, "--pcap " + s + ": is the input file"},
        {"--json " + (dir / "o") + " --pcap " + (dir / "o"), "--pcap " + (dir / "o") + ": is also the output of --json"},
        {"--json ''", "--json \"\": an empty file name"},
        {"--vcd " + (dir / "missing/o.vcd"), "does not exist; expected an existing folder"},
        {"--trace " + dir.path.string(), "is a folder; expected a file name"},
    };
    for (const Case& c : cases) {
        CommandOutcome o = run_pcisim("run " + s + " " + c.args);
        INFO(c.args << "\n" << o.err);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, c.message));
        CHECK_FALSE(contains(o.err, "pps"));  // refused before simulating
    }
    CHECK(slurp(s) == scenario_text);
    CHECK(slurp(dir / "phi.json") == platform_text);
    CHECK_FALSE(fs::exists(dir / "o"));
}

TEST_CASE("explain, fit, validate, bench, sweep and merge check their outputs the same way",
          "[outputs]") {
    TempDir dir;
    const std::string s = copied_scenario(dir);
    const std::string csv = dir / "sweep.csv";
    REQUIRE(run_pcisim("sweep " + s + " --vary packet.size=60,124 -j 1 -o " + csv).exit_code == 0);
    const std::string csv_text = slurp(csv), json_text = slurp(dir / "sweep.json");
    struct Case {
        std::string command, message;
    };
    const Case cases[] = {
        {"explain " + s + " --json " + s, "--json " + s + ": is the input file"},
        {"explain " + s + " --trace " + (dir / "phi.json"), ": is the input file"},
        {"explain " + s + " --vcd - --json -", "the standard output already takes --json"},
        {"fit " + csv + " --json " + csv, "--json " + csv + ": is the input file"},
        {"fit " + csv + " --json " + (dir / "sweep.json"), ": is the input file"},
        {"fit " + csv + " --json ''", "an empty file name"},
        {"validate --doc " + scenario_path("calibration"), "--doc " + scenario_path("calibration")},
        {"validate --doc " + (dir / "v") + " --json " + (dir / "v"), "is also the output of --doc"},
        {"bench --json " + scenario_path("xeon-pcix-133"), ": is the input file"},
        {"sweep " + s + " --vary packet.size=60 -o " + (dir / "phi.json"), ": is the input file"},
        {"sweep " + s + " --vary packet.size=60 -o " + (dir / "s.csv"),
         "-o " + (dir / "s.json") + ": is the input file"},
        {"sweep " + s + " --vary platform=phi.json -o " + (dir / "phi.csv"), ": is the input file"},
        {"sweep " + s + " --vary packet.size=60 -o -", "-o -: the standard output cannot take"},
        {"merge " + csv + " " + csv, "OUT " + csv + ": is the input file"},
    };
    for (const Case& c : cases) {
        CommandOutcome o = run_pcisim(c.command);
        INFO(c.command << "\n" << o.err);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, c.message));
    }
    CHECK(slurp(csv) == csv_text);
    CHECK(slurp(dir / "sweep.json") == json_text);
}

TEST_CASE("a trace or a waveform on '-' goes to the standard output, the report to stderr",
          "[outputs]") {
    TempDir dir;
    const std::string s = copied_scenario(dir);
    CommandOutcome o = run_pcisim("run " + s + " --trace - --window 200:210", dir / "out");
    REQUIRE(o.exit_code == 0);
    CHECK(slurp(dir / "out").rfind("{\"displayTimeUnit\"", 0) == 0);
    CHECK(contains(o.err, "pps"));
    CHECK_FALSE(fs::exists("-"));
    o = run_pcisim("explain " + s + " --vcd -", dir / "out");
    REQUIRE(o.exit_code == 0);
    CHECK(slurp(dir / "out").rfind("$version pcisim", 0) == 0);
}

TEST_CASE("output identities: spellings, links and new files", "[outputs]") {
    TempDir dir;
    std::ofstream(dir / "a") << "a";
    fs::create_symlink("a", dir / "soft");
    fs::create_hard_link(dir / "a", dir / "hard");
    fs::create_symlink("new", dir / "dangling");
    using pcisim::output::file_identity;
    CHECK(file_identity(dir / "a") == file_identity(dir / "soft"));
    CHECK(file_identity(dir / "a") == file_identity(dir / "hard"));
    CHECK(file_identity(dir / "new") == file_identity(dir / "dangling"));
    CHECK(file_identity(dir / "new") == file_identity(dir.path.string() + "/./x/../new"));
    CHECK(file_identity(dir / "new") != file_identity(dir / "a"));
    // /dev/null may take several outputs; a replaced output may not be a device.
    CHECK_NOTHROW(pcisim::output::check_outputs({{"--json", "/dev/null"}, {"--vcd", "/dev/null"}},
                                                {}));
    CHECK_THROWS_AS(pcisim::output::check_outputs({{"-o", "/dev/null", true}}, {}),
                    pcisim::output::OutputError);
}

}  // namespace test_output_paths
