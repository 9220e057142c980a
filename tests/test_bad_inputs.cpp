// Bad scenarios, one row each: every problem is one line that starts with the JSON path it is
// about, shows the offending value and says what was expected.  Malformed JSON names the file,
// line and column instead.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "run/scenario.h"
#include "test_support.h"
#include "run/simulation.h"

namespace test_bad_inputs {

using namespace pcisim;
using namespace pcisim::test;
using nlohmann::json;

namespace {

struct BadInput {
    const char* scenario;           // JSON text
    std::vector<std::string> sets;  // --set overrides
    const char* path;               // the JSON path the one problem must start with
    const char* value;              // the offending value as the message shows it
};

const std::vector<BadInput> kBadInputs = {
    // a station address the driver would refuse, or no address at all
    {R"({"nic": {"mac_address": "01:00:5e:00:00:01"}})", {}, "nic.mac_address", "01:00:5e:00:00:01"},
    {R"({"nic": {"mac_address": "00-02-b3-00-00-01"}})", {}, "nic.mac_address", "00-02-b3-00-00-01"},
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
    {R"({"bus": {"kind": "pcix", "clock_mhz": 33}, "nic": {"model": "82544"}})", {},
     "bus.clock_mhz", "33"},
    {R"({"driver": {"ring_size": 100}})", {}, "driver.ring_size", "100"},
    {R"({"driver": {"ring_size": 4092}})", {}, "driver.ring_size", "4092"},
    {R"({"nic": {"pba_rx_kb": 60}, "packet": {"size": 9000}})", {}, "packet.size", "9000"},
    {R"({"nic": {"pba_rx_kb": 56}, "packet": {"size": 8113}})", {}, "packet.size", "8113"},
    {R"({"nic": {"pba_rx_kb": 64}})", {}, "nic.pba_rx_kb", "64"},
    {R"({"pktgen": {"ports": 2}})", {}, "pktgen.ports", "2"},
    {R"({"pktgen": {"ports": 2}, "nic": {"model": "82544"}})", {}, "pktgen.ports", "2"},
    {R"({"simulation": {"min_window_us": 5000, "max_window_us": 1000}})", {},
     "simulation.min_window_us", "5000"},
    {R"({"nic": {"preload_packets": 3, "preload_bytes": 0}, "pktgen": {"enabled": false}})", {},
     "nic.preload_bytes", "0"},
    {R"({"nic": {"preload_packets": 1000, "preload_bytes": 1000}, "pktgen": {"enabled": false}})",
     {}, "nic.preload_packets", "1000"},
};

std::vector<std::string> problems_of(const BadInput& bad) {
    return json_problems(bad.scenario, bad.sets);
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

// ---- Input that is never silently dropped or ignored, and bounded reading (issue 18) --------

namespace {

const std::vector<BadInput> kIgnoredInputs = {
    // the 82540 and 82541 are PCI-only parts (8254x SDM section 1.3)
    {R"({"bus": {"kind": "pcix", "clock_mhz": 133, "width_bits": 64}, "nic": {"model": "82540"}})",
     {}, "nic.model", "\"82540\""},
    {R"({"bus": {"kind": "pcix", "clock_mhz": 66}, "nic": {"model": "82541"}})", {}, "nic.model",
     "\"82541\""},
    // what the run would stop on: frames after preloaded ones, socket buffers past host memory
    {R"({"nic": {"preload_packets": 3, "preload_bytes": 60}})", {}, "nic.preload_packets", "3"},
    {R"({"host": {"memory_mib": 4}})", {}, "host.memory_mib", "4"},
    {R"({"host": {"memory_mib": 1}})", {}, "host.memory_mib", "1"},
    {R"({"host": {"memory_mib": 1}, "pktgen": {"enabled": false}})", {}, "host.memory_mib", "1"},
    {R"({"host": {"memory_mib": 2}, "pktgen": {"enabled": false, "ports": 2},
         "nic": {"model": "82546"}})", {}, "host.memory_mib", "2"},
    {R"({"packet": {"size": 9000}, "driver": {"ring_size": 4096}, "host": {"memory_mib": 25}})",
     {}, "host.memory_mib", "25"},
    // module names SystemC would change (W505, W506): results would show another name
    {R"({"bridges": [{}, {}]})", {}, "bridges[1].name", "\"bridge\" is also bridges[0].name"},
    {R"({"bridges": [{"name": "x"}], "masters": [{"name": "x"}]})", {}, "masters[0].name",
     "\"x\" is also bridges[0].name"},
    {R"({"masters": [{"name": "host"}]})", {}, "masters[0].name", "\"host\""},
    {R"({"bridges": [{"name": "cpu1"}]})", {}, "bridges[0].name", "\"cpu1\""},
    {R"({"masters": [{"name": "a.b"}]})", {}, "masters[0].name", "\"a.b\""},
    {R"({"masters": [{"name": "a b"}]})", {}, "masters[0].name", "\"a b\""},
    {R"({"masters": [{"name": ""}]})", {}, "masters[0].name", "\"\" is empty"},
    // --set key paths that would set another key than the one written
    {"{}", {"..=1"}, "--set ..=1", "\"..\""},
    {"{}", {".bus.clock_mhz=66"}, "--set .bus.clock_mhz=66", "\".bus.clock_mhz\""},
    {"{}", {"bus.clock_mhz.=66"}, "--set bus.clock_mhz.=66", "\"bus.clock_mhz.\""},
    {"{}", {"bus..clock_mhz=66"}, "--set bus..clock_mhz=66", "\"bus..clock_mhz\""},
    {R"({"bridges": [{}]})", {"bridges[0.name=x"}, "--set bridges[0.name=x", "\"bridges[0.name\""},
    {R"({"bridges": [{}]})", {"bridges[x].name=a"}, "--set bridges[x].name=a", "\"bridges[x].name\""},
    {R"({"bridges": [{}]})", {"bridges[].name=a"}, "--set bridges[].name=a", "\"bridges[].name\""},
    {R"({"bridges": [{}]})", {"bridges[0]name=a"}, "--set bridges[0]name=a", "\"bridges[0]name\""},
    {"{}", {"bus]=1"}, "--set bus]=1", "\"bus]\""},
    // --set values that are JSON the loader does not take
    {"{}", {R"(bus={"kind": "pci", "kind": "pcix"})"}, "--set bus", "kind is given twice"},
    {"{}", {"bus.clock_mhz=" + std::string(100, '[') + std::string(100, ']')}, "--set bus.clock_mhz",
     "deeper than 64"},
};

std::string repeated(const std::string& s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}


}  // namespace

TEST_CASE("a parameter the run would drop, ignore or stop on is a scenario error") {
    for (const auto& bad : kIgnoredInputs) {
        INFO("scenario " << bad.scenario << (bad.sets.empty() ? "" : " --set " + bad.sets[0]));
        std::vector<std::string> p = problems_of(bad);
        REQUIRE(p.size() == 1);
        INFO("problem: " << p[0]);
        CHECK(p[0].rfind(std::string(bad.path) + ": ", 0) == 0);
        CHECK(p[0].find(bad.value) != std::string::npos);
        CHECK(p[0].find("expected") != std::string::npos);
    }
}

TEST_CASE("the combinations the run needs pass when they hold") {
    auto ok = [](const char* scenario) {
        return problems_of({scenario, {}, "", ""});
    };
    CHECK(ok(R"({"bus": {"kind": "pcix", "clock_mhz": 133}, "nic": {"model": "82544"}})").empty());
    // without a NIC the part is not on the bus
    CHECK(ok(R"({"bus": {"kind": "pcix", "clock_mhz": 133}, "nic": {"enabled": false}})").empty());
    CHECK(ok(R"({"nic": {"preload_packets": 3, "preload_bytes": 60},
                 "pktgen": {"enabled": false}})").empty());
    // a master left off the bus is no module; names of its own
    CHECK(ok(R"({"masters": [{"name": "x"}, {"name": "x", "enabled": false}]})").empty());
    CHECK(ok(R"({"bridges": [{"name": "p64h2"}, {"name": "ich5"}],
                 "masters": [{"name": "cpu"}, {"name": "cpu-2"}]})").empty());
    // clone_skb: the run checks no order, pktgen's frames may follow preloaded ones
    CHECK(ok(R"({"nic": {"preload_packets": 3, "preload_bytes": 60},
                 "pktgen": {"clone_skb": 10}})").empty());
    // 257 buffers of 128 B above 4 MiB; only the ring (from 1 MiB on) when pktgen sends
    // nothing, a ring per port 1 MiB apart; no NIC, no ring
    CHECK(ok(R"({"host": {"memory_mib": 5}})").empty());
    CHECK(ok(R"({"host": {"memory_mib": 2}, "pktgen": {"enabled": false}})").empty());
    CHECK(ok(R"({"host": {"memory_mib": 3}, "pktgen": {"enabled": false, "ports": 2},
                 "nic": {"model": "82546"}})").empty());
    CHECK(ok(R"({"host": {"memory_mib": 1}, "nic": {"enabled": false}})").empty());
    // 1366 buffers of 16 KiB (4096 / 3 packets of 3 descriptors) above 4 MiB: 25.3 MiB
    auto p = ok(R"({"packet": {"size": 9000}, "driver": {"ring_size": 4096},
                    "host": {"memory_mib": 25}})");
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("expected at least 26") != std::string::npos);
    // clone_skb 100: a ring's packets straddle at most 15 buffers, plus pktgen's own
    CHECK(ok(R"({"packet": {"size": 9000}, "driver": {"ring_size": 4096},
                 "pktgen": {"clone_skb": 100}, "host": {"memory_mib": 5}})").empty());
}

