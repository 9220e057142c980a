// pktgen -> driver -> bus -> e1000 -> wire, end to end.  One simulation per test case (SystemC
// elaborates once per process); comparisons across runs go through the pcisim binary.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "run/scenario.h"
#include "run/simulation.h"
#include "simulated_runs.h"
#include "test_support.h"

namespace test_end_to_end {

using namespace pcisim;
using nlohmann::json;
using pcisim::test::scenario_path;
using pcisim::test::simulate_fixed;
using pcisim::test::slurp;

namespace {

double wire_pps(double size) { return 125e6 / (size + 24); }

}  // namespace

TEST_CASE("every packet pktgen queues leaves the wire once, in order, and the counters agree") {
    // 3000 fresh skbs (clone_skb 0: each carries its own sequence number, checked in order
    // at the MAC; a packet out of order or twice stops the run with an exception).
    json r = simulate_fixed("phi-32-66-82541", {"pktgen.count=3000"}, 20000, 0);
    const json& cpu = r["cpus"][0];
    CHECK(cpu["packets_queued"] == 3000);
    CHECK(r["nic"]["tx_frames"] == 3000);
    CHECK(r["nic"]["descriptors_fetched"] == 3000);
    CHECK(r["nic"]["data_reads"] == 3000);
    // Stock driver: RS on every packet, so every packet is written back and cleaned.
    CHECK(r["nic"]["writebacks"].get<std::uint64_t>() <= 3000);
    CHECK(r["nic"]["descriptors_written_back"] == 3000);
    CHECK(cpu["packets_cleaned"] == 3000);
}

TEST_CASE("a preloaded FIFO drains at exactly the wire rate") {
    json r = simulate_fixed("preloaded-fifo", {}, 100, 20);
    CHECK(r["tx_pps"].get<double>() == Approx(wire_pps(60)).epsilon(0.001));
}

TEST_CASE("1500-byte packets reach wire speed on PCI 64/66") {
    json a = simulate_fixed("athlon-64-66-82546gb", {"packet.size=1500"});
    CHECK(a["tx_pps"].get<double>() == Approx(wire_pps(1500)).epsilon(0.002));
    CHECK(a["tx_pps"].get<double>() <= wire_pps(1500) * 1.0001);
}

TEST_CASE("1500-byte packets reach wire speed on PCI-X 64/133") {
    json b = simulate_fixed("xeon-pcix-133", {"packet.size=1500"});
    CHECK(b["tx_pps"].get<double>() == Approx(wire_pps(1500)).epsilon(0.002));
    CHECK(b["tx_pps"].get<double>() <= wire_pps(1500) * 1.0001);
}

TEST_CASE("pps does not increase with size within one burst on a dedicated bus") {
    // Each size needs its own process: run them through the binary.
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    double previous = 1e12;
    for (int size = 60; size <= 124; size += 16) {
        std::string out = "pps-size-" + std::to_string(size) + ".json";
        std::string cmd = std::string(bin) + " run " + scenario_path("intel-server-32-66") +
                          " --set packet.size=" + std::to_string(size) +
                          " --set simulation.max_window_us=4000 --json " + out + " > /dev/null";
        REQUIRE(std::system(cmd.c_str()) == 0);
        double pps = json::parse(slurp(out))["tx_pps"].get<double>();
        std::remove(out.c_str());
        CHECK(pps <= previous * 1.001);
        previous = pps;
    }
}

TEST_CASE("the 82544 PCI-X workaround adds a descriptor exactly when a buffer ends in an even dword") {
    // The frame starts 2 bytes into a 64-byte-aligned head, so its last byte is at
    // head + size + 1: bit 2 of (size + 1) clear means the buffer is shortened by 4 bytes and
    // a second descriptor carries them.  60 -> 61 (bit 2 set): one descriptor.
    json r = simulate_fixed("xeon-pcix-133", {"nic.model=82544", "pktgen.count=500"}, 3000, 0);
    CHECK(r["cpus"][0]["descriptors_queued"] == 500);
}

TEST_CASE("the 82544 PCI-X workaround splits a 64-byte frame (last byte in an even dword)") {
    // 64 -> 65 (bit 2 clear): two descriptors per packet.
    json r = simulate_fixed("xeon-pcix-133", {"nic.model=82544", "pktgen.count=500", "packet.size=64"},
                            3000, 0);
    CHECK(r["cpus"][0]["descriptors_queued"] == 1000);
    CHECK(r["nic"]["tx_frames"] == 500);
}

TEST_CASE("the 82544 on conventional PCI needs no workaround") {
    json r = simulate_fixed("p4-865-32-33-82544", {"pktgen.count=300", "packet.size=64"}, 3000, 0);
    CHECK(r["cpus"][0]["descriptors_queued"] == 300);
}

TEST_CASE("notxints gives no write-backs and no TX interrupts, and still sends") {
    json r = simulate_fixed("phi-64-100-82546", {"driver.notxints=true", "driver.ring_size=4096"}, 4000);
    CHECK(r["nic"]["writebacks"] == 0);
    CHECK(r["nic"]["interrupts"] == 0);
    CHECK(r["cpus"][0]["interrupts"] == 0);
    CHECK(r["tx_pps"].get<double>() > 100000);
}

TEST_CASE("the stock driver writes TDT once per packet") {
    json one = simulate_fixed("phi-32-66-82541", {"pktgen.count=4000"}, 20000, 0);
    double per_packet = one["cpus"][0]["tdt_writes"].get<double>() /
                        one["cpus"][0]["packets_queued"].get<double>();
    CHECK(per_packet == Approx(1.0).margin(0.01));
}

TEST_CASE("tdt_batching 4 writes TDT about once per 4 packets") {
    json r = simulate_fixed("phi-32-66-82541", {"pktgen.count=4000", "driver.tdt_batch=4"}, 20000, 0);
    double per_packet = r["cpus"][0]["tdt_writes"].get<double>() /
                        r["cpus"][0]["packets_queued"].get<double>();
    // Every 4th packet, plus a write whenever the queue stops with packets not yet announced.
    CHECK(per_packet >= 0.25);
    CHECK(per_packet < 0.25 + 0.02);
}

TEST_CASE("the same scenario gives byte-identical JSON") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string base = std::string(bin) + " run " + scenario_path("phi-64-100-82546") +
                       " --set simulation.max_window_us=3000 --json ";
    REQUIRE(std::system((base + "same-a.json > /dev/null").c_str()) == 0);
    REQUIRE(std::system((base + "same-b.json > /dev/null").c_str()) == 0);
    std::string a = slurp("same-a.json"), b = slurp("same-b.json");
    std::remove("same-a.json");
    std::remove("same-b.json");
    CHECK(!a.empty());
    CHECK(a == b);
}

