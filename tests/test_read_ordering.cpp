// DMA reads behind posted writes (PCI 3.0 Appendix E: a read request must not pass a posted
// memory write going the same way), and the host bridge's seeded read-latency spread.
#include <catch2/catch.hpp>

#include <set>

#include "bus_test_parts.h"
#include "core/sim_time.h"
#include "platform/bridge_face.h"
#include "platform/host_bridge.h"
#include "platform/pci_bridge.h"
#include "test_support.h"

namespace test_read_ordering {

using namespace pcisim;
using namespace pcisim::test;

namespace {
constexpr Picos kPci33 = 30303;

HostConfig committing_host(double commit_ns, double jitter_ns = 0, std::uint64_t seed = 1) {
    HostConfig c;
    c.memory_latency_ps = 300000;
    c.line_transfer_ps = 0;
    c.write_commit_ps = ns_to_ps(commit_ns);
    c.read_jitter_ps = ns_to_ps(jitter_ns);
    c.seed = seed;
    return c;
}

// tx_pps of a scenario run with fixed window and overrides.
double tx_pps(const std::string& scenario, const std::string& sets) {
    std::string args = "run " + scenario_path(scenario) + " " + sets;
    for (const auto& o : fixed_window(2000, 500)) args += " --set " + o;
    return pcisim_json(args)["tx_pps"].get<double>();
}
}  // namespace

TEST_CASE("a DMA read waits until the posted writes ahead of it are committed") {
    HostBridge host("host", committing_host(200));
    CHECK(host.read_start(1000000) == 1000000);  // nothing posted yet
    host.posted_write(0x2000, 16, 1000000);      // a descriptor write-back: one partial line
    CHECK(host.read_start(1000000) == 1200000);
    CHECK(host.read_start(1300000) == 1300000);  // committed by then
    host.posted_write(0x2000, 16, 1300000);
    host.posted_write(0x3000, 128, 1300000);  // two more lines, queued behind the first
    CHECK(host.read_start(1300000) == 1300000 + 3 * 200000);
}

TEST_CASE("writes and reads keep their order through a bridge, in its own time") {
    HostBridge host("host", committing_host(200));
    BridgeConfig bc;
    bc.upstream_latency_ps = ns_to_ps(100);
    bc.downstream_latency_ps = ns_to_ps(50);
    PciBridge bridge("p2p", bc, host);
    bridge.posted_write(0x2000, 16, 0);  // at the host at 100 ns, committed at 300 ns
    CHECK(host.read_start(0) == 300000);
    // A read asked for at the bridge at 50 ns reaches the host at 150 ns and starts at 300 ns,
    // which is 200 ns in the bridge's time (its read_time counts the way up).
    CHECK(bridge.read_start(50000) == 200000);
    CHECK(bridge.read_start(400000) == 400000);
}

TEST_CASE("a delayed read latched behind a posted write gets its data that much later") {
    HostBridge host("host", committing_host(200));
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FaceConfig fc;
    fc.prefetch_bytes = 64;
    BridgeFace face("face", fc, bus, host);
    host.bind_mmio(face, 0, 0);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster m("m", bus);
    bus.write(m.id, 0x8000, 16, 7, 0);  // posted, then the read right behind it
    bus.read(m.id, 0x1000, 64, 1);
    sc_core::sc_start();
    REQUIRE(m.done.size() == 2);  // the write, then the read
    const BusTransaction& write = log.all.front();
    REQUIRE(write.command == BusCommand::MemWrite);
    const BusTransaction& data = log.all.back();
    REQUIRE(data.termination == Termination::Completed);
    // The read's first attempt ends after the write has crossed; memory starts on it only when
    // the write is committed, 200 ns after the write's end, and takes 300 ns.
    Picos ready = write.end + 200000 + 300000;
    CHECK(data.start >= ready);
    CHECK(data.start < ready + 6 * kPci33);  // found by the next poll (6-clock period)
}

TEST_CASE("read latency spread: the same draws for the same seed, each below the spread") {
    HostBridge a("a", committing_host(0, 120, 7)), b("b", committing_host(0, 120, 7)),
        c("c", committing_host(0, 120, 8)), none("none", committing_host(0, 0, 7));
    std::set<Picos> distinct;
    double sum = 0;
    bool seeds_differ = false;
    for (std::uint64_t n = 0; n < 2000; ++n) {
        Picos j = a.read_jitter(n);
        CHECK(j == b.read_jitter(n));
        CHECK(j < 120000);
        CHECK(none.read_jitter(n) == 0);
        seeds_differ = seeds_differ || j != c.read_jitter(n);
        distinct.insert(j);
        sum += static_cast<double>(j);
    }
    CHECK(seeds_differ);
    CHECK(distinct.size() > 1500);
    CHECK(sum / 2000 == Approx(60000).epsilon(0.05));  // uniform: mean half the spread
}

TEST_CASE("the write-back's commit slows the stock driver, not the driver without write-backs") {
    // phi 64/100: stock writes back every packet's descriptor, and the next data read waits
    // behind it; notxints writes nothing back.
    std::string nx = "--set driver.notxints=true --set driver.ring_size=4096";
    double stock_0 = tx_pps("phi-64-100-82546", "--set host.write_commit_ns=0");
    double stock_400 = tx_pps("phi-64-100-82546", "--set host.write_commit_ns=400");
    double nx_0 = tx_pps("phi-64-100-82546", nx + " --set host.write_commit_ns=0");
    double nx_400 = tx_pps("phi-64-100-82546", nx + " --set host.write_commit_ns=400");
    CHECK(stock_400 < stock_0 * 0.9);
    CHECK(nx_400 == nx_0);
}

TEST_CASE("a read latency spread smooths the retry quantization on a 33 MHz bus") {
    // Without a spread, the rate moves in whole retry slots (6 clocks = 180 ns at 33 MHz): a
    // 20 ns longer latency often changes nothing.  With a spread wider than a slot, every 20 ns
    // costs some rate.
    auto rate = [](double memory_ns, double jitter_ns) {
        return tx_pps("phi-32-33-82540", "--set host.write_commit_ns=0 --set "
                                         "host.memory_latency_ns=" + std::to_string(memory_ns) +
                                             " --set host.read_jitter_ns=" +
                                             std::to_string(jitter_ns));
    };
    int plain_flat = 0, spread_flat = 0;
    double plain_before = rate(100, 0), spread_before = rate(100, 240);
    for (double m = 120; m <= 280; m += 20) {
        double plain = rate(m, 0), spread = rate(m, 240);
        if (plain > plain_before * 0.998) ++plain_flat;
        if (spread > spread_before * 0.998) ++spread_flat;
        plain_before = plain;
        spread_before = spread;
    }
    CHECK(plain_flat >= 3);
    CHECK(spread_flat == 0);
}

}  // namespace test_read_ordering
