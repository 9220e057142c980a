// Scenario checking: every bad input gives one line naming the key, the value and the expectation.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "run/scenario.h"
#include "test_support.h"

namespace test_scenario {

using namespace pcisim;
using namespace pcisim::test;
using nlohmann::json;

namespace {
bool any_contains(const std::vector<std::string>& v, const std::string& part) {
    for (const auto& s : v)
        if (s.find(part) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("defaults fill every key the scenario leaves out") {
    Scenario s = Scenario::from_json(json::object(), "test");
    CHECK(s.text("bus.kind") == "pci");
    CHECK(s.integer("bus.width_bits") == 32);
    CHECK(s.number("bus.clock_mhz") == 33);
}

TEST_CASE("malformed JSON names the line and column") {
    std::string path = "malformed-test.json";
    {
        std::ofstream f(path);
        f << "{\n  \"bus\": {\n    \"clock_mhz\": 33,\n  }\n}\n";
    }
    try {
        Scenario::load(path);
        FAIL("no error");
    } catch (const ScenarioError& e) {
        CHECK(e.problems().at(0).find(path + ":4:3:") == 0);
    }
    std::remove(path.c_str());
}

TEST_CASE("an unknown key is rejected with the nearest valid key") {
    auto p = json_problems(R"({"bus": {"clock_mhzz": 66}})");
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "bus.clock_mhzz: unknown key; did you mean \"bus.clock_mhz\"?");
}

TEST_CASE("an unknown key far from every valid key gets no suggestion") {
    // "ring_size" belongs under driver; the nearest top-level path ("name") is no likely typo.
    auto p = json_problems(R"({"ring_size": 256})");
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "ring_size: unknown key; expected one of the keys 'pcisim schema' lists");
    // Within the distance a typo makes, the suggestion stays.
    auto typo = json_problems(R"({"bus": {"clock_mz": 66}})");
    REQUIRE(typo.size() == 1);
    CHECK(typo[0] == "bus.clock_mz: unknown key; did you mean \"bus.clock_mhz\"?");
}

TEST_CASE("wrong types and ranges name the path, the value and the expectation") {
    auto p = json_problems(R"({"bus": {"width_bits": 48, "latency_timer_clocks": "64"}})");
    CHECK(any_contains(p, "bus.width_bits: 48 is not allowed; expected one of 32 64"));
    CHECK(any_contains(p, "bus.latency_timer_clocks: \"64\" is not a number"));
    CHECK(p.size() == 2);  // every problem, not only the first
}

TEST_CASE("conventional PCI at 100 MHz is an inconsistent combination") {
    auto p = json_problems(R"({"bus": {"kind": "pci", "clock_mhz": 100}})");
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("bus.clock_mhz: 100") == 0);
    CHECK(p[0].find("33 or 66") != std::string::npos);
    CHECK(json_problems(R"({"bus": {"kind": "pcix", "clock_mhz": 100}, "nic": {"model": "82544"}})")
              .empty());
}

TEST_CASE("set overrides any key by its dotted path, list items included") {
    Scenario s = Scenario::from_json(json::parse(R"({"bridges": [{"name": "p64h2"}]})"), "test",
                                     {"bus.clock_mhz=66", "bridges.0.upstream_latency_ns=250",
                                      "bridges[0].name=other"});
    CHECK(s.number("bus.clock_mhz") == 66);
    CHECK(s.number("bridges.0.upstream_latency_ns") == 250);
    CHECK(s.text("bridges.0.name") == "other");
    auto p = json_problems("{}", {"bus.clok_mhz=66"});
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("did you mean \"bus.clock_mhz\"") != std::string::npos);
}

TEST_CASE("a scenario's values win over the platform it names") {
    Scenario s = Scenario::load(std::string(PCISIM_SOURCE_DIR) + "/scenarios/bus-demo.json",
                                {"bus.clock_mhz=66"});
    CHECK(s.number("bus.clock_mhz") == 66);
    CHECK(s.count("masters") == 2);
}

TEST_CASE("a number too large for a double is a scenario error, not a crash") {
    std::string path = "overflow-test.json";
    {
        std::ofstream f(path);
        f << "{\"bus\": {\"clock_mhz\": 1e999}}\n";
    }
    try {
        Scenario::load(path);
        FAIL("no error");
    } catch (const ScenarioError& e) {
        CHECK(e.problems().at(0).find(path + ": unusable JSON") == 0);
    }
    std::remove(path.c_str());
}

TEST_CASE("more overrides on a loaded scenario give what the file with all of them gives") {
    std::string file = std::string(PCISIM_SOURCE_DIR) + "/scenarios/bus-demo.json";
    std::vector<std::string> first = {"bus.clock_mhz=66"};
    // A leaf, a list item, a whole object replaced (its other keys back to their defaults),
    // a key the file leaves out.
    std::vector<std::string> more = {"packet.size=1500", "masters.1.bytes=64",
                                     "host={\"cache_line_bytes\": 32}", "nic.model=82544"};
    std::vector<std::string> all = first;
    all.insert(all.end(), more.begin(), more.end());
    Scenario base = Scenario::load(file, first);
    Scenario with_more = base.with(more);
    CHECK(with_more.resolved() == Scenario::load(file, all).resolved());
    CHECK(with_more.resolved() != base.resolved());
    CHECK(with_more.number("host.cache_line_bytes") == 32);
    CHECK(base.number("host.cache_line_bytes") != 32);  // the base is left as it was
    // Checked like any other: a bad value names the key.
    try {
        base.with({"bus.clock_mhz=100"});
        FAIL("no error");
    } catch (const ScenarioError& e) {
        REQUIRE(e.problems().size() == 1);
        CHECK(e.problems()[0].find("bus.clock_mhz") != std::string::npos);
    }
}

