// Bus timing in exact clocks.  Conventions (docs/architecture.md): clock 0 of a transaction is
// its address phase; PCI data may start in clock max(DEVSEL, 2 for reads / 1 for writes) plus
// wait states; PCI-X in clock 1 (attribute) + DEVSEL + 1; one turnaround clock after the last
// data phase.  An idle bus not parked on a master costs it 2 clocks from REQ# to FRAME#.
#include <catch2/catch.hpp>

#include "platform/bridge_face.h"
#include "bus_test_parts.h"

namespace test_pci_bus {

using namespace pcisim;
using namespace pcisim::test;

namespace {
constexpr Picos kPci33 = 30303;   // 1e6 / 33 MHz, rounded to ps
constexpr Picos kPci66 = 15152;
constexpr Picos kPcix133 = 7519;
}  // namespace

TEST_CASE("a single write burst on PCI 32/33 takes address + data + turnaround clocks") {
    BusWithTarget segment(BusKind::Pci, 32, 33);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    bus.write(m.id, 0x1000, 64, 7);
    sc_core::sc_start();
    REQUIRE(m.done.size() == 1);
    // REQ# at clock 0, not parked: FRAME# at clock 2.  Write, fast DEVSEL: data from clock 1,
    // 64 B / 4 B = 16 data phases, then 1 turnaround: 2 + 1 + 16 + 1 = 20 clocks.
    CHECK(m.done[0].when == 20 * kPci33);
    CHECK(m.done[0].stats.arbitration == 2 * kPci33);
    CHECK(m.done[0].stats.data == 16 * kPci33);
    CHECK(bus.counters().transactions == 1);
}

TEST_CASE("a read burst on PCI 64/66 pays the AD turnaround before data") {
    BusWithTarget segment(BusKind::Pci, 64, 66);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    bus.read(m.id, 0x1000, 512, 1);
    sc_core::sc_start();
    REQUIRE(m.done.size() == 1);
    // FRAME# at 2; read: first data in clock 2 (turnaround) even with fast DEVSEL;
    // 512 / 8 = 64 data phases; turnaround: 2 + 2 + 64 + 1 = 69 clocks.
    CHECK(m.done[0].when == 69 * kPci66);
}

TEST_CASE("an unaligned read counts the data phases its bytes touch") {
    BusWithTarget segment(BusKind::Pci, 32, 33, Devsel::Medium);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    bus.read(m.id, 0x1002, 60, 1);  // bytes 2..61 of the dwords at 0x1000: 16 data phases
    sc_core::sc_start();
    // 2 (arbitration) + 2 (medium DEVSEL) + 16 + 1 = 21 clocks.
    CHECK(m.done.at(0).when == 21 * kPci33);
}

TEST_CASE("a read burst on PCI-X 64/133 has the attribute phase and the extra decode clock") {
    // The target answers at once with data (immediate response), decode A.
    BusWithTarget segment(BusKind::PciX, 64, 133);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    bus.read(m.id, 0x1000, 512, 1);
    sc_core::sc_start();
    // FRAME# at 2; address 0, attribute 1, DEVSEL# (A) 2, target response 3: data from
    // clock 3; 64 data phases; turnaround: 2 + 3 + 64 + 1 = 70 clocks.
    CHECK(m.done.at(0).when == 70 * kPcix133);
}

TEST_CASE("two masters share the bus by hidden arbitration without idle clocks") {
    BusWithTarget segment(BusKind::Pci, 32, 33);
    PciBus& bus = segment.bus;
    TransactionLog log;
    log.attach(bus);
    RecordingMaster a("a", bus), b("b", bus);
    bus.write(a.id, 0x1000, 64, 1);
    bus.write(b.id, 0x2000, 64, 1);
    sc_core::sc_start();
    REQUIRE(log.all.size() == 2);
    // a (first in round-robin): clocks 2..20; b was granted during a's transaction, so its
    // FRAME# follows a's turnaround clock directly: 20 + 1 + 16 + 1 = 38.
    CHECK(log.all[0].master == a.id);
    CHECK(log.all[0].end == 20 * kPci33);
    CHECK(log.all[1].master == b.id);
    CHECK(log.all[1].start == 20 * kPci33);
    CHECK(log.all[1].end == 38 * kPci33);
}

TEST_CASE("two masters always requesting get a fair share") {
    BusWithTarget segment(BusKind::Pci, 32, 33);
    PciBus& bus = segment.bus;
    RecordingMaster a("a", bus), b("b", bus);
    for (int i = 0; i < 50; ++i) {
        bus.write(a.id, 0x1000, 64, i);
        bus.write(b.id, 0x2000, 64, i);
    }
    sc_core::sc_start(ps(1000 * kPci33));
    // Each transaction is 18 clocks and they alternate: 1000 clocks hold 55 of them.
    std::size_t na = a.done.size(), nb = b.done.size();
    CHECK(na + nb == 55);
    CHECK((na > nb ? na - nb : nb - na) <= 1);
    CHECK(bus.counters().busy == 55 * 18 * kPci33);
}

TEST_CASE("the latency timer splits a 512-byte read on a 32-bit bus when another master asks") {
    BusConfig c = bus_config(BusKind::Pci, 32, 33);
    c.latency_timer_clocks = 64;
    PciBus bus("bus", c);
    FixedTarget target;
    target.answer.devsel = Devsel::Medium;
    bus.attach_target(&target, 0, 1 << 20);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster a("a", bus), b("b", bus);
    bus.read(a.id, 0x1000, 512, 1);
    At later("later", 10 * kPci33, [&] { bus.write(b.id, 0x2000, 4, 1); });
    sc_core::sc_start();
    REQUIRE(log.all.size() >= 3);
    // a: FRAME# at clock 2, data from relative clock 2.  b asks at absolute clock 10, GNT#
    // leaves a at 11.  a's timer expires 64 clocks after FRAME# (relative 64): the last data
    // phase is relative clock 64, so 63 data phases = 252 bytes; a frees the bus at
    // 2 + 64 + 1 + 1 = 68.
    CHECK(log.all[0].master == a.id);
    CHECK(log.all[0].termination == Termination::LatencyTimer);
    CHECK(log.all[0].bytes_done == 252);
    CHECK(log.all[0].end == 68 * kPci33);
    // b goes next without arbitration clocks (granted during a), then a finishes its 260 bytes.
    CHECK(log.all[1].master == b.id);
    CHECK(log.all[1].start == 68 * kPci33);
    CHECK(log.all[2].master == a.id);
    CHECK(log.all[2].bytes_done == 260);
    REQUIRE(a.done.size() == 1);
    CHECK(a.done[0].stats.preemptions == 1);
}

TEST_CASE("with nobody else asking the latency timer does not cut a burst") {
    BusConfig c = bus_config(BusKind::Pci, 32, 33);
    c.latency_timer_clocks = 16;
    PciBus bus("bus", c);
    FixedTarget target;
    bus.attach_target(&target, 0, 1 << 20);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster a("a", bus);
    bus.read(a.id, 0x1000, 512, 1);
    sc_core::sc_start();
    REQUIRE(log.all.size() == 1);
    CHECK(log.all[0].bytes_done == 512);
}

TEST_CASE("a delayed read is retried until fetched, then disconnects at the prefetch size") {
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FixedLatencyMemory memory(10 * kPci33);
    FaceConfig fc;
    fc.delayed_reads = true;
    fc.prefetch_bytes = 256;
    fc.devsel = Devsel::Medium;
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster m("m", bus);
    bus.read(m.id, 0x1000, 512, 1);
    sc_core::sc_start();
    REQUIRE(log.all.size() >= 4);
    // 1st attempt: FRAME# at 2, STOP# in clock 2 (medium DEVSEL), turnaround: ends at 6.  The
    // bridge latches the request there: data ready at 6 + 10 = 16.
    CHECK(log.all[0].termination == Termination::Retry);
    CHECK(log.all[0].start == 2 * kPci33);
    CHECK(log.all[0].end == 6 * kPci33);
    // Back-off 2 clocks; the bus is parked on the master: retries at 8 (ends 12), 14 (ends 18).
    CHECK(log.all[1].termination == Termination::Retry);
    CHECK(log.all[1].start == 8 * kPci33);
    CHECK(log.all[2].termination == Termination::Retry);
    CHECK(log.all[2].start == 14 * kPci33);
    // At 20 the data is there: 256 bytes (64 data phases), disconnect at the buffer end:
    // 20 + 2 + 64 + 1 = 87.
    CHECK(log.all[3].termination == Termination::Disconnect);
    CHECK(log.all[3].start == 20 * kPci33);
    CHECK(log.all[3].bytes_done == 256);
    CHECK(log.all[3].end == 87 * kPci33);
    // The rest is a new delayed read: retried first.
    CHECK(log.all[4].termination == Termination::Retry);
    CHECK(log.all[4].addr == 0x1100);
    REQUIRE(m.done.size() == 1);
    CHECK(m.done[0].stats.retries >= 4);
}

TEST_CASE("a PCI-X read is split and returned in MMRBC-sized sequences") {
    PciBus bus("bus", bus_config(BusKind::PciX, 64, 133));
    FixedLatencyMemory memory(10 * kPcix133);
    FaceConfig fc;
    fc.devsel = Devsel::Medium;  // decode B
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    log.attach(bus);
    MasterConfig mc;
    mc.mmrbc_bytes = 512;
    RecordingMaster nic("nic", bus, mc);
    bus.read(nic.id, 0x1000, 1024, 1);
    sc_core::sc_start();
    REQUIRE(log.all.size() == 4);
    // Split request: FRAME# at 2, split response in relative clock 1 + 2 + 1 = 4, turnaround:
    // ends at 2 + 4 + 1 + 1 = 8.  Data there at 8 + 10 = 18.
    CHECK(log.all[0].termination == Termination::SplitResponse);
    CHECK(log.all[0].bytes == 512);
    CHECK(log.all[0].end == 8 * kPcix133);
    // Split completion by the bridge (not parked: +2): 20, requester claims with decode A:
    // data from 3, 64 phases, turnaround: 20 + 3 + 64 + 1 = 88.
    CHECK(log.all[1].command == BusCommand::SplitCompletion);
    CHECK(log.all[1].start == 20 * kPcix133);
    CHECK(log.all[1].end == 88 * kPcix133);
    // Only one split outstanding: the second 512 bytes are requested after that.
    CHECK(log.all[2].termination == Termination::SplitResponse);
    CHECK(log.all[2].addr == 0x1200);
    CHECK(log.all[2].start == 90 * kPcix133);
    REQUIRE(nic.done.size() == 1);
    // 90 + 6 = 96 end of request; data at 106; completion 108 .. 176.
    CHECK(nic.done[0].when == 176 * kPcix133);
}

namespace {
// A 512-byte delayed read retried for 40 clocks of memory latency while a second master writes
// in the middle of the retry loop and reads at a clock edge.  Without an observer the bus runs
// the retry loop ahead (pci_bus.h); with one it simulates every attempt.  Both must agree.
struct LoopOutcome {
    std::vector<Picos> done_at;
    std::vector<unsigned> retries;
    std::uint64_t bus_retries, bus_transactions, run_ahead;
    Picos bus_busy;
};

LoopOutcome run_retry_loop(bool observe) {
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FixedLatencyMemory memory(40 * kPci33);
    FaceConfig fc;
    fc.prefetch_bytes = 256;
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    if (observe) log.attach(bus);
    RecordingMaster m1("m1", bus), m2("m2", bus);
    bus.read(m1.id, 0x1000, 512, 1);
    At write("write", 17 * kPci33 + kPci33 / 2, [&] { bus.write(m2.id, 0x9000, 64, 2); });
    At read("read", 60 * kPci33, [&] { bus.read(m2.id, 0x8000, 64, 3); });
    sc_core::sc_start();
    LoopOutcome o;
    for (auto* m : {&m1, &m2})
        for (const auto& d : m->done) o.done_at.push_back(d.when), o.retries.push_back(d.stats.retries);
    o.bus_retries = bus.counters().retries;
    o.bus_transactions = bus.counters().transactions;
    o.bus_busy = bus.counters().busy;
    o.run_ahead = bus.counters().retries_run_ahead;
    return o;
}

void check_retry_loop(const LoopOutcome& o) {
    // As simulated attempt by attempt (the observed run): m1's read done at clock 305 after 19
    // retries, m2's write at 39 and its read at 184 after 6 retries.
    CHECK(o.done_at == std::vector<Picos>{305 * kPci33, 39 * kPci33, 184 * kPci33});
    CHECK(o.retries == std::vector<unsigned>{19, 0, 6});
    CHECK(o.bus_retries == 25);
    CHECK(o.bus_transactions == 30);
    CHECK(o.bus_busy == 275 * kPci33);
}
}  // namespace

TEST_CASE("retries simulated one by one: the reference for the run-ahead") {
    LoopOutcome o = run_retry_loop(true);
    check_retry_loop(o);
    CHECK(o.run_ahead == 0);
}

TEST_CASE("a retry loop run ahead ends exactly as when every attempt is simulated") {
    LoopOutcome o = run_retry_loop(false);
    check_retry_loop(o);
    CHECK(o.run_ahead > 0);  // the run-ahead was taken (interrupted twice)
}

TEST_CASE("a target that breaks its promise after a retry loop stops the run") {
    // It promises data from clock 40 (TargetOffer::Promise::then_known) but keeps answering Retry:
    // the bus, which planned the attempt after the loop from the promise, must notice.
    BusWithTarget segment(BusKind::Pci, 32, 33);
    segment.target.answer.kind = TargetOffer::Retry;
    segment.target.answer.promise.retry_until = 40 * kPci33;
    segment.target.answer.promise.then_known = true;
    segment.target.answer.max_bytes = 64;
    RecordingMaster m("m", segment.bus);
    segment.bus.read(m.id, 0x1000, 64, 1);
    CHECK_THROWS_WITH(sc_core::sc_start(ps(1'000'000'000)),
                      Catch::Contains("a different answer after a retry loop than the target "
                                      "promised"));
}

namespace {
// The first transaction in `log` of `master` ending this way, or null.
const BusTransaction* first_of(const TransactionLog& log, int master, Termination how) {
    for (const auto& t : log.all)
        if (t.master == master && t.termination == how) return &t;
    return nullptr;
}
}  // namespace

TEST_CASE("a bridge holding its limit of delayed reads retries a third until one is completed") {
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FixedLatencyMemory memory(40 * kPci33);
    FaceConfig fc;
    fc.prefetch_bytes = 64;
    fc.delayed_request_limit = 2;
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster m1("m1", bus), m2("m2", bus), m3("m3", bus);
    for (auto* m : {&m1, &m2, &m3}) bus.read(m->id, 0x1000 + 0x100 * m->id, 64, 1);
    sc_core::sc_start();
    for (auto* m : {&m1, &m2, &m3}) REQUIRE(m->done.size() == 1);
    // The first two are latched at their first attempt; the third's attempts before a read is
    // completed (its data transaction ends) are retried without being latched, so its data
    // comes no earlier than memory latency after the first attempt after that.
    const BusTransaction* d1 = first_of(log, m1.id, Termination::Completed);
    const BusTransaction* d2 = first_of(log, m2.id, Termination::Completed);
    const BusTransaction* d3 = first_of(log, m3.id, Termination::Completed);
    REQUIRE((d1 && d2 && d3));
    Picos slot_free = std::min(d1->end, d2->end);
    Picos latched = 0;
    for (const auto& t : log.all)
        if (t.master == m3.id && t.start >= slot_free) {
            latched = t.end;
            break;
        }
    REQUIRE(latched > 0);
    CHECK(d3->start >= latched + 40 * kPci33);
    CHECK(m3.done[0].stats.retries > m1.done[0].stats.retries);
}

TEST_CASE("a PCI-X bridge at its split transaction limit retries a further split request") {
    PciBus bus("bus", bus_config(BusKind::PciX, 64, 133));
    FixedLatencyMemory memory(40 * kPcix133);
    FaceConfig fc;
    fc.split_transaction_limit = 2;
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    log.attach(bus);
    RecordingMaster m1("m1", bus), m2("m2", bus), m3("m3", bus);
    for (auto* m : {&m1, &m2, &m3}) bus.read(m->id, 0x1000 + 0x200 * m->id, 256, 1);
    sc_core::sc_start();
    for (auto* m : {&m1, &m2, &m3}) REQUIRE(m->done.size() == 1);
    // Two split requests taken at once; the third retried until a completion has crossed the
    // bus, then taken.
    const BusTransaction* s1 = first_of(log, m1.id, Termination::SplitResponse);
    const BusTransaction* s2 = first_of(log, m2.id, Termination::SplitResponse);
    const BusTransaction* s3 = first_of(log, m3.id, Termination::SplitResponse);
    REQUIRE((s1 && s2 && s3));
    CHECK(first_of(log, m1.id, Termination::Retry) == nullptr);
    CHECK(first_of(log, m2.id, Termination::Retry) == nullptr);
    const BusTransaction* retried = first_of(log, m3.id, Termination::Retry);
    REQUIRE(retried);
    CHECK(retried->start < s3->start);
    Picos first_completion_end = 0;
    for (const auto& t : log.all)
        if (t.command == BusCommand::SplitCompletion) {
            first_completion_end = t.end;
            break;
        }
    REQUIRE(first_completion_end > 0);
    CHECK(s3->start >= first_completion_end);
    CHECK(m3.done[0].stats.retries > 0);
}

namespace {
// One master with two 64-byte reads outstanding (the 82546's two LAN functions behind one bus
// interface), memory 40 clocks away, through a delayed-read bridge on PCI 32/33.
struct TwoReadsOutcome {
    std::vector<Picos> done_at;
    std::uint64_t retries;
};
TwoReadsOutcome run_two_reads_of_one_master(bool observe) {
    PciBus bus("bus", bus_config(BusKind::Pci, 32, 33));
    FixedLatencyMemory memory(40 * kPci33);
    FaceConfig fc;
    fc.prefetch_bytes = 64;
    BridgeFace face("face", fc, bus, memory);
    TransactionLog log;
    if (observe) log.attach(bus);
    RecordingMaster nic("nic", bus);
    bus.read(nic.id, 0x1000, 64, 1);
    At second("second", 3 * kPci33, [&] { bus.read(nic.id, 0x2000, 64, 2); });
    sc_core::sc_start();
    TwoReadsOutcome o;
    for (const auto& d : nic.done) o.done_at.push_back(d.when);
    o.retries = bus.counters().retries;
    return o;
}
void check_two_reads(const TwoReadsOutcome& o) {
    REQUIRE(o.done_at.size() == 2);
    // Each read is a delayed request of its own: the first latched at 6 (data from 46), the
    // second, tried in the first's back-off, at 12 (data from 52); the master alternates their
    // retries (8 in all) until the first streams at 50 (16 data phases, done at 69) and the
    // second right after it (69 .. 88).  Were the second to wait behind the first, it would be
    // latched only at 69 and done some 40 clocks of memory latency later.
    CHECK(o.done_at == std::vector<Picos>{69 * kPci33, 88 * kPci33});
    CHECK(o.retries == 8);
}
}  // namespace

TEST_CASE("a master's two reads are two delayed requests that it repeats in turn") {
    check_two_reads(run_two_reads_of_one_master(true));
}

TEST_CASE("a master's two reads give the same times with the run-ahead on") {
    check_two_reads(run_two_reads_of_one_master(false));
}

}  // namespace test_pci_bus