TEST_CASE("a key given twice is reported with its path and line, with every other problem") {
    std::string file = write_temp("{\n  \"bus\": {\"clock_mhz\": 66},\n  \"bus\": {\"kind\": \"pci\","
                                  "\n  \"kind\": \"pcix\"},\n  \"bridges\": [{}, {\"name\": \"a\",\n"
                                  "  \"name\": \"b\"}],\n  \"nic\": {\"modle\": \"82544\"}\n}\n");
    auto p = load_problems(file);
    REQUIRE(p.size() == 4);
    CHECK(p[0] == "bus: key given twice (line 3 of " + file + "); expected each key once in an object");
    CHECK(p[1].rfind("bus.kind: key given twice (line 4 of " + file + ")", 0) == 0);
    CHECK(p[2].rfind("bridges[1].name: key given twice (line 6 of " + file + ")", 0) == 0);
    CHECK(p[3].rfind("nic.modle: unknown key", 0) == 0);
    std::remove(file.c_str());
    // In the text a sweep or the fuzz target parses too.
    CHECK_THROWS_AS(parse_scenario_text(R"({"a": 1, "a": 1})", "text"), ScenarioError);
    CHECK(parse_value(R"({"a": 1, "a": 2})") == json(R"({"a": 1, "a": 2})"));  // text, not JSON
}