// The bus runs retry loops and uncontested arbitrations ahead without events of their own, and a
// CPU spinning on a lock waits out several turns at once (docs/architecture.md); a trace turns
// every such shortcut off.  Both ways must give the same results to the last bit, on every kind
// of platform and driver (the baseline test covers the calibration set, but not every figure of
// a run).
TEST_CASE("results are the same with and without the bus's run-ahead") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"bus-demo", ""},
        {"asus-32-33-shared", ""},  // background masters with random gaps share the bus
        {"p4-865-32-33-82544", "--set packet.size=1500"},
        {"phi-32-33-82540", ""},
        {"athlon-64-66-82546gb",
         "--set driver.notxints=true --set driver.ring_size=4096 --set driver.txdmac_prefetch=true"},
        // Delayed reads of lines pktgen has just written (snoop hits) while the CPU runs: a retry
        // loop's held-back latch must run before the CPU touches its cache again (both sizes
        // differed when it ran at the loop's real event: Cpu::set_before_running).
        {"athlon-64-66-82546gb", "--set packet.size=64"},
        {"athlon-64-66-82546gb", "--set packet.size=128"},
        {"xeon-pcix-133", "--set pktgen.ports=2"},
        // Two reads of one master, delayed; two CPUs whose register writes reach the face at the
        // same time (they go on in CPU order, whichever CPU the kernel runs first).
        {"athlon-64-66-82546gb", "--set pktgen.ports=2"},
        {"athlon-64-66-82546gb-2port-1cpu", ""},
        {"opteron-2.0-nforce", ""},
        {"opteron-v20z-pcix-133", "--set driver.txdmac_prefetch=true --set packet.size=300"},
        {"intel-server-32-66", "--set driver.tdt_from_timer=true"},
        // (notxints with the stock ring of 256 sends bursts a timer tick apart: a fixed 2 ms window
        // of them measures no sustained rate, and the run refuses it.)
        {"phi-64-100-82546", "--set driver.notxints=true --set driver.ring_size=1024"},
        {"athlon-32-33-82540em", "--set packet.size=1000"},
        {"preloaded-fifo", ""},
        // An SMP kernel whose cleanup timer runs on the other CPU: pktgen's CPU spins on the
        // TX lock the timer holds (41 % of its time at 60 bytes), its turns waited out at once
        // while the other CPU waits out its cycles (Cpu::fold_spin_turns).
        {"xeon-pcix-133", "--set kernel.smp=true --set driver.notxints=true"
                          " --set driver.ring_size=4096 --set driver.cleanup_timer_cpu=1"},
        {"opteron-1.6-pcix-133", "--set kernel.smp=true --set driver.notxints=true"
                                 " --set driver.ring_size=4096 --set driver.cleanup_timer_cpu=1"
                                 " --set packet.size=1500"},
    };
    for (const auto& [name, extra] : runs) {
        INFO(name << " " << extra);
        // 2 ms of warm-up and 2 ms measured, both fixed; the trace covers the whole run, so the
        // observer is attached from start to end.
        std::string base = std::string(bin) + " run " + scenario_path(name) + " " + extra;
        for (const auto& set : pcisim::test::fixed_window(2000, 2000)) base += " --set " + set;
        base += " --json ";
        REQUIRE(std::system((base + "ahead.json > /dev/null").c_str()) == 0);
        REQUIRE(std::system((base + "observed.json --trace observed-trace.json --window 0:3999"
                                    " > /dev/null").c_str()) == 0);
        std::string ahead = pcisim::test::results_without_provenance("ahead.json"),
                    observed = pcisim::test::results_without_provenance("observed.json");
        std::remove("ahead.json");
        std::remove("observed.json");
        std::remove("observed-trace.json");
        CHECK(ahead != "null");
        CHECK(ahead == observed);
    }
}

// validate keeps only rates (Simulation::rates_only): the run must be the same run, with only
// the per-packet distributions left out.
TEST_CASE("a run that keeps only rates measures everything else as a full run does") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    const std::vector<std::string> sets = pcisim::test::fixed_window(2000, 300);
    std::string command = std::string(bin) + " run " + scenario_path("phi-32-66-82541");
    for (const auto& set : sets) command += " --set " + set;
    REQUIRE(std::system((command + " --json full.json > /dev/null").c_str()) == 0);
    json full = json::parse(pcisim::test::results_without_provenance("full.json"));
    std::remove("full.json");

    Scenario s = Scenario::load(scenario_path("phi-32-66-82541"), sets);
    Simulation sim(s);
    sim.rates_only();
    json rates = sim.run();
    for (const char* key :
         {"packet_latency_ns_by_port", "frame_interval_ns_by_port", "packet_stages_ns_by_port"}) {
        INFO(key);
        CHECK(full[key].size() == 1);
        CHECK(rates[key].empty());
        full.erase(key);
        rates.erase(key);
    }
    rates.erase("provenance");
    CHECK(full["tx_pps"].get<double>() > 0);
    CHECK(rates.dump() == full.dump());
}

}  // namespace test_end_to_end
