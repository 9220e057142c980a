// explain: the limiting resource's parts add up to the measured per-packet period, and the
// limiter named is the one the scenario makes busiest.
#include <catch2/catch.hpp>

#include "tools/explain/critical_path.h"
#include "run/recording.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "test_support.h"

using namespace pcisim;
using nlohmann::json;
using pcisim::test::scenario_path;

namespace {

// Simulates the scenario, recording [from_us, to_us], and explains that window.
json explain_window(const std::string& name, std::vector<std::string> sets, double from_us,
                    double to_us) {
    Scenario s = Scenario::load(scenario_path(name), sets);
    Simulation sim(s);
    Recording rec({static_cast<Picos>(from_us * kPicosPerUs), static_cast<Picos>(to_us * kPicosPerUs)});
    sim.attach_recorder(rec);
    json results = sim.run();
    ExplainSetup setup;
    setup.packet_size = static_cast<double>(s.integer("packet.size"));
    for (const auto& port : results["ports"])  // the port the recording followed
        if (port["nic"] == rec.port().nic && port["port"] == rec.port().port)
            setup.measured_pps = port["tx_pps"].get<double>();
    return explain(rec, setup);
}

double sum_ns(const json& parts) {
    double sum = 0;
    for (const auto& p : parts) sum += p["ns"].get<double>();
    return sum;
}

void check_sums(const json& x) {
    double measured = x["measured_period_ns"];
    INFO(x["decomposition"].dump(1));
    CHECK(x["decomposition"]["sum_ns"].get<double>() == Approx(measured).epsilon(0.01));
    CHECK(x["period_ns"].get<double>() == Approx(measured).epsilon(0.01));
    // Every resource's parts cover the period exactly.
    for (const auto& [resource, parts] : x["parts"].items())
        CHECK(sum_ns(parts) == Approx(x["period_ns"].get<double>()).epsilon(1e-9));
    // k = period - s in byte-times, and its parts add up to it.
    double k = 0;
    for (const auto& p : x["k_by_mechanism"]) k += p["byte_times"].get<double>();
    CHECK(k == Approx(x["k_byte_times"].get<double>()).epsilon(1e-9));
}

}  // namespace

TEST_CASE("on the 32/66 server the stock driver is limited by the NIC's bus latency chain") {
    json x = explain_window("intel-server-32-66", {}, 500, 1500);
    check_sums(x);
    CHECK(x["limiter"] == "nic_engine");
    // One period of the engine: the packet's data crosses the bus in s/4 + 1 data phases
    // (the frame starts 2 bytes into a dword) = s + 4 byte-times.
    double data = 0;
    for (const auto& p : x["parts"]["nic_engine"])
        if (p["step"] == "data read" && p["mechanism"] == "data phases") data = p["byte_times"];
    CHECK(data == Approx(x["packet_size"].get<double>() + 4).epsilon(0.01));
    REQUIRE(!x["timeline"]["entries"].empty());
}

TEST_CASE("a slow CPU becomes the limiter and its time is what the period is made of") {
    json x = explain_window("intel-server-32-66", {"cpu.clock_mhz=400"}, 500, 1500);
    check_sums(x);
    CHECK(x["limiter"] == "cpu");
    CHECK(x["decomposition"]["resource"] == "cpu");
}

TEST_CASE("a preloaded FIFO drains at the wire limit: frame plus gap per packet") {
    json x = explain_window("preloaded-fifo", {}, 1, 60);
    check_sums(x);
    CHECK(x["limiter"] == "wire");
    // 8 ns per byte time at 1 Gb/s: (8 + 60 + 4) frame, 12 gap.
    CHECK(x["period_ns"].get<double>() == Approx(8.0 * (60 + 24)));
}

namespace {

double commit_wait_byte_times(const json& x) {
    double sum = 0;
    for (const auto& p : x["k_by_mechanism"])
        if (p["mechanism"].get<std::string>().rfind("read waiting for posted writes", 0) == 0)
            sum += p["byte_times"].get<double>();
    return sum;
}

}  // namespace

// phi commits each posted write's line in 200 ns: the data read that follows the write-back
// waits for it, and explain names that wait instead of calling it read latency.
TEST_CASE("a read behind the write-back's commit has a line of its own in explain") {
    json x = explain_window("phi-64-100-82546", {"packet.size=60"}, 500, 1000);
    check_sums(x);
    INFO(x["k_by_mechanism"].dump(1));
    CHECK(commit_wait_byte_times(x) > 50);
}

TEST_CASE("with no write commit time no read waits behind posted writes") {
    json x = explain_window("phi-64-100-82546", {"packet.size=60", "host.write_commit_ns=0"}, 500, 1000);
    check_sums(x);
    CHECK(commit_wait_byte_times(x) == 0);
}

// Port 0 only receives (wire_source.receive_only from port 0), port 1 transmits: explain
// follows port 1, the first port with frames to send, not the first port with a driver.
TEST_CASE("explain skips a port that only receives and follows the one that transmits") {
    json x = explain_window("xeon-pcix-133-tx0-rx1", {"wire_source.first_port=0"}, 500, 1000);
    CHECK(x["window"]["port"] == "nic.port1");
    check_sums(x);
}

// A NIC behind a card bridge: explain follows the first transmitting port, nic0's, on the
// card's own segment, and its period is that port's share of the run's rate.
TEST_CASE("explain follows the first port of a quad-port card on the card's bus") {
    json x = explain_window("xeon-pcix-133-quad-2cpu", {}, 500, 1000);
    check_sums(x);
    CHECK(x["window"]["port"] == "nic0.port0");
    CHECK(x["limiter"] == "nic_engine");
    // The engine's own bus activity is on the card's segment: its data phases are there.
    double data = 0;
    for (const auto& p : x["parts"]["nic_engine"])
        if (p["step"] == "data read" && p["mechanism"] == "data phases") data = p["ns"];
    CHECK(data > 0);
}