TEST_CASE("JSON nested too deep is refused before anything recurses into it") {
    // 75000 levels under a known key crashed the message that showed the value.
    std::string deep = "{\"bus\": " + repeated("[", 75000) + repeated("]", 75000) + "}";
    std::string file = write_temp(deep);
    auto p = load_problems(file);
    REQUIRE(p.size() == 1);
    // The 64th "[" is the 65th level, at column 8 + 64 of line 1.
    CHECK(p[0] == file + ":1:72: JSON nested deeper than 64 levels; expected at most 64 "
                         "(scenario keys go 3 deep)");
    std::remove(file.c_str());
    // 64 levels are read, 65 are not.
    std::string levels_64 = "{\"bus\": " + repeated("[", 63) + repeated("]", 63) + "}";
    CHECK(parse_scenario_text(levels_64, "text").at("bus").is_array());
    std::string levels_65 = "{\"bus\": " + repeated("[", 64) + repeated("]", 64) + "}";
    CHECK_THROWS_AS(parse_scenario_text(levels_65, "text"), ScenarioError);
    // A deep document built in memory is shown clipped, never serialized whole.  (Only code can
    // build one: files stop at 64 levels above.  2000 levels, not 75000: nlohmann copies a
    // document recursively, and the copy alone overflows the stack of an ASan build.)
    json inner = json::array();
    for (int i = 0; i < 2000; ++i) inner = json::array({std::move(inner)});
    auto r = [&] {
        try {
            Scenario::from_json(json{{"bus", std::move(inner)}}, "memory");
        } catch (const ScenarioError& e) {
            return e.problems();
        }
        return std::vector<std::string>{};
    }();
    REQUIRE(r.size() == 1);
    CHECK(r[0].rfind("bus: [[[[", 0) == 0);
    CHECK(r[0].size() < 150);
}

