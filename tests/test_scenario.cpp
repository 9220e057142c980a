// Scenario checking: every bad input gives one line naming the key, the value and the expectation.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "run/scenario.h"

using namespace pcisim;
using nlohmann::json;

namespace {
std::vector<std::string> problems_of(const std::string& text,
                                     const std::vector<std::string>& sets = {}) {
    try {
        Scenario::from_json(json::parse(text), "test", sets);
    } catch (const ScenarioError& e) {
        return e.problems();
    }
    return {};
}

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
    auto p = problems_of(R"({"bus": {"clock_mhzz": 66}})");
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "bus.clock_mhzz: unknown key; did you mean \"bus.clock_mhz\"?");
}

TEST_CASE("wrong types and ranges name the path, the value and the expectation") {
    auto p = problems_of(R"({"bus": {"width_bits": 48, "latency_timer_clocks": "64"}})");
    CHECK(any_contains(p, "bus.width_bits: 48 is not allowed; expected one of 32 64"));
    CHECK(any_contains(p, "bus.latency_timer_clocks: \"64\" is not a number"));
    CHECK(p.size() == 2);  // every problem, not only the first
}

TEST_CASE("conventional PCI at 100 MHz is an inconsistent combination") {
    auto p = problems_of(R"({"bus": {"kind": "pci", "clock_mhz": 100}})");
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("bus.clock_mhz: 100") == 0);
    CHECK(p[0].find("33 or 66") != std::string::npos);
    CHECK(problems_of(R"({"bus": {"kind": "pcix", "clock_mhz": 100}, "nic": {"model": "82544"}})")
              .empty());
}

TEST_CASE("set overrides any key by its dotted path, list items included") {
    Scenario s = Scenario::from_json(json::parse(R"({"bridges": [{"name": "p64h2"}]})"), "test",
                                     {"bus.clock_mhz=66", "bridges.0.upstream_latency_ns=250",
                                      "bridges[0].name=other"});
    CHECK(s.number("bus.clock_mhz") == 66);
    CHECK(s.number("bridges.0.upstream_latency_ns") == 250);
    CHECK(s.text("bridges.0.name") == "other");
    auto p = problems_of("{}", {"bus.clok_mhz=66"});
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
