// Bad scenarios, one row each: every problem is one line that starts with the JSON path it is
// about, shows the offending value and says what was expected.  Malformed JSON names the file,
// line and column instead.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "run/scenario.h"

using namespace pcisim;
using nlohmann::json;

namespace {

struct BadInput {
    const char* scenario;           // JSON text
    std::vector<std::string> sets;  // --set overrides
    const char* path;               // the JSON path the one problem must start with
    const char* value;              // the offending value as the message shows it
};

const std::vector<BadInput> kBadInputs = {
    // unknown keys (the nearest valid key is tested below)
    {R"({"bus": {"clock_mhzz": 66}})", {}, "bus.clock_mhzz", "unknown key"},
    {R"({"nic": {"modle": "82544"}})", {}, "nic.modle", "unknown key"},
    {R"({"drivr": {"ring_size": 256}})", {}, "drivr", "unknown key"},
    {R"({"bridges": [{"upstream_latency_nss": 1}]})", {}, "bridges[0].upstream_latency_nss",
     "unknown key"},
    {"{}", {"bus.clok_mhz=66"}, "bus.clok_mhz", "unknown key"},
    // wrong types
    {R"({"bus": {"latency_timer_clocks": "64"}})", {}, "bus.latency_timer_clocks", "\"64\""},
    {R"({"driver": {"notxints": "yes"}})", {}, "driver.notxints", "\"yes\""},
    {R"({"nic": {"model": 82540}})", {}, "nic.model", "82540"},
    {R"({"simulation": {"max_wall_s": "10"}})", {}, "simulation.max_wall_s", "\"10\""},
    {R"({"masters": [{"bytes": "many"}]})", {}, "masters[0].bytes", "\"many\""},
    {R"({"bus": 5})", {}, "bus", "5"},
    {R"({"bridges": {"name": "p64h2"}})", {}, "bridges", "{\"name\":\"p64h2\"}"},
    {R"({"bridges": [5]})", {}, "bridges[0]", "5"},
    {R"({"why": {"bus.clock_mhz": 5}})", {}, "why.bus.clock_mhz", "5"},
    {R"({"platform": 7})", {}, "platform", "7"},
    {R"({"driver": {"ring_size": 256.5}})", {}, "driver.ring_size", "256.5"},
    // out of range
    {R"({"bus": {"width_bits": 48}})", {}, "bus.width_bits", "48"},
    {R"({"bus": {"latency_timer_clocks": 256}})", {}, "bus.latency_timer_clocks", "256"},
    {R"({"bus": {"latency_timer_clocks": -1}})", {}, "bus.latency_timer_clocks", "-1"},
    {R"({"bus": {"kind": "agp"}})", {}, "bus.kind", "\"agp\""},
    {R"({"nic": {"mmrbc_bytes": 768}})", {}, "nic.mmrbc_bytes", "768"},
    {R"({"nic": {"mmrbc_bytes": 8192}})", {}, "nic.mmrbc_bytes", "8192"},
    {R"({"driver": {"ring_size": 72}})", {}, "driver.ring_size", "72"},
    {R"({"driver": {"ring_size": 4104}})", {}, "driver.ring_size", "4104"},
    {R"({"cpu": {"clock_mhz": 0}})", {}, "cpu.clock_mhz", "0"},
    {R"({"packet": {"size": 59}})", {}, "packet.size", "59"},
    {R"({"nic": {"pba_rx_kb": 65}})", {}, "nic.pba_rx_kb", "65"},
    {R"({"simulation": {"watchdog_us": -5}})", {}, "simulation.watchdog_us", "-5"},
    {R"({"testing": {"crash_at_us": -1}})", {}, "testing.crash_at_us", "-1"},
    {"{}", {"bus.clock_mhz=1000"}, "bus.clock_mhz", "1000"},
    // inconsistent combinations
    {R"({"bus": {"kind": "pci", "clock_mhz": 100}})", {}, "bus.clock_mhz", "100"},
    {R"({"bus": {"kind": "pci", "clock_mhz": 133}})", {}, "bus.clock_mhz", "133"},
    {R"({"bus": {"kind": "pcix", "clock_mhz": 33}})", {}, "bus.clock_mhz", "33"},
    {R"({"driver": {"ring_size": 100}})", {}, "driver.ring_size", "100"},
    {R"({"driver": {"ring_size": 4092}})", {}, "driver.ring_size", "4092"},
    {R"({"nic": {"pba_rx_kb": 60}, "packet": {"size": 9000}})", {}, "packet.size", "9000"},
    {R"({"nic": {"pba_rx_kb": 56}, "packet": {"size": 8113}})", {}, "packet.size", "8113"},
    {R"({"nic": {"pba_rx_kb": 64}})", {}, "nic.pba_rx_kb", "64"},
    {R"({"pktgen": {"ports": 2}})", {}, "pktgen.ports", "2"},
    {R"({"pktgen": {"ports": 2}, "nic": {"model": "82544"}})", {}, "pktgen.ports", "2"},
    {R"({"simulation": {"min_window_us": 5000, "max_window_us": 1000}})", {},
     "simulation.min_window_us", "5000"},
    {R"({"nic": {"preload_packets": 3, "preload_bytes": 0}})", {}, "nic.preload_bytes", "0"},
    {R"({"nic": {"preload_packets": 1000, "preload_bytes": 1000}})", {}, "nic.preload_packets",
     "1000"},
};

std::vector<std::string> problems_of(const BadInput& bad) {
    try {
        Scenario::from_json(json::parse(bad.scenario), "test", bad.sets);
    } catch (const ScenarioError& e) {
        return e.problems();
    }
    return {};
}

std::string write_temp(const std::string& text) {
    char name[] = "/tmp/pcisim-bad-XXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << text;
    return name;
}

}  // namespace