TEST_CASE("a huge value or key is shown clipped") {
    std::string big = "{\"bus\": {\"kind\": \"" + std::string(100000, 'x') + "\", \"" +
                      std::string(100000, 'k') + "\": 1}}";
    auto p = problems_of({big.c_str(), {}, "", ""});
    REQUIRE(p.size() == 2);
    for (const auto& line : p) CHECK(line.size() < 250);
    CHECK(p[0].rfind("bus.kind: \"xxxx", 0) == 0);
    CHECK(p[0].find("...") != std::string::npos);
    CHECK(p[1].rfind("bus.kkkk", 0) == 0);
    CHECK(p[1].find("...: unknown key") != std::string::npos);
}

TEST_CASE("more than 100 problems are cut at 100 and say so") {
    std::string many = "{";
    for (int i = 0; i < 5000; ++i) many += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": 1";
    many += "}";
    auto p = problems_of({many.c_str(), {}, "", ""});
    REQUIRE(p.size() == 101);
    CHECK(p[100] == "test: more than 100 problems, the first 100 listed; expected fewer (fix "
                    "these and check again)");
}

TEST_CASE("a scenario file is a regular file of at most 1 MiB") {
    for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/null", "/tmp"}) {
        auto p = load_problems(device);
        REQUIRE(p.size() == 1);
        CHECK(p[0] == std::string(device) + ": is not a regular file; expected a JSON file "
                                            "(devices, pipes and directories are not read)");
    }
    // A FIFO nobody writes to would block the reader forever.
    std::string fifo = write_temp("");
    std::remove(fifo.c_str());
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(load_problems(fifo).size() == 1);
    std::remove(fifo.c_str());
    // Exactly 1 MiB is read; one byte more is refused.
    std::string limit = "{}" + std::string(kMaxScenarioFileBytes - 2, ' ');
    std::string file = write_temp(limit);
    CHECK(load_problems(file).empty());
    std::remove(file.c_str());
    file = write_temp(limit + " ");
    auto p = load_problems(file);
    REQUIRE(p.size() == 1);
    CHECK(p[0] == file + ": is larger than 1048576 bytes; expected a scenario of at most 1 MiB");
    std::remove(file.c_str());
    // The same for a platform file (a device named as the platform).
    auto q = problems_of({R"({"platform": "/dev/zero"})", {}, "", ""});
    REQUIRE(q.size() == 1);
    CHECK(q[0].rfind("/dev/zero: is not a regular file", 0) == 0);
    CHECK(load_problems("/nonexistent/scenario.json").at(0).rfind(
              "/nonexistent/scenario.json: cannot be read", 0) == 0);
}

TEST_CASE("pcisim check refuses what pcisim run would stop on, exit 2, one line each") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string file = write_temp(R"({"host": {"memory_mib": 4},
        "bus": {"kind": "pcix", "clock_mhz": 133}, "nic": {"preload_packets": 2, "preload_bytes": 60}})");
    for (const char* command : {"check", "run"}) {
        std::string err = file + ".err";
        int status = std::system((std::string(bin) + " " + command + " " + file + " 2>" + err).c_str());
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 2);
        std::ifstream in(err);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        INFO(command);
        REQUIRE(lines.size() == 3);
        CHECK(lines[0].rfind("pcisim: host.memory_mib: 4", 0) == 0);
        CHECK(lines[1].rfind("pcisim: nic.model: \"82540\"", 0) == 0);
        CHECK(lines[2].rfind("pcisim: nic.preload_packets: 2", 0) == 0);
        std::remove(err.c_str());
    }
    std::remove(file.c_str());
    int status = std::system((std::string(bin) + " check /dev/zero 2>/dev/null").c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
}

