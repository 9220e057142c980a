// Results check themselves before a rate is printed (issue 18): a ring that deadlocks after the
// window opened, a window with too few frames, and rates above the wire limit of the link stop
// the run with a diagnostic (exit 1) instead of printing a plausible number.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace test_result_checks {

using namespace pcisim::test;

namespace {

// The run's results are null unless it succeeded.
JsonOutcome run(const std::string& scenario, const std::string& sets) {
    return run_pcisim_json("run " + scenario_path(scenario) + " " + sets);
}

}  // namespace

TEST_CASE("a ring that deadlocks after the window opened fails the run at default settings",
          "[robust]") {
    // The NIC drops its write-backs: the driver never cleans, the ring drains once and stops.
    // Before, the window's first frames gave 486136 pps on the 32/33 machine and 0 pps on the
    // 32/66 one, both with exit 0.
    for (const char* scenario : {"phi-32-33-82540", "phi-32-66-82541"}) {
        JsonOutcome o = run(scenario, "--set testing.nic_drop_writebacks=true");
        INFO(scenario << ": " << o.err);
        CHECK(o.exit_code == 1);
        CHECK(contains(o.err, " in watchdog: no progress for "));
    }
}

TEST_CASE("a window with too few frames to measure fails the run", "[robust]") {
    JsonOutcome o = run("phi-32-33-82540", "--set pktgen.count=10");
    INFO(o.err);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "nic port 0: only 0 frames in the "));
    CHECK(contains(o.err, "too few to measure a rate"));
}

TEST_CASE("two ports at the wire limit are measured each on its own, never above it", "[robust]") {
    // Before, one interval over both ports' frames gave 164243 pps against a limit of 164042.
    JsonOutcome o = run("phi-64-100-82546", "--set pktgen.ports=2 --set packet.size=1500");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    const auto& r = o.json;
    double port_limit = 125e6 / (1500 + 24);
    CHECK(r["wire_limit_pps"].get<double>() == Approx(2 * port_limit).epsilon(1e-12));
    REQUIRE(r["tx_pps_by_port"].size() == 2);
    double sum = 0;
    for (const auto& p : r["tx_pps_by_port"]) {
        CHECK(p.get<double>() <= port_limit * (1 + 1e-9));
        CHECK(p.get<double>() > 0.99 * port_limit);  // 1500 bytes: each port at wire speed
        sum += p.get<double>();
    }
    CHECK(r["tx_pps"].get<double>() == Approx(sum).epsilon(1e-12));
}

TEST_CASE("the wire limit follows the link speed", "[robust]") {
    JsonOutcome o = run("phi-32-33-82540", "--set nic.link_mbps=100");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    double limit = 12.5e6 / (60 + 24);  // 100 Mb/s, 60-byte frames
    CHECK(o.json["wire_limit_pps"].get<double>() == Approx(limit).epsilon(1e-12));
    CHECK(o.json["tx_pps"].get<double>() <= limit * (1 + 1e-9));
    CHECK(o.json["tx_pps"].get<double>() > 0.99 * limit);
}

TEST_CASE("long frames on a slow link are no stall: the window grows until it can measure",
          "[robust]") {
    // A 9000-byte frame takes 7.2 ms at 10 Mb/s, longer than the 2 ms watchdog default and than
    // a window of 2 ms: the watchdog allows for one packet's own time, and a window with fewer
    // than 10 frames per port is never taken as stable.
    JsonOutcome o = run("phi-32-33-82540",
                    "--set nic.link_mbps=10 --set packet.size=9000 --set nic.pba_rx_kb=32");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    double limit = 1.25e6 / (9000 + 24);
    CHECK(o.json["wire_limit_pps"].get<double>() == Approx(limit).epsilon(1e-12));
    CHECK(o.json["tx_pps"].get<double>() == Approx(limit).epsilon(1e-3));
    CHECK(o.json["tx_frames"].get<std::uint64_t>() >= 10);
}

}  // namespace test_result_checks
