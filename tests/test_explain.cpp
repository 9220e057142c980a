// explain: the limiting resource's parts add up to the measured per-packet period, and the
// limiter named is the one the scenario makes busiest.
#include <catch2/catch.hpp>

#include "tools/cli/explain_setup.h"
#include "tools/explain/critical_path.h"
#include "tools/explain/receive_path.h"
#include "run/recording.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "test_support.h"

namespace test_explain {

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
    return explain(rec, cli::transmit_setup(s, rec, results));
}

// The receive side of the same: the recording's receiving port against its rx_pps; `results`
// gets the run's results.
json explain_receive_window(const std::string& name, std::vector<std::string> sets, double from_us,
                            double to_us, json& results) {
    Scenario s = Scenario::load(scenario_path(name), sets);
    Simulation sim(s);
    Recording rec({static_cast<Picos>(from_us * kPicosPerUs), static_cast<Picos>(to_us * kPicosPerUs)});
    sim.attach_recorder(rec);
    results = sim.run();
    REQUIRE(rec.receive_port());
    REQUIRE(results.contains("rx"));
    return explain_receive(rec, cli::receive_setup(s, rec, results));
}

// `pcisim explain ARGS --json FILE` through the command line: its JSON.
json explain_command_json(const std::string& args) {
    return pcisim::test::pcisim_json("explain " + args);
}

double part_ns(const json& parts, const std::string& step, const std::string& mechanism) {
    double sum = 0;
    for (const auto& p : parts)
        if (p["step"] == step && p.value("mechanism", "") == mechanism) sum += p["ns"].get<double>();
    return sum;
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
    // After the first milliseconds, where the CPUs' caches and slabs still fill (each CPU
    // drives two ports, and limits until then).
    json x = explain_window("xeon-pcix-133-quad-2cpu", {}, 10000, 10500);
    check_sums(x);
    CHECK(x["window"]["port"] == "nic0.port0");
    CHECK(x["limiter"] == "nic_engine");
    // The engine's own bus activity is on the card's segment: its data phases are there.
    double data = 0;
    for (const auto& p : x["parts"]["nic_engine"])
        if (p["step"] == "data read" && p["mechanism"] == "data phases") data = p["ns"];
    CHECK(data > 0);
}

// 60-byte frames at the line rate on PCI-X 64/133, dropped in the driver: the wire is the
// limit (one frame's share of the line, 84 byte times of 8 ns, per received frame), every
// resource's parts cover the period, and the frame's data goes up as a posted write: the
// receive engine spends no time waiting for read data on a frame's path.
TEST_CASE("explain on a receive run: wire-limited at 60 B on PCI-X, posted writes, no misses") {
    json results;
    json x = explain_receive_window("xeon-pcix-133-rx", {}, 500, 1000, results);
    INFO(x["parts"].dump(1));
    CHECK(x["period_ns"].get<double>() == Approx(x["measured_period_ns"].get<double>()).epsilon(0.01));
    for (const auto& [resource, parts] : x["parts"].items())
        CHECK(sum_ns(parts) == Approx(x["period_ns"].get<double>()).epsilon(1e-9));
    CHECK(x["limiter"] == "wire");
    CHECK(x["resources"][0]["busy_ns_per_frame"].get<double>() == Approx(672).epsilon(0.005));
    CHECK(x["missed"]["fifo_full"] == 0);
    CHECK(x["missed"]["no_descriptor"] == 0);
    // The data write: bus clocks and bus waits.
    const json& engine = x["parts"]["nic_rx_engine"];
    CHECK(part_ns(engine, "data write", "data phases") > 0);
    CHECK(x["dma"]["data_write_ns_per_frame"].get<double>() < x["period_ns"].get<double>());
    CHECK(x["dma"]["descriptors_per_fetch"].get<double>() > 1);
    // The chain reaches the driver and its refill.
    std::vector<std::string> stages;
    for (const auto& st : x["chain"]["stages"]) stages.push_back(st["stage"]);
    CHECK(stages.size() == 8);
    CHECK(stages.back() == "refill and RDT write (alloc_rx_buffers)");
}