TEST_CASE("every bad input names its JSON path, its value and what was expected") {
    REQUIRE(kBadInputs.size() >= 30);
    for (const auto& bad : kBadInputs) {
        INFO("scenario " << bad.scenario);
        std::vector<std::string> p = problems_of(bad);
        REQUIRE(p.size() == 1);
        INFO("problem: " << p[0]);
        CHECK(p[0].rfind(std::string(bad.path) + ": ", 0) == 0);
        CHECK(p[0].find(bad.value) != std::string::npos);
        CHECK(p[0].find('\n') == std::string::npos);
        bool says_expected = p[0].find("expected") != std::string::npos ||
                             p[0].find("did you mean") != std::string::npos;
        CHECK(says_expected);
    }
}

TEST_CASE("a combination error names what the value must be") {
    auto fifo =
        problems_of({R"({"nic": {"pba_rx_kb": 56}, "packet": {"size": 8113}})", {}, "", ""});
    REQUIRE(fifo.size() == 1);
    // 64 - 56 = 8 KB of TX FIFO less 80 bytes.
    CHECK(fifo[0].find("expected at most 8112") != std::string::npos);
    CHECK(problems_of({R"({"nic": {"pba_rx_kb": 56}, "packet": {"size": 8112}})", {}, "", ""})
              .empty());
    auto ring = problems_of({R"({"driver": {"ring_size": 100}})", {}, "", ""});
    REQUIRE(ring.size() == 1);
    CHECK(ring[0].find("multiple of 8") != std::string::npos);
    CHECK(problems_of({R"({"pktgen": {"ports": 2}, "nic": {"model": "82546"}})", {}, "", ""})
              .empty());
}

TEST_CASE("an unknown key's message suggests the nearest valid key") {
    auto p = problems_of({R"({"nic": {"modle": "82544"}})", {}, "", ""});
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "nic.modle: unknown key; did you mean \"nic.model\"?");
}

TEST_CASE("several problems are all reported, one line each") {
    auto p = problems_of({R"({"bus": {"width_bits": 48, "clock_mhzz": 66},
                              "driver": {"notxints": 1}, "cpu": {"clock_mhz": 0}})",
                          {}, "", ""});
    REQUIRE(p.size() == 4);
    CHECK(p[0].rfind("bus.clock_mhzz: ", 0) == 0);
    CHECK(p[1].rfind("bus.width_bits: ", 0) == 0);
    CHECK(p[2].rfind("cpu.clock_mhz: ", 0) == 0);
    CHECK(p[3].rfind("driver.notxints: ", 0) == 0);
}

TEST_CASE("malformed JSON names the file, line and column") {
    struct Malformed {
        const char* text;
        const char* where;
    };
    const std::vector<Malformed> cases = {
        {"{\n  \"bus\": {\"clock_mhz\": 33,}\n}\n", ":2:27:"},  // trailing comma
        {"{\"bus\": }", ":1:9:"},                                // missing value
        {"{\n\n  \"nic\" \"model\"\n}", ":3:15:"},  // missing colon: at the end of \"model\"
        {"", ":1:1:"},                                           // empty file
    };
    for (const auto& m : cases) {
        std::string file = write_temp(m.text);
        try {
            Scenario::load(file);
            FAIL("no error for " << m.text);
        } catch (const ScenarioError& e) {
            REQUIRE(e.problems().size() == 1);
            INFO(e.problems()[0]);
            CHECK(e.problems()[0].rfind(file + m.where + " malformed JSON", 0) == 0);
        }
        std::remove(file.c_str());
    }
}