namespace {
// A directory of scenario and platform files for one test, removed at the end.
struct ScenarioFiles : TempDir {
    const std::string root = path.string();
    std::string write(const std::string& file, const std::string& text) const {
        std::string full = root + "/" + file;
        std::filesystem::create_directories(std::filesystem::path(full).parent_path());
        std::ofstream(full) << text;
        return full;
    }
};

}  // namespace

TEST_CASE("a platform may name another platform, resolved beside the file that names it") {
    ScenarioFiles dir;
    dir.write("boards/base.json", R"({"bus": {"clock_mhz": 66, "latency_timer_clocks": 32},
                                     "host": {"memory_latency_ns": 200}})");
    dir.write("boards/board.json", R"({"platform": "base.json", "bus": {"clock_mhz": 33}})");
    std::string file = dir.write("scenario.json", R"({"platform": "boards/board.json",
                                                     "host": {"memory_latency_ns": 300}})");
    Scenario s = Scenario::load(file);
    CHECK(s.number("bus.clock_mhz") == 33);             // the board's value over its base's
    CHECK(s.integer("bus.latency_timer_clocks") == 32);  // from the base, under both
    CHECK(s.number("host.memory_latency_ns") == 300);   // the scenario's over both
    CHECK(s.text("platform") == "boards/board.json");    // as the scenario names it
}

TEST_CASE("platforms that name each other in a cycle, or too many of them, are refused") {
    ScenarioFiles dir;
    dir.write("a.json", R"({"platform": "b.json"})");
    dir.write("b.json", R"({"platform": "a.json"})");
    dir.write("self.json", R"({"platform": "self.json"})");
    auto p = load_problems(dir.write("cycle.json", R"({"platform": "a.json"})"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].rfind("platform: \"a.json\" (named in " + dir.root + "/b.json) is a cycle: ", 0) == 0);
    CHECK(p[0].find("expected platforms that never name one already read") != std::string::npos);
    p = load_problems(dir.write("self-cycle.json", R"({"platform": "self.json"})"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("is a cycle") != std::string::npos);
    // A chain of 9 platforms: p1 names p2, ... p8 names p9.
    for (int i = 1; i <= 9; ++i)
        dir.write("p" + std::to_string(i) + ".json",
                  i < 9 ? "{\"platform\": \"p" + std::to_string(i + 1) + ".json\"}" : "{}");
    p = load_problems(dir.write("long.json", R"({"platform": "p2.json"})"));
    CHECK(p.empty());  // 8 platforms
    p = load_problems(dir.write("too-long.json", R"({"platform": "p1.json"})"));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "platform: \"p9.json\" (named in " + dir.root +
                      "/p8.json) is platform number 9 of a chain; expected at most 8");
}

TEST_CASE("a platform's own problems are reported with the scenario's, naming its file") {
    ScenarioFiles dir;
    std::string board = dir.write("board.json", "{\"bus\": {\"kind\": \"pci\",\n\"kind\": \"pcix\"},"
                                                " \"platform\": \"missing.json\"}");
    auto p = load_problems(dir.write("s.json", R"({"platform": "board.json", "bus": {"clok": 1}})"));
    REQUIRE(p.size() == 3);
    CHECK(p[0] == "bus.kind: key given twice (line 2 of " + board +
                      "); expected each key once in an object");
    CHECK(p[1] == "platform: \"missing.json\" (named in " + board +
                      ") was not found beside it or in " + PCISIM_SOURCE_DIR +
                      "/scenarios/; expected the path of a platform file");
    CHECK(p[2].rfind("bus.clok: unknown key", 0) == 0);
    p = load_problems(dir.write("t.json", R"({"platform": "board2.json"})"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].rfind("platform: \"board2.json\" (named in " + dir.root + "/t.json) was not found", 0) == 0);
}

TEST_CASE("a platform chosen with --set is loaded, at load and on a loaded scenario") {
    std::string file = std::string(PCISIM_SOURCE_DIR) + "/scenarios/phi-32-33-82540.json";
    std::string other = "platform=platforms/xeon-pcix-133.json";
    // The scenario's own values still win over the platform chosen instead of its own.
    Scenario set = Scenario::load(file, {other});
    Scenario xeon = Scenario::load(std::string(PCISIM_SOURCE_DIR) + "/scenarios/platforms/xeon-pcix-133.json");
    CHECK(set.text("platform") == "platforms/xeon-pcix-133.json");
    CHECK(set.number("host.write_commit_ns") == xeon.number("host.write_commit_ns"));
    CHECK(set.number("host.write_commit_ns") !=
          Scenario::load(file).number("host.write_commit_ns"));
    CHECK(set.text("bus.kind") == "pci");  // phi-32-33-82540 says pci, over the platform
    // A sweep point or a worker's group: the same as loading with all of the overrides.
    Scenario base = Scenario::load(file, {"packet.size=100"});
    Scenario with = base.with({other});
    CHECK(with.resolved() ==
          Scenario::load(file, {"packet.size=100", other})
              .resolved());
    CHECK(with.with({"packet.size=200"}).resolved() ==
          Scenario::load(file, {"packet.size=100", other,
                                "packet.size=200"}).resolved());
    // A platform that is not there is an error, not a silently recorded name.
    try {
        base.with({"platform=platforms/none.json"});
        FAIL("no error");
    } catch (const ScenarioError& e) {
        REQUIRE(e.problems().size() == 1);
        CHECK(e.problems()[0].rfind("platform: \"platforms/none.json\"", 0) == 0);
    }
}

}  // namespace test_scenario