TEST_CASE("the least host memory the check takes holds every socket buffer of the run") {
    // A full ring of 9000-byte packets, a fresh skb each: 1366 buffers of 16 KiB above the
    // first 4 MiB need 25.3 MiB; 26 is the least the check takes (one less is refused above).
    Scenario s = Scenario::from_json(json::parse(R"({
        "packet": {"size": 9000}, "driver": {"ring_size": 4096}, "host": {"memory_mib": 26},
        "simulation": {"warmup_us": 3000, "batch_us": 500, "min_window_us": 2000,
                       "max_window_us": 2000}})"), "test");
    Simulation sim(s);
    json r = sim.run();
    CHECK(r["cpus"][0]["queue_stops"].get<std::uint64_t>() > 0);  // the ring was full
}

// ---- Tool options and outputs (issue 18): numbers that are not numbers, writes that fail. ----

namespace {

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
        // A recording keeps every transaction: its length is bounded, and so is its end (the
        // run goes on until the window has closed).
        {"explain " + bus_demo() + " --window 0:1e9",
         "--window 0:1e9: 1e+09 us is longer than a recording may be"},
        {run + "0:20001", "--window 0:20001: 20001 us is longer than a recording may be"},
        {run + "1e9:1000000010", "--window 1e9:1000000010: ends after "},
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
        CommandOutcome o = run_pcisim(c.args);
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
        CommandOutcome o = run_pcisim(args, "/dev/full");
        CHECK(o.exit_code == 1);
        CHECK(o.err.find("pcisim: cannot write the standard output") != std::string::npos);
        // The same command succeeds when its output has somewhere to go.
        CHECK(run_pcisim(args).exit_code == 0);
    }
}

TEST_CASE("run --json with a string that is not UTF-8 names the key and writes nothing") {
    std::string out = write_temp("");
    std::remove(out.c_str());
    CommandOutcome o = run_pcisim("run " + bus_demo() + kShortRun +
                                   " --set \"name=caf$(printf '\\351')\" --json " + out);
    CHECK(o.exit_code == 2);
    INFO(o.err);
    CHECK(o.err.find("scenario.name: the string \"caf\\xE9\" is not valid UTF-8") !=
          std::string::npos);
    CHECK(o.err.find("expected UTF-8 text") != std::string::npos);
    std::ifstream written(out);
    CHECK_FALSE(written.good());
}

TEST_CASE("a command without its scenario names the SCENARIO argument, not a hidden option") {
    for (const std::string command : {"run", "check", "explain", "sweep --vary packet.size=60"}) {
        INFO("pcisim " << command);
        CommandOutcome o = run_pcisim(command);
        INFO(o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.err.find("missing SCENARIO") != std::string::npos);
        CHECK(o.err.find("--scenario") == std::string::npos);
    }
    CommandOutcome fit = run_pcisim("fit");
    CHECK(fit.exit_code == 2);
    CHECK(fit.err.find("missing SWEEP.csv") != std::string::npos);
}

TEST_CASE("schema --help prints its help, not the schema") {
    TempDir dir;
    const std::string out = dir / "help.txt";
    CHECK(run_pcisim("schema --help", out).exit_code == 0);
    const std::string help = slurp(out);
    CHECK(help.find("pcisim schema") != std::string::npos);
    CHECK(help.find("bus.clock_mhz") == std::string::npos);
    CHECK(run_pcisim("schema --bogus").exit_code == 2);
}

TEST_CASE("explain --direction tx on a receive-only scenario says no port transmits") {
    CommandOutcome o = run_pcisim("explain " + pcisim::test::scenario_path("xeon-pcix-133-rx") +
                                  " --direction tx");
    INFO(o.err);
    CHECK(o.exit_code == 2);
    CHECK(o.err.find("pktgen.enabled false: no port transmits") != std::string::npos);
    CHECK(o.err.find("window longer") == std::string::npos);
    CommandOutcome bad = run_pcisim("explain " + pcisim::test::scenario_path("xeon-pcix-133-rx") +
                                    " --direction up");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("'up' is not one of tx, rx, both") != std::string::npos);
}

TEST_CASE("explain on a scenario without a NIC says so once, not 'make the window longer'") {
    CommandOutcome o = run_pcisim("explain " + bus_demo() + " --set nic.enabled=false");
    INFO(o.err);
    CHECK(o.exit_code == 2);
    CHECK(o.err.find("nic.enabled is false") != std::string::npos);
    CHECK(o.err.find("window longer") == std::string::npos);
    CHECK(o.err.find("explain: explain:") == std::string::npos);
}

}  // namespace test_bad_inputs