TEST_CASE("pcisim check exits 2 with one line per problem and runs nothing") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string file = write_temp(R"({"bus": {"kind": "pci", "clock_mhz": 133},
                                      "driver": {"ring_size": 100}})");
    std::string err = file + ".err";
    int status = std::system((std::string(bin) + " check " + file + " 2>" + err).c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    std::ifstream in(err);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("pcisim: bus.clock_mhz: 133", 0) == 0);
    CHECK(lines[1].rfind("pcisim: driver.ring_size: 100", 0) == 0);
    std::remove(file.c_str());
    std::remove(err.c_str());
}

// ---- Tool options and outputs (issue 18): numbers that are not numbers, writes that fail. ----

namespace {

struct CommandOutcome {
    int exit_code;  // -1 when killed by a signal
    std::string err;
};

// Runs the built pcisim with `args`; stdout goes to `stdout_to`.
CommandOutcome pcisim_says(const std::string& args, const std::string& stdout_to = "/dev/null") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string err = write_temp("");
    int status =
        std::system((std::string(bin) + " " + args + " >" + stdout_to + " 2>" + err).c_str());
    std::ifstream in(err);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(err.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

std::string bus_demo() { return std::string(PCISIM_SOURCE_DIR) + "/scenarios/bus-demo.json"; }

const char* kShortRun = " --set simulation.warmup_us=20 --set simulation.batch_us=200"
                        " --set simulation.min_window_us=200";

}  // namespace

TEST_CASE("numeric tool options refuse NaN, infinities and non-positive counts") {
    struct BadOption {
        std::string args;
        const char* says;  // the option and what was expected
    };
    const std::string run = "run " + bus_demo() + " --vcd /dev/null --window ";
    const std::vector<BadOption> cases = {
        {run + "nan:nan", "--window nan:nan: \"nan\" is not a finite number"},
        {run + "1:inf", "--window 1:inf: \"inf\" is not a finite number"},
        {run + "1:1e300", "--window 1:1e300: \"1e300\" is beyond the simulated time"},
        {run + "-1:5", "--window -1:5: "},
        {run + "5:1", "--window 5:1: "},
        {"explain " + bus_demo() + " --window nan:1", "--window nan:1: \"nan\" is not a finite"},
        {"bench --runs -1", "--runs -1: expected a whole number from 1 to 1000"},
        {"bench --runs 0", "--runs 0: expected a whole number from 1 to 1000"},
        {"bench --packets inf", "--packets inf: expected a whole number from 1 to"},
        {"bench --packets 1e4,nan", "--packets nan: expected a whole number from 1 to"},
        {"bench --packets 0", "--packets 0: expected a whole number from 1 to"},
        {"bench --packets 1e30", "--packets 1e30: expected a whole number from 1 to"},
        {"validate -j -1", "-j -1: expected a whole number from 1 to 1024"},
        {"validate -j 0", "-j 0: expected a whole number from 1 to 1024"},
        {"fit x.csv --bus-bytes-per-s inf", "--bus-bytes-per-s inf: expected a finite number > 0"},
        {"fit x.csv --bus-bytes-per-s nan", "--bus-bytes-per-s nan: expected a finite number > 0"},
        {"fit x.csv --bus-bytes-per-s 0", "--bus-bytes-per-s 0: expected a finite number > 0"},
    };
    for (const auto& c : cases) {
        INFO("pcisim " << c.args);
        CommandOutcome o = pcisim_says(c.args);
        INFO(o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.err.find(c.says) != std::string::npos);
        CHECK(o.err.find("expected") != std::string::npos);
    }
}

TEST_CASE("a failed write to standard output fails the command") {
    for (const std::string& args :
         {std::string("schema"), std::string("--help"), "check " + bus_demo(),
          "run " + bus_demo() + kShortRun}) {
        INFO("pcisim " << args << " >/dev/full");
        CommandOutcome o = pcisim_says(args, "/dev/full");
        CHECK(o.exit_code == 1);
        CHECK(o.err.find("pcisim: cannot write the standard output") != std::string::npos);
        // The same command succeeds when its output has somewhere to go.
        CHECK(pcisim_says(args).exit_code == 0);
    }
}

TEST_CASE("run --json with a string that is not UTF-8 names the key and writes nothing") {
    std::string out = write_temp("");
    std::remove(out.c_str());
    CommandOutcome o = pcisim_says("run " + bus_demo() + kShortRun +
                                   " --set \"name=caf$(printf '\\351')\" --json " + out);
    CHECK(o.exit_code == 2);
    INFO(o.err);
    CHECK(o.err.find("scenario.name: the string \"caf\\xE9\" is not valid UTF-8") !=
          std::string::npos);
    CHECK(o.err.find("expected UTF-8 text") != std::string::npos);
    std::ifstream written(out);
    CHECK_FALSE(written.good());
}
