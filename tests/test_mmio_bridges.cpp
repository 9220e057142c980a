// Register accesses from the CPU through the host bridge, and reads through bridges.
#include <catch2/catch.hpp>

#include "platform/bridge_face.h"
#include "bus_test_parts.h"
#include "platform/cpu.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "platform/pci_bridge.h"
#include "core/sim_time.h"
#include "run/scenario.h"

namespace test_mmio_bridges {

using namespace pcisim;
using namespace pcisim::test;

namespace {
constexpr Picos kPci33 = 30303;

struct CpuSide : MmioClient {
    std::vector<std::pair<Picos, std::uint32_t>> values;
    void mmio_read_done(std::uint64_t, std::uint32_t v) override { values.push_back({now_ps(), v}); }
};

// Memory 300 ns to the first line, no time for further lines; register accesses 100 ns each way.
HostConfig host_config() {
    HostConfig c;
    c.memory_latency_ps = 300000;
    c.line_transfer_ps = 0;
    c.mmio_down_ps = c.mmio_up_ps = 100000;
    return c;
}
BridgeConfig bridge_config(double up_ns, double down_ns) {
    BridgeConfig c;
    c.upstream_latency_ps = ns_to_ps(up_ns);
    c.downstream_latency_ps = ns_to_ps(down_ns);
    return c;
}
// CPU -> host bridge (100 ns each way) -> PCI 32/33 -> a register target at 0xf0000000.
struct MmioPath {
    HostBridge host{"host", host_config()};
    PciBus bus{"bus", bus_config(BusKind::Pci, 32, 33)};
    BridgeFace face{"face", FaceConfig{}, bus, host};
    FixedTarget nic;
    MmioPath() {
        host.bind_mmio(face, host.config().mmio_down_ps, host.config().mmio_up_ps);
        nic.answer.devsel = Devsel::Medium;
        bus.attach_target(&nic, 0xf0000000, 0x20000);
    }
};
}  // namespace

namespace {
// CPU software that reads one register and is then done.
struct OneRegisterRead : CpuSoftware {
    Cpu* cpu = nullptr;
    bool done = false;
    void start() override {}
    bool has_work() const override { return !done; }
    void run_once() override {
        done = true;
        cpu->mmio_read(0xf00000c0);
    }
    void interrupt() override {}
    void timer() override {}
};
}  // namespace

TEST_CASE("a register read that is never answered stops the run after 1 ms") {
    MmioPath path;
    path.nic.answer.kind = TargetOffer::Retry;  // the device retries the read for ever
    HostMemory memory(1 << 20);
    Cpu cpu("cpu", CpuCosts{}, path.host, memory);
    OneRegisterRead software;
    software.cpu = &cpu;
    cpu.run(&software, 0);
    CHECK_THROWS_WITH(sc_core::sc_start(ps(1'500'000'000)),
                      Catch::Contains("register read of 0xf00000c0 has not completed after 1 ms"));
    CHECK(now_ps() == 1'000'000'000);  // noticed when the millisecond is over
}

TEST_CASE("a register read stalls the CPU for the whole round trip") {
    MmioPath path;
    HostBridge& host = path.host;
    FixedTarget& nic = path.nic;
    nic.answer.initial_wait_clocks = 2;
    nic.read_value = 0xabcd;
    CpuSide cpu;
    host.mmio_read(0xf00000c0, &cpu, 1, 0, 0);
    sc_core::sc_start();
    REQUIRE(cpu.values.size() == 1);
    // Down 100 ns: at the face at 100000 ps, REQ# on the next edge, clock 4 (121212 ps);
    // not parked: FRAME# at 6; medium DEVSEL + read turnaround = clock 2, plus 2 wait states:
    // data in relative clock 4, turnaround: ends at 6 + 4 + 1 + 1 = 12 clocks; up 100 ns.
    CHECK(cpu.values[0].first == 12 * kPci33 + 100000);
    CHECK(cpu.values[0].second == 0xabcd);
}

TEST_CASE("a posted register write reaches the device after the path down and one transaction") {
    MmioPath path;
    HostBridge& host = path.host;
    FixedTarget& nic = path.nic;
    TransactionLog log;
    log.attach(path.bus);
    host.mmio_write(0xf0003818, 42, 0, 0);
    sc_core::sc_start();
    REQUIRE(nic.seen.size() == 1);
    CHECK(nic.seen[0].dword == 42);
    // FRAME# at 6 as above; write, medium DEVSEL: data in clock 2; 1 data phase; turnaround:
    // 6 + 2 + 1 + 1 = 10 clocks.
    CHECK(log.all.at(0).end == 10 * kPci33);
}

namespace {
// CPU 1 hands a TDT write over first and CPU 0 one after it, at the same kernel time, and both
// reach the face 100 ns later: the values in the order the device sees them.  `observed`: a
// transaction observer makes the face wake up for each access instead of handing it over ahead.
std::vector<std::uint32_t> simultaneous_writes_seen(bool observed) {
    MmioPath path;
    TransactionLog log;
    if (observed) log.attach(path.bus);
    path.host.mmio_write(0xf0003818, 1, 0, 1);
    path.host.mmio_write(0xf0003818, 0, 0, 0);
    sc_core::sc_start();
    std::vector<std::uint32_t> seen;
    for (const BusTransaction& t : path.nic.seen) seen.push_back(t.dword);
    return seen;
}
}  // namespace

// The kernel runs two CPUs that wake at the same instant in an order its event queue's history
// decides, so the order they hand their accesses over in says nothing: accesses that arrive
// together go on in CPU order, both ways the face can carry them.
TEST_CASE("register writes of two CPUs arriving together go on in CPU order") {
    CHECK(simultaneous_writes_seen(false) == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("register writes of two CPUs arriving together go on in CPU order, also observed") {
    CHECK(simultaneous_writes_seen(true) == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("read latency adds up through one and two bridges") {
    HostBridge host("host", host_config());
    PciBridge b1("b1", bridge_config(100, 50), host);
    PciBridge b2a("b2a", bridge_config(100, 50), host);
    PciBridge b2b("b2b", bridge_config(40, 60), b2a);
    CHECK(host.read_time(0x1000, 64) == 300000);
    CHECK(b1.read_time(0x1000, 64) == 300000 + 150000);
    CHECK(b2b.read_time(0x1000, 64) == 300000 + 150000 + 100000);
}

TEST_CASE("the host bridge reads whole cache lines") {
    HostConfig c;
    c.memory_latency_ps = 100000;
    c.line_transfer_ps = 20000;
    HostBridge host("host", c);
    CHECK(host.read_time(0x1002, 60) == 100000);        // bytes 2..61: one line
    CHECK(host.read_time(0x1002, 64) == 120000);        // bytes 2..65: two lines
    CHECK(host.read_time(0x1000, 512) == 100000 + 7 * 20000);
}

TEST_CASE("a delayed read through a bridge waits for the sum of the latencies") {
    HostBridge host("host", host_config());
    PciBridge bridge("p2p", bridge_config(100, 50), host);
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FaceConfig fc;
    fc.prefetch_bytes = 64;
    BridgeFace face("face", fc, bus, bridge);
    host.bind_mmio(face, 0, 0);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster m("m", bus);
    bus.read(m.id, 0x1000, 64, 1);
    sc_core::sc_start();
    REQUIRE(m.done.size() == 1);
    // First attempt retried, ends at clock 6; data at 6 clocks + 450 ns = 631818 ps.  The
    // master polls every 6 clocks (4-clock retry + 2 back-off, parked): attempts at 8, 14, 20,
    // 26 (788 ns > 632 ns): the one at clock 26 gets the data.
    const BusTransaction& data = log.all.back();
    CHECK(data.termination == Termination::Completed);
    CHECK(data.start == 26 * kPci33);
    CHECK(log.all[log.all.size() - 2].start == 20 * kPci33);
}

TEST_CASE("a host bridge whose register accesses have nowhere to go stops at elaboration") {
    HostBridge host("host", host_config());
    CHECK_THROWS_WITH(sc_core::sc_start(sc_core::SC_ZERO_TIME),
                      Catch::Contains("host: register accesses have nowhere to go"));
}

TEST_CASE("the host bridge's and the CPU's struct defaults are their parameter tables'") {
    // Tests build modules from these structs: their defaults must be what a scenario without
    // the keys gets, or a test would run another machine than it says.
    Scenario empty = Scenario::from_json(nlohmann::json::object(), "test");
    HostConfig host, host_table = HostConfig::from(empty);
    CHECK(host.memory_bytes == host_table.memory_bytes);
    CHECK(host.cache_line_bytes == host_table.cache_line_bytes);
    CHECK(host.memory_latency_ps == host_table.memory_latency_ps);
    CHECK(host.line_transfer_ps == host_table.line_transfer_ps);
    CHECK(host.mmio_down_ps == host_table.mmio_down_ps);
    CHECK(host.mmio_up_ps == host_table.mmio_up_ps);
    CpuCosts cpu, cpu_table = CpuCosts::from(empty);
    CHECK(cpu.clock_mhz == cpu_table.clock_mhz);
    CHECK(cpu.pktgen_loop_cycles == cpu_table.pktgen_loop_cycles);
    CHECK(cpu.skb_alloc_cycles == cpu_table.skb_alloc_cycles);
    CHECK(cpu.skb_fill_cycles_per_byte == cpu_table.skb_fill_cycles_per_byte);
    CHECK(cpu.xmit_frame_cycles == cpu_table.xmit_frame_cycles);
    CHECK(cpu.per_descriptor_cycles == cpu_table.per_descriptor_cycles);
    CHECK(cpu.clean_per_packet_cycles == cpu_table.clean_per_packet_cycles);
    CHECK(cpu.skb_free_cycles == cpu_table.skb_free_cycles);
    CHECK(cpu.poll_cycles == cpu_table.poll_cycles);
    CHECK(cpu.interrupt_entry_exit_cycles == cpu_table.interrupt_entry_exit_cycles);
    CHECK(cpu.timer_tick_cycles == cpu_table.timer_tick_cycles);
    CHECK(cpu.mmio_write_ps == cpu_table.mmio_write_ps);
    CHECK(cpu.interrupt_latency_ps == cpu_table.interrupt_latency_ps);
}

}  // namespace test_mmio_bridges