// PCI 32/33 cannot carry 60-byte frames at the line rate: the FIFO fills and frames are missed
// with descriptors to spare.  With the recording window equal to the run's measurement window
// the missed frames explain counts by cause are the run's rx.missed_by_cause, in proportion.
TEST_CASE("explain on a bus-limited receive run: the misses by cause are the run's") {
    std::vector<std::string> sets = pcisim::test::fixed_window(1200, 2000);
    sets.insert(sets.end(), {"wire_source.enabled=true", "pktgen.enabled=false"});
    json results;
    json x = explain_receive_window("phi-32-33-82540", sets, 2000, 3200, results);
    INFO(x["resources"].dump(1));
    INFO(results["rx"].dump(1));
    CHECK(x["period_ns"].get<double>() == Approx(x["measured_period_ns"].get<double>()).epsilon(0.01));
    for (const auto& [resource, parts] : x["parts"].items())
        CHECK(sum_ns(parts) == Approx(x["period_ns"].get<double>()).epsilon(1e-9));
    CHECK(x["limiter"] != "wire");
    const json& run = results["rx"];
    const double arrived = x["frames_arrived"].get<double>();
    const double missed_fifo = x["missed"]["fifo_full"].get<double>();
    REQUIRE(run["missed_by_cause"]["fifo_full"].get<double>() > 0);
    CHECK(missed_fifo / arrived ==
          Approx(run["missed_by_cause"]["fifo_full"].get<double>() / run["frames_arrived"].get<double>())
              .margin(0.01));
    CHECK(x["missed"]["no_descriptor"] == run["missed_by_cause"]["no_descriptor"]);
    // What arrived is what was received plus what was missed, give or take the FIFO's content.
    CHECK(arrived - missed_fifo == Approx(x["window"]["frames"].get<double>()).epsilon(0.02));
}

// A TCP stream with TSO: the stack hands the driver frames of up to 64 KB, the NIC sends
// MSS-sized segments.  explain's s and period are the wire's frames (headers + tcp.mss), not
// the skbs, and it says how many segments each skb became.
TEST_CASE("explain on a TSO stream counts the segments on the wire, not the skbs") {
    const json x = explain_command_json(scenario_path("hp-ia64-netperf-tso"));
    const double full = x["resolved_scenario"]["tcp"]["mss"].get<double>() + 14 + 20 + 20;
    CHECK(x["wire_frames"]["largest_bytes"].get<double>() == full);
    CHECK(x["packet_size"].get<double>() <= full);
    CHECK(x["packet_size"].get<double>() > full - 100);
    CHECK(x["period_ns"].get<double>() == Approx(x["measured_period_ns"].get<double>()).epsilon(0.01));
    CHECK(x["tcp"]["segments_per_frame"].get<double>() > 10);
    // The far end's CPU paces this stream (docs/tso.md): busy all the run's window.
    CHECK(x["tcp"]["receiver"]["segment_us"] == x["resolved_scenario"]["tcp"]["receiver_segment_us"]);
    CHECK(x["tcp"]["receiver"]["busy_fraction"].get<double>() > 0.95);
    CHECK(!x.contains("receive"));
}

// A receive-only run through the command: its JSON is the receive side alone.
TEST_CASE("explain --json on a receive-only run holds the receive side") {
    const json x = explain_command_json(scenario_path("xeon-pcix-133-rx"));
    CHECK(x["direction"] == "rx");
    CHECK(x["receive"]["window"]["port"] == "nic.port0.rx");
    CHECK(x["receive"]["limiter"] == "wire");
    CHECK(!x.contains("period_ns"));
}

// pktgen on, but its port receive-only: no port transmits, so explain's default (both
// directions) explains the receive side instead of failing on the transmit side's 0 frames.
TEST_CASE("explain skips the transmit side when every port is receive-only") {
    const json x = explain_command_json(scenario_path("xeon-pcix-133-rx") +
                                        " --set pktgen.enabled=true --set wire_source.receive_only=true");
    CHECK(x["direction"] == "rx");
    CHECK(x["receive"]["window"]["frames"].get<double>() > 0);
}

}  // namespace test_explain
