// E1000 transmit model against a fake bus: conservation and order, wire rate, descriptor
// fetching, write-backs, interrupts, FIFO room.  Registers are driven through the BusTarget
// interface (complete() with MemWrite/MemRead), as the bus would.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "e1000/e1000.h"
#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_regs.h"
#include "platform/host_memory.h"
#include "platform/pci_bus.h"
#include "run/scenario.h"
#include "core/sim_time.h"
#include "fake_nic_bus.h"
#include "nic_stats.h"

namespace test_e1000 {

using namespace pcisim;
using namespace pcisim::e1000;
using pcisim::test::FakeBus;
using pcisim::test::LineRecorder;

namespace {

constexpr std::uint64_t kBar = 0xF0000000;
constexpr std::uint64_t kRing = 0x10000;
constexpr std::uint64_t kBuffers = 0x100000;

// The defaults (those of the nic.* table) with `packets` frames of `bytes` in the FIFO.
E1000Params preloaded(unsigned packets, unsigned bytes) {
    E1000Params p;
    p.preload_packets = packets;
    p.preload_bytes = bytes;
    return p;
}

// What the driver does: a ring in host memory, packets with a sequence number at byte 14.
struct Ring {
    HostMemory& mem;
    FakeBus& bus;
    unsigned slots;
    unsigned tail = 0;
    unsigned seq = 0;

    void setup(unsigned port_offset = 0) {
        bus.mmio_write(port_offset + kTdbal, static_cast<std::uint32_t>(kRing + port_offset));
        bus.mmio_write(port_offset + kTdbah, 0);
        bus.mmio_write(port_offset + kTdlen, slots * kDescriptorBytes);
        bus.mmio_write(port_offset + kTdh, 0);
        bus.mmio_write(port_offset + kTdt, 0);
        bus.mmio_write(port_offset + kTipg, 8);
        bus.mmio_write(port_offset + kTctl, kTctlEn);
    }
    // One packet of `len` bytes in `pieces` descriptors; `cmd` on the last one.
    void queue(unsigned len, std::uint8_t cmd, unsigned pieces = 1, std::uint64_t ring_base = kRing) {
        std::uint64_t buf = kBuffers + std::uint64_t(seq % 512) * 4096 + (ring_base - kRing) * 16;
        std::vector<std::uint8_t> frame(len, 0xA5);
        std::memcpy(frame.data() + 14, &seq, 4);
        mem.write(buf, frame.data(), len);
        unsigned done = 0;
        for (unsigned i = 0; i < pieces; ++i) {
            unsigned piece = i + 1 == pieces ? len - done : len / pieces;
            TxDescriptor d{buf + done, static_cast<std::uint16_t>(piece), 0,
                           static_cast<std::uint8_t>(i + 1 == pieces ? (cmd | kCmdEop | kCmdIfcs) : 0),
                           0, 0, 0};
            mem.write(ring_base + tail * kDescriptorBytes, &d, sizeof d);
            tail = (tail + 1) % slots;
            done += piece;
        }
        ++seq;
    }
};

std::uint32_t sequence_of(const std::uint8_t* frame) {
    std::uint32_t s;
    std::memcpy(&s, frame + 14, 4);
    return s;
}

// A NIC on the fake bus with its interrupt line recorded and one TX ring: what most tests
// start from.  Observers go on before start(), which ends elaboration and sets up the ring.
struct NicOnFakeBus {
    HostMemory mem{16 << 20};
    FakeBus bus{"bus"};
    LineRecorder line;
    E1000 nic;
    Ring ring;
    NicOnFakeBus(const E1000Params& params, unsigned slots)
        : nic("nic", params, bus, mem, kBar, {&line}),
          ring{mem, bus, slots} {}
    void start() {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        ring.setup();
    }
};

}  // namespace

TEST_CASE("e1000: the typed config's defaults are the nic.* table's, and from() reads each key", "[e1000]") {
    const E1000Params defaults;
    const E1000Params table = E1000Params::from(Scenario::from_json(nlohmann::json::object(), "test"));
    CHECK(defaults.model == table.model);
    CHECK(defaults.traits.bus_width_bits == table.traits.bus_width_bits);
    CHECK(defaults.traits.ports == table.traits.ports);
    CHECK(defaults.mmrbc_bytes == table.mmrbc_bytes);
    CHECK(defaults.descriptor_cache_entries == table.descriptor_cache_entries);
    CHECK(defaults.cache_line_bytes == table.cache_line_bytes);
    CHECK(defaults.packet_processing_ps == table.packet_processing_ps);
    CHECK(defaults.devsel == table.devsel);
    CHECK(defaults.mmio_read_wait_clocks == table.mmio_read_wait_clocks);
    CHECK(defaults.mmio_write_wait_clocks == table.mmio_write_wait_clocks);
    CHECK(defaults.pba_rx_kb == table.pba_rx_kb);
    CHECK(defaults.preload_packets == table.preload_packets);
    CHECK(defaults.preload_bytes == table.preload_bytes);
    CHECK(defaults.ipg_extra_bytes == table.ipg_extra_bytes);
    CHECK(defaults.byte_time_ps == table.byte_time_ps);
    CHECK(defaults.drop_writebacks == table.drop_writebacks);

    // Units arrive converted: ns to ps, Mb/s to a byte time.
    const E1000Params set = E1000Params::from(Scenario::from_json(
        {{"nic", {{"model", "82546"}, {"packet_processing_ns", 250}, {"link_mbps", 100}, {"devsel", "slow"}}}},
        "test"));
    CHECK(set.traits.ports == 2);
    CHECK(set.packet_processing_ps == 250 * kPicosPerNs);
    CHECK(set.byte_time_ps == 80 * kPicosPerNs);
    CHECK(set.devsel == Devsel::Slow);
}

TEST_CASE("e1000: a ring of packets is sent once each and in order with one read outstanding", "[e1000]") {
    NicOnFakeBus t(E1000Params::for_model("82540"), 64);
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    REQUIRE(bus.master_config.width_bits == 32);
    REQUIRE(nic.ports() == 1);
    std::vector<std::uint32_t> seen;
    nic.set_frame_observer([&](unsigned port, const std::uint8_t* f, unsigned len, Picos) {
        REQUIRE(port == 0);
        seen.push_back(sequence_of(f));
    });
    t.start();
    const unsigned packets = 100;  // wraps the 64-slot ring
    unsigned queued = 0;
    while (queued < packets) {
        // Driver: queue what fits (ring never full), bump TDT, let the NIC work.
        auto free_slots = [&] { return (bus.mmio_read(kTdh) + 64 - ring.tail - 1) % 64; };
        while (queued < packets && free_slots() >= 2) {
            ring.queue(60 + (queued * 37) % 1400, kCmdRs, queued % 3 == 0 ? 2 : 1);
            ++queued;
        }
        bus.mmio_write(kTdt, ring.tail);
        sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
    }
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    REQUIRE(seen.size() == packets);
    for (unsigned i = 0; i < packets; ++i) REQUIRE(seen[i] == i);
    CHECK(nic.frames_sent(0) == packets);
    CHECK(bus.max_outstanding_reads == 1);
    CHECK(bus.mmio_read(kTdh) == ring.tail);
    auto st = nic_stats(nic);
    CHECK(st["tx_frames"] == packets);
    CHECK(st["descriptors_fetched"] == packets + (packets + 2) / 3);
    CHECK(st["data_reads"] == packets + (packets + 2) / 3);
}

TEST_CASE("e1000: descriptor fetches never pass TDT or the ring end", "[e1000]") {
    const unsigned slots = 24;
    NicOnFakeBus t(E1000Params::for_model("82544"), slots);
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    t.start();
    unsigned head_at_write = 0;
    std::vector<unsigned> fetched(slots, 0);
    bus.on_access = [&](const FakeBus::Access& a) {
        if (!a.read || a.addr < kRing || a.addr >= kRing + slots * kDescriptorBytes) return;
        unsigned first = (a.addr - kRing) / kDescriptorBytes;
        unsigned count = a.bytes / kDescriptorBytes;
        REQUIRE(first + count <= slots);  // a wrap is a second fetch
        for (unsigned i = first; i < first + count; ++i) {
            // slot i must lie in [head, tail) of the ring as software handed it over
            REQUIRE((i + slots - head_at_write) % slots < (ring.tail + slots - head_at_write) % slots);
            ++fetched[i];
        }
    };
    unsigned total = 0;
    for (unsigned step : {5u, 7u, 3u, 9u, 11u, 2u, 6u}) {
        head_at_write = bus.mmio_read(kTdh);
        for (unsigned i = 0; i < step; ++i) ring.queue(200, 0);
        total += step;
        bus.mmio_write(kTdt, ring.tail);
        sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
        REQUIRE(nic.frames_sent(0) == total);
    }
    for (unsigned i = 0; i < slots; ++i) CHECK(fetched[i] == (total / slots) + (i < total % slots ? 1 : 0));
}

TEST_CASE("e1000: a preloaded FIFO drains at exactly the wire rate", "[e1000]") {
    HostMemory mem(1 << 20);
    FakeBus bus("bus");
    const unsigned n = 200, size = 60;
    E1000 nic("nic", preloaded(n, size), bus, mem, kBar, {});
    std::vector<Picos> sent;
    nic.set_frame_observer([&](unsigned, const std::uint8_t*, unsigned len, Picos t) {
        REQUIRE(len == size);
        sent.push_back(t);
    });
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    REQUIRE(sent.empty());  // nothing leaves before TCTL.EN
    bus.mmio_write(kTctl, kTctlEn);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    REQUIRE(sent.size() == n);
    double pps = (n - 1) / (ps_to_us(sent.back() - sent.front()) * 1e-6);
    CHECK(pps == Approx(125e6 / (size + 24)).epsilon(0.001));
    CHECK(nic.port(0).fifo().used() == 0);
}

TEST_CASE("e1000: preloaded 1500-byte frames drain at the wire rate", "[e1000]") {
    HostMemory mem(1 << 20);
    FakeBus bus("bus");
    const unsigned n = 10, size = 1500;
    E1000 nic("nic", preloaded(n, size), bus, mem, kBar, {});
    std::vector<Picos> sent;
    nic.set_frame_observer([&](unsigned, const std::uint8_t*, unsigned, Picos t) { sent.push_back(t); });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    bus.mmio_write(kTctl, kTctlEn);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    REQUIRE(sent.size() == n);
    double pps = (n - 1) / (ps_to_us(sent.back() - sent.front()) * 1e-6);
    CHECK(pps == Approx(125e6 / (size + 24)).epsilon(0.001));
}

TEST_CASE("e1000: write-backs only for RS descriptors set DD in host memory", "[e1000]") {
    NicOnFakeBus t(E1000Params::for_model("82546"), 32);
    HostMemory& mem = t.mem;
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    REQUIRE(nic.ports() == 2);
    REQUIRE(bus.master_config.width_bits == 64);
    REQUIRE(bus.bar_size() == 2 * E1000::kBarBytes);
    t.start();
    for (unsigned i = 0; i < 20; ++i) ring.queue(100, i % 4 == 3 ? kCmdRs : 0, i % 5 == 0 ? 3 : 1);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_US));
    REQUIRE(nic.frames_sent(0) == 20);
    REQUIRE(nic.frames_sent(1) == 0);
    std::vector<std::uint64_t> writes;
    for (const auto& a : bus.log)
        if (!a.read) writes.push_back(a.addr);
    std::vector<std::uint64_t> expected;
    for (unsigned s = 0; s < ring.tail; ++s) {
        TxDescriptor d;
        mem.read(kRing + s * kDescriptorBytes, &d, sizeof d);
        bool rs = d.cmd & kCmdRs;
        CHECK(bool(d.status & kStaDd) == rs);
        if (rs) expected.push_back(kRing + s * kDescriptorBytes);
    }
    CHECK(expected.size() == 5);
    CHECK(writes == expected);
    CHECK(nic_stats(nic)["writebacks"] == 5);
}

namespace {

// 20 packets (28 descriptors, RS on every fourth packet) sent with TXDCTL = `txdctl`; returns
// the write-backs' (address, bytes) and which slots have DD in host memory.
struct WriteBackRecord {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> writes;
    std::vector<bool> dd, rs;
};
WriteBackRecord send_with_txdctl(E1000Params params, std::uint32_t txdctl) {
    NicOnFakeBus t(params, 32);
    t.start();
    t.bus.mmio_write(kTxdctl, txdctl);
    for (unsigned i = 0; i < 20; ++i) t.ring.queue(100, i % 4 == 3 ? kCmdRs : 0, i % 5 == 0 ? 3 : 1);
    t.bus.mmio_write(kTdt, t.ring.tail);
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_US));
    REQUIRE(t.nic.frames_sent(0) == 20);
    WriteBackRecord r;
    for (const auto& a : t.bus.log)
        if (!a.read) r.writes.emplace_back(a.addr, a.bytes);
    for (unsigned s = 0; s < t.ring.tail; ++s) {
        TxDescriptor d;
        t.mem.read(kRing + s * kDescriptorBytes, &d, sizeof d);
        r.dd.push_back(d.status & kStaDd);
        r.rs.push_back(d.cmd & kCmdRs);
    }
    return r;
}

}  // namespace

// The Linux driver's TXDCTL (WTHRESH 1, GRAN 1) with nic.writeback_batch "rs": only RS
// descriptors are batched, so a batch of one is each RS descriptor's own write, as at WTHRESH 0,
// and descriptors without RS (the notxints driver) are never written back.
TEST_CASE("e1000: WTHRESH 1 batching RS descriptors writes back what WTHRESH 0 does", "[e1000]") {
    const WriteBackRecord r = send_with_txdctl(E1000Params::for_model("82546"), kTxdctlFullDescWriteBack);
    REQUIRE(r.dd.size() == 28);
    CHECK(r.dd == r.rs);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> expected;
    for (unsigned s = 0; s < r.rs.size(); ++s)
        if (r.rs[s]) expected.emplace_back(kRing + s * kDescriptorBytes, kDescriptorBytes);
    CHECK(expected.size() == 5);
    CHECK(r.writes == expected);
}

// nic.writeback_batch "all": every processed descriptor counts, RS or not, and a batch goes in
// one write once it holds WTHRESH.  A packet's descriptors join together when it is processed,
// so the 3-descriptor packets (every fifth) make batches of 6 where they cross the threshold.
TEST_CASE("e1000: WTHRESH 4 batching every descriptor writes them back four at a time", "[e1000]") {
    E1000Params params = E1000Params::for_model("82546");
    params.writeback_batch_all = true;
    const WriteBackRecord r = send_with_txdctl(params, 4u << 16 | 1u << 24);
    REQUIRE(r.dd.size() == 28);
    CHECK(std::count(r.dd.begin(), r.dd.end(), true) == 28);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> expected;
    for (auto [first, count] : {std::pair{0u, 4u}, {4u, 6u}, {10u, 4u}, {14u, 4u}, {18u, 6u}, {24u, 4u}})
        expected.emplace_back(kRing + first * kDescriptorBytes, count * kDescriptorBytes);
    CHECK(r.writes == expected);
}

TEST_CASE("e1000: TIDV delays TXDW and an ICR read clears it and releases INTA#", "[e1000]") {
    NicOnFakeBus t(E1000Params{}, 16);
    FakeBus& bus = t.bus;
    LineRecorder& line = t.line;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    t.start();
    bus.mmio_write(kIms, kIcrTxdw);
    bus.mmio_write(kTidv, 10);  // 10.24 us
    bus.mmio_write(kTadv, 0);
    ring.queue(500, kCmdRs | kCmdIde);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    REQUIRE(line.changes.size() == 1);
    REQUIRE(line.changes[0].first);
    Picos written = 0;
    for (const auto& a : bus.log)
        if (!a.read) written = a.issued + bus.write_delay;
    CHECK(line.changes[0].second - written == 10 * 1024 * kPicosPerNs);
    std::uint32_t icr = bus.mmio_read(kIcr);
    CHECK((icr & kIcrTxdw) != 0);
    CHECK((icr & kIcrTxqe) != 0);  // the ring ran empty (masked: no interrupt for it)
    REQUIRE(line.changes.size() == 2);
    CHECK_FALSE(line.changes[1].first);
    CHECK(bus.mmio_read(kIcr) == 0);

    // Without IDE the interrupt follows the write-back at once.
    std::size_t before = bus.log.size();
    ring.queue(500, kCmdRs);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    REQUIRE(line.changes.size() == 3);
    for (std::size_t i = before; i < bus.log.size(); ++i)
        if (!bus.log[i].read) written = bus.log[i].issued + bus.write_delay;
    CHECK(line.changes[2].second == written);
    CHECK(nic_stats(nic)["interrupts"] == 2);
}

TEST_CASE("e1000: TADV bounds a TIDV delay that keeps being restarted", "[e1000]") {
    NicOnFakeBus t(E1000Params{}, 256);
    FakeBus& bus = t.bus;
    LineRecorder& line = t.line;
    Ring& ring = t.ring;
    t.start();
    bus.mmio_write(kIms, kIcrTxdw);
    bus.mmio_write(kTidv, 64);  // 65.5 us, restarted by every packet
    bus.mmio_write(kTadv, 20);  // 20.48 us after the first write-back
    for (unsigned i = 0; i < 100; ++i) ring.queue(1000, kCmdRs | kCmdIde);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_US));
    REQUIRE(!line.changes.empty());
    Picos first_write = 0;
    for (const auto& a : bus.log)
        if (!a.read) {
            first_write = a.issued + bus.write_delay;
            break;
        }
    CHECK(line.changes[0].second - first_write == 20 * 1024 * kPicosPerNs);
}

TEST_CASE("e1000: the TX FIFO never holds more than its size", "[e1000]") {
    E1000Params params = E1000Params::for_model("82544");
    params.pba_rx_kb = 56;
    NicOnFakeBus t(params, 128);
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    bus.read_per_byte = ns_to_ps(1);  // the bus outruns the wire: the FIFO fills up
    const std::uint32_t fifo = nic.port(0).fifo().capacity();
    REQUIRE(fifo == 8 * 1024);
    std::uint32_t worst = 0;
    unsigned frames = 0;
    nic.set_frame_observer([&](unsigned, const std::uint8_t* f, unsigned, Picos) {
        REQUIRE(sequence_of(f) == frames++);
        worst = std::max(worst, nic.port(0).fifo().peak());
    });
    t.start();
    for (unsigned i = 0; i < 100; ++i) ring.queue(1514, kCmdRs);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    CHECK(frames == 100);
    CHECK(nic.port(0).fifo().peak() <= fifo);
    CHECK(nic.port(0).fifo().peak() > fifo - 1514);  // it did fill
    CHECK(nic_stats(nic)["mean_per_packet_ns"]["fifo_wait"].get<double>() > 0);
    // The wire, not the bus, sets the rate: 125e6/(1514+24) frames/s.
    auto st = nic_stats(nic);
    CHECK(st["mean_per_packet_ns"]["wire"].get<double>() == Approx((1514 + 24) * 8.0));
}

TEST_CASE("e1000: packet prefetch (TXDMAC.DPP=0) overlaps finishing with the next read", "[e1000]") {
    E1000Params params;
    params.packet_processing_ps = 500 * kPicosPerNs;
    NicOnFakeBus t(params, 256);
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    std::vector<Picos> sent;
    nic.set_frame_observer([&](unsigned, const std::uint8_t*, unsigned, Picos when) { sent.push_back(when); });
    t.start();
    for (unsigned i = 0; i < 50; ++i) ring.queue(60, kCmdRs);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_US));
    REQUIRE(sent.size() == 50);
    Picos without_prefetch = sent.back() - sent[10];

    bus.mmio_write(kTxdmac, 0);
    sent.clear();
    for (unsigned i = 0; i < 50; ++i) ring.queue(60, kCmdRs);
    bus.mmio_write(kTdt, ring.tail);
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_US));
    REQUIRE(sent.size() == 50);
    Picos with_prefetch = sent.back() - sent[10];
    CHECK(with_prefetch < without_prefetch);
}

TEST_CASE("e1000: the two ports of an 82546 have one read outstanding each and neither starves", "[e1000]") {
    HostMemory mem(16 << 20);
    FakeBus bus("bus");
    E1000 nic("nic", E1000Params::for_model("82546"), bus, mem, kBar, {});
    std::vector<std::uint32_t> seen[2];
    std::vector<Picos> sent_at[2];
    nic.set_frame_observer([&](unsigned port, const std::uint8_t* f, unsigned, Picos when) {
        seen[port].push_back(sequence_of(f));
        sent_at[port].push_back(when);
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const std::uint32_t port1 = E1000::kBarBytes;
    Ring ring0{mem, bus, 64}, ring1{mem, bus, 64};
    ring0.setup();
    ring1.setup(port1);
    // Port 1's ring and buffers lie above port 0's (Ring::queue offsets them by ring base).
    bus.port_of = [&](std::uint64_t addr) {
        bool ring = addr >= kRing + port1 && addr < kRing + port1 + 64 * kDescriptorBytes;
        return ring || addr >= kBuffers + std::uint64_t(port1) * 16 ? 1u : 0u;
    };
    for (unsigned i = 0; i < 30; ++i) {
        ring0.queue(300, kCmdRs);
        ring1.queue(300, kCmdRs, 1, kRing + port1);
    }
    bus.mmio_write(kTdt, ring0.tail);
    bus.mmio_write(port1 + kTdt, ring1.tail);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    REQUIRE(seen[0].size() == 30);
    REQUIRE(seen[1].size() == 30);
    for (unsigned i = 0; i < 30; ++i) CHECK((seen[0][i] == i && seen[1][i] == i));
    // One read per LAN function (SDM 4.3.2.1), both functions reading at once.
    CHECK(bus.max_port_reads[0] == 1);
    CHECK(bus.max_port_reads[1] == 1);
    CHECK(bus.max_outstanding_reads == 2);
    // Equal work, equal share: the ports finish their 30 frames within 10 us of each other (a
    // 300-byte read alone takes 2.85 us on this bus, 30 frames about 0.1 ms).
    Picos last0 = sent_at[0].back(), last1 = sent_at[1].back();
    CHECK(std::max(last0, last1) - std::min(last0, last1) < ns_to_ps(10000));
    CHECK(bus.mmio_read(port1 + kStatus) != bus.mmio_read(kStatus));  // function id
}

namespace {
// A bus port that records reads and leaves their completion to the test.
struct ManualBus : BusPort {
    struct Read { std::uint64_t addr, tag; };
    std::vector<Read> reads;
    int attach_master(BusMaster*, const MasterConfig&) override { return 0; }
    void attach_target(BusTarget*, std::uint64_t, std::uint64_t) override {}
    void read(int, std::uint64_t addr, std::uint32_t, std::uint64_t tag) override {
        reads.push_back({addr, tag});
    }
    void write(int, std::uint64_t, std::uint32_t, std::uint64_t, std::uint32_t) override {}
};
// A port's DMA engine that wants a read whenever `wants` says so (address = its id).
struct WantingPort : DmaClient {
    std::uint64_t id;
    bool wants = true;
    unsigned finished = 0;
    explicit WantingPort(std::uint64_t i) : id(i) {}
    bool next_read(ReadRequest& out) override {
        if (!wants) return false;
        out = {ReadKind::Data, id, 64};
        return true;
    }
    void read_finished(const ReadRequest&, const DmaStats&) override { ++finished; }
    void write_finished(std::uint64_t, const DmaStats&) override {}
};
}  // namespace

TEST_CASE("e1000: the bus interface gives each port one read and offers the ports in turn", "[e1000]") {
    ManualBus bus;
    BusInterface bi(bus, 0);
    WantingPort p0(0), p1(1);
    bi.add_client(&p0);
    bi.add_client(&p1);

    bi.kick();  // both want: one read each, port 0 first
    REQUIRE(bus.reads.size() == 2);
    CHECK(bus.reads[0].addr == 0);
    CHECK(bus.reads[1].addr == 1);
    CHECK(bi.reading(0));
    CHECK(bi.reading(1));
    bi.kick();  // still wanting, but each has its read in flight
    CHECK(bus.reads.size() == 2);

    // Port 0's read completes: only port 0 may read again (port 1 still has its own).
    bi.read_done(bus.reads[0].tag, DmaStats{});
    REQUIRE(bus.reads.size() == 3);
    CHECK(bus.reads[2].addr == 0);
    CHECK(p0.finished == 1);
    CHECK_THROWS(bi.read_done(bus.reads[0].tag, DmaStats{}));  // a tag completes once

    // Port 0 issued last: when both are free and both want, port 1 goes first.
    p0.wants = p1.wants = false;
    bi.read_done(bus.reads[1].tag, DmaStats{});
    bi.read_done(bus.reads[2].tag, DmaStats{});
    CHECK_FALSE(bi.reading(0));
    CHECK_FALSE(bi.reading(1));
    p0.wants = p1.wants = true;
    bi.kick();
    REQUIRE(bus.reads.size() == 5);
    CHECK(bus.reads[3].addr == 1);
    CHECK(bus.reads[4].addr == 0);

    // Completions one at a time, oldest first: the ports alternate, neither starves.
    unsigned before0 = p0.finished, before1 = p1.finished;
    for (std::size_t next = 3; next < 23; ++next) bi.read_done(bus.reads[next].tag, DmaStats{});
    CHECK(p0.finished - before0 == 10);
    CHECK(p1.finished - before1 == 10);
    for (std::size_t i = 3; i + 1 < bus.reads.size(); ++i)
        CHECK(bus.reads[i].addr != bus.reads[i + 1].addr);
}

// nic.outstanding_read_scope "device": the SDM's one outstanding read taken as the whole
// controller's, so the two ports share it and still take turns.
TEST_CASE("e1000: with one read per device the ports share the one read in turn", "[e1000]") {
    ManualBus bus;
    BusInterface bi(bus, 0, true);
    WantingPort p0(0), p1(1);
    bi.add_client(&p0);
    bi.add_client(&p1);

    bi.kick();  // both want: only port 0 reads
    REQUIRE(bus.reads.size() == 1);
    CHECK(bus.reads[0].addr == 0);
    CHECK(bi.reading(0));
    CHECK_FALSE(bi.reading(1));
    bi.kick();
    CHECK(bus.reads.size() == 1);

    // Each completion lets the other port read next: never two in flight, neither starves.
    for (std::size_t next = 0; next < 20; ++next) {
        REQUIRE(bus.reads.size() == next + 1);
        bi.read_done(bus.reads[next].tag, DmaStats{});
        CHECK(bi.reading(0) != bi.reading(1));
    }
    CHECK(p0.finished == 10);
    CHECK(p1.finished == 10);
    for (std::size_t i = 0; i + 1 < bus.reads.size(); ++i)
        CHECK(bus.reads[i].addr != bus.reads[i + 1].addr);

    // A port that does not want leaves the read to the other.
    p1.wants = false;
    std::size_t before = bus.reads.size();
    bi.read_done(bus.reads.back().tag, DmaStats{});
    bi.read_done(bus.reads.back().tag, DmaStats{});
    REQUIRE(bus.reads.size() == before + 2);
    CHECK(bus.reads[before].addr == 0);
    CHECK(bus.reads[before + 1].addr == 0);
}

TEST_CASE("e1000: TXDCTL decides when descriptors are fetched and prefetched", "[e1000]") {
    // A 64-slot ring at 0x10000 of one-descriptor packets (EOP) but for slots 30-31, a cache of
    // 64 and 64-byte host cache lines (4 descriptors each).
    HostMemory mem(1 << 20);
    for (unsigned i = 0; i < 64; ++i) {
        auto last = static_cast<std::uint8_t>(i == 30 ? 0 : kCmdEop | kCmdIfcs);  // 30-31: one packet
        TxDescriptor d{kBuffers, 60, 0, last, 0, 0, 0};
        mem.write(kRing + i * kDescriptorBytes, &d, sizeof d);
    }
    DescriptorCache cache(64, 64);
    cache.set_base_low(kRing);
    cache.set_length_bytes(64 * kDescriptorBytes);
    const Txdctl linux_2004{0x01010000};  // GRAN = 1, WTHRESH = 1, PTHRESH = HTHRESH = 0
    const Txdctl prefetch_below_4{4 | 2 << 8 | 1 << 24};  // PTHRESH 4, HTHRESH 2 descriptors
    const Txdctl in_lines{1 | 1 << 8};  // GRAN = 0: PTHRESH 1 line (4), HTHRESH 1 line (4)
    auto fetch_all = [&] {
        DescriptorFetch f = cache.plan_fetch();
        cache.fetch_issued(f);
        cache.fetch_arrived(f, mem);
        return f;
    };

    CHECK_FALSE(cache.fetch_wanted(linux_2004));  // nothing handed over
    cache.set_tail(10);
    CHECK(cache.fetch_wanted(linux_2004));  // the cache is empty: fetch, whatever TXDCTL says
    DescriptorFetch f = cache.plan_fetch();
    CHECK(f.count == 10);  // up to the tail, not past it
    cache.fetch_issued(f);
    cache.set_tail(20);
    CHECK_FALSE(cache.fetch_wanted(prefetch_below_4));  // one fetch at a time
    cache.fetch_arrived(f, mem);

    // 10 cached, 10 waiting: no prefetch with the 2004 Linux value or above PTHRESH.
    CHECK_FALSE(cache.fetch_wanted(linux_2004));
    CHECK_FALSE(cache.fetch_wanted(prefetch_below_4));
    for (int i = 0; i < 7; ++i) cache.pop();  // 3 cached: below PTHRESH 4 ...
    CHECK(cache.fetch_wanted(prefetch_below_4));  // ... with 10 >= HTHRESH 2 waiting
    CHECK_FALSE(cache.fetch_wanted(linux_2004));  // a whole packet is cached: wait until empty
    CHECK(cache.fetch_wanted(in_lines));          // 3 < 4 (one line), 10 waiting >= 4
    CHECK(fetch_all().count == 10);
    // HTHRESH: fewer waiting in host memory than it asks for, no prefetch.
    for (int i = 0; i < 11; ++i) cache.pop();  // 2 cached
    cache.set_tail(21);                        // 1 waiting
    CHECK_FALSE(cache.fetch_wanted(prefetch_below_4));  // 1 < HTHRESH 2
    CHECK_FALSE(cache.fetch_wanted(in_lines));          // 1 < HTHRESH 4 (one line)
    cache.set_tail(22);
    CHECK(cache.fetch_wanted(prefetch_below_4));
    // An empty cache fetches whatever waits, with any TXDCTL.
    cache.pop();
    cache.pop();
    CHECK(cache.fetch_wanted(linux_2004));
    CHECK(fetch_all().count == 2);
    // A cache holding only the start of a packet (no EOP yet) fetches too.
    cache.pop();
    cache.pop();
    cache.set_tail(31);
    CHECK(fetch_all().count == 9);      // slots 22-30
    for (int i = 0; i < 8; ++i) cache.pop();  // slot 30 left, its EOP in slot 31
    CHECK(cache.complete_packet_descriptors() == 0);
    CHECK_FALSE(cache.fetch_wanted(linux_2004));  // nothing waiting in host memory
    cache.set_tail(32);
    CHECK(cache.fetch_wanted(linux_2004));
}

TEST_CASE("e1000: on a real PCI 32/33 segment the bus sets a rate below the wire limit", "[e1000]") {
    HostMemory mem(16 << 20);
    BusConfig config;
    config.kind = BusKind::Pci;
    config.width_bits = 32;
    config.clock_mhz = 33;
    PciBus bus("bus", config);
    struct Memory : BusTarget {  // host memory answers every read at once
        TargetOffer offer(const BusTransaction&, Picos) override { return {}; }
        void complete(BusTransaction&) override {}
    } memory;
    bus.attach_default_target(&memory);
    E1000 nic("nic", E1000Params::for_model("82540"), bus, mem, kBar, {});
    std::vector<Picos> sent;
    nic.set_frame_observer([&](unsigned, const std::uint8_t* f, unsigned, Picos t) {
        REQUIRE(sequence_of(f) == sent.size());
        sent.push_back(t);
    });
    auto mmio_write = [&](std::uint32_t offset, std::uint32_t v) {
        BusTransaction t;
        t.command = BusCommand::MemWrite;
        t.addr = kBar + offset;
        t.bytes = t.bytes_done = 4;
        t.dword = v;
        nic.complete(t);
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    mmio_write(kTdbal, kRing);
    mmio_write(kTdlen, 256 * kDescriptorBytes);
    mmio_write(kTctl, kTctlEn);
    std::uint64_t buf = kBuffers;
    for (std::uint32_t i = 0; i < 200; ++i, buf += 2048) {
        std::vector<std::uint8_t> frame(60, 0);
        std::memcpy(frame.data() + 14, &i, 4);
        mem.write(buf, frame.data(), frame.size());
        TxDescriptor d{buf, 60, 0, kCmdEop | kCmdIfcs | kCmdRs, 0, 0, 0};
        mem.write(kRing + i * kDescriptorBytes, &d, sizeof d);
    }
    mmio_write(kTdt, 200);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
    REQUIRE(sent.size() == 200);
    double pps = 150 / (ps_to_us(sent[199] - sent[49]) * 1e-6);
    CHECK(pps < 125e6 / (60 + 24));
    auto st = nic_stats(nic);
    CHECK(st["mean_per_packet_ns"]["arbitration"].get<double>() > 0);
    CHECK(st["mean_per_packet_ns"]["data_phases"].get<double>() > 0);
    INFO(st.dump(2));
    INFO("pps " << pps);
    CHECK(bus.counters().transactions > 0);
}

TEST_CASE("e1000: ITR keeps INTA# assertions at least ITR x 256 ns apart", "[e1000]") {
    NicOnFakeBus t(E1000Params{}, 256);
    FakeBus& bus = t.bus;
    LineRecorder& line = t.line;
    E1000& nic = t.nic;
    Ring& ring = t.ring;
    t.start();
    bus.mmio_write(kIms, kIcrTxdw);
    bus.mmio_write(kItr, 100);  // 25.6 us
    for (unsigned i = 0; i < 100; ++i) ring.queue(1000, kCmdRs);
    bus.mmio_write(kTdt, ring.tail);
    for (unsigned step = 0; step < 80; ++step) {  // an ISR that reads ICR every 5 us
        sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_US));
        bus.mmio_read(kIcr);
    }
    std::vector<Picos> rises;
    for (const auto& c : line.changes)
        if (c.first) rises.push_back(c.second);
    REQUIRE(rises.size() >= 5);
    for (std::size_t i = 1; i < rises.size(); ++i)
        CHECK(rises[i] - rises[i - 1] >= 100 * 256 * kPicosPerNs);
    CHECK(nic_stats(nic)["interrupts"] == rises.size());
}

TEST_CASE("e1000: the registers sit at their SDM offsets under their SDM names", "[e1000]") {
    HostMemory mem(1 << 20);
    FakeBus bus("bus");
    E1000 nic("nic", E1000Params{}, bus, mem, kBar, {});
    std::map<std::uint32_t, std::string> map;
    for (const auto& r : nic.port(0).registers().registers()) map.emplace(r.offset, r.name);
    // A sample from each group of SDM 13.4 and 13.7 (the tables list them all).
    const std::vector<std::pair<std::uint32_t, std::string>> sdm = {
        {0x0000, "CTRL"},   {0x0008, "STATUS"},  {0x0010, "EECD"},    {0x0014, "EERD"},
        {0x0018, "CTRL_EXT"}, {0x0020, "MDIC"},  {0x0028, "FCAL"},    {0x0038, "VET"},
        {0x00C0, "ICR"},    {0x00C4, "ITR"},     {0x00C8, "ICS"},     {0x00D0, "IMS"},
        {0x00D8, "IMC"},    {0x0100, "RCTL"},    {0x0400, "TCTL"},    {0x0410, "TIPG"},
        {0x0E00, "LEDCTL"}, {0x1000, "PBA"},     {0x2800, "RDBAL"},   {0x2804, "RDBAH"},
        {0x2808, "RDLEN"},  {0x2810, "RDH"},     {0x2818, "RDT"},     {0x2820, "RDTR"},
        {0x2828, "RXDCTL"}, {0x282C, "RADV"},    {0x3000, "TXDMAC"},  {0x3800, "TDBAL"},
        {0x3804, "TDBAH"},  {0x3808, "TDLEN"},   {0x3810, "TDH"},     {0x3818, "TDT"},
        {0x3820, "TIDV"},   {0x3828, "TXDCTL"},  {0x382C, "TADV"},    {0x3830, "TSPMT"},
        {0x4000, "CRCERRS"}, {0x4010, "MPC"},    {0x4074, "GPRC"},    {0x4088, "GORCL"},
        {0x408C, "GORCH"},  {0x40A0, "RNBC"},    {0x40D4, "TPT"},     {0x40FC, "TSCTFC"},
        {0x5000, "RXCSUM"}, {0x5200, "MTA[0]"},  {0x53FC, "MTA[127]"}, {0x5400, "RAL0"},
        {0x5404, "RAH0"},   {0x547C, "RAH15"},   {0x5600, "VFTA[0]"}, {0x5820, "MANC"}};
    for (const auto& [offset, name] : sdm) {
        INFO(name);
        CHECK(map[offset] == name);
    }
}

TEST_CASE("e1000: register fields round-trip through the bus and the model acts on them", "[e1000]") {
    NicOnFakeBus t(E1000Params::for_model("82544"), 64);
    FakeBus& bus = t.bus;
    E1000& nic = t.nic;
    t.start();

    {  // stored control registers read back what was written
        bus.mmio_write(kCtrl, 0x00140248);
        CHECK(bus.mmio_read(kCtrl) == 0x00140248);
        bus.mmio_write(kTctl, kTctlEn | 0x0F0u << 4);
        CHECK(Tctl{bus.mmio_read(kTctl)}.en());
        const std::uint32_t tipg = 10 | 8 << 10 | 6 << 20;
        bus.mmio_write(kTipg, tipg);
        CHECK(Tipg{bus.mmio_read(kTipg)}.ipgt() == 10);
        CHECK(bus.mmio_read(kTipg) == tipg);
        const std::uint32_t txdctl = 5 | 3 << 8 | 2 << 16 | 1 << 24;
        bus.mmio_write(kTxdctl, txdctl);
        const Txdctl back{bus.mmio_read(kTxdctl)};
        CHECK(back.pthresh() == 5);
        CHECK(back.hthresh() == 3);
        CHECK(back.wthresh() == 2);
        CHECK(back.gran_descriptors());
        CHECK(Txdmac{bus.mmio_read(kTxdmac)}.dpp());  // reset value: packet prefetch off
        bus.mmio_write(kTxdmac, 0);
        CHECK_FALSE(Txdmac{bus.mmio_read(kTxdmac)}.dpp());
        CHECK(Pba{bus.mmio_read(kPba)}.rx_kb() == 48);
        bus.mmio_write(kPba, 40);
        CHECK(Pba{bus.mmio_read(kPba)}.rx_kb() == 40);
        CHECK(nic.port(0).fifo().capacity() == 24 * 1024);  // 64 KB buffer less 40 KB RX
    }
    {  // ring registers keep only their defined bits
        bus.mmio_write(kTdbal, 0x12345678);
        CHECK(bus.mmio_read(kTdbal) == 0x12345670);  // 3:0 read as 0
        bus.mmio_write(kTdbah, 0x9);
        CHECK(bus.mmio_read(kTdbah) == 0x9);
        bus.mmio_write(kTdlen, 0x1234F);
        CHECK(bus.mmio_read(kTdlen) == 0x12300);  // LEN 19:7
        CHECK(bus.mmio_read(kTdh) == 0);
        bus.mmio_write(kTdt, 0);
        CHECK(bus.mmio_read(kTdt) == 0);
    }
    {  // interrupt registers: set, clear, clear on read, write-only
        bus.mmio_write(kIms, kIcrTxdw | kIcrTxqe);
        CHECK(bus.mmio_read(kIms) == (kIcrTxdw | kIcrTxqe));
        bus.mmio_write(kImc, kIcrTxqe);
        const InterruptCauses mask{bus.mmio_read(kIms)};
        CHECK(mask.txdw());
        CHECK_FALSE(mask.txqe());
        bus.mmio_write(kIcs, kIcrLsc | kIcrTxqe);
        const InterruptCauses causes{bus.mmio_read(kIcr)};
        CHECK(causes.lsc());
        CHECK(causes.txqe());
        CHECK_FALSE(causes.txdw());
        CHECK(bus.mmio_read(kIcr) == 0);  // cleared by the read
        bus.mmio_write(kIcs, kIcrLsc | kIcrTxqe);
        bus.mmio_write(kIcr, kIcrLsc);  // 1s clear
        CHECK(bus.mmio_read(kIcr) == kIcrTxqe);
        CHECK(bus.mmio_read(kIcs) == 0);  // write-only registers read 0 ...
        CHECK(bus.mmio_read(kImc) == 0);
        bus.mmio_write(kItr, 0xABCD1234);
        CHECK(Itr{bus.mmio_read(kItr)}.interval() == 0x1234);
        CHECK(bus.mmio_read(kItr) == 0x1234);
        bus.mmio_write(kTidv, 0x10040);
        CHECK(InterruptDelay{bus.mmio_read(kTidv)}.idv() == 0x40);
        bus.mmio_write(kTadv, 0x20);
        CHECK(InterruptDelay{bus.mmio_read(kTadv)}.idv() == 0x20);
    }
    {  // STATUS reports the link and the function, and ignores writes
        bus.mmio_write(kStatus, 0);
        const Status status{bus.mmio_read(kStatus)};
        CHECK(status.fd());
        CHECK(status.lu());
        CHECK(status.function_id() == 0);
        CHECK(status.speed() == 2);  // 1000 Mb/s
    }
    // ... and none of these accesses counts as unimplemented.
    CHECK(nic_stats(nic)["unimplemented_register_accesses"] == nlohmann::json::array());
}

TEST_CASE("e1000: accesses to offsets with no register are counted and reported", "[e1000]") {
    HostMemory mem(1 << 20);
    FakeBus bus("bus");
    E1000 nic("nic", E1000Params::for_model("82546"), bus, mem, kBar, {});
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const std::uint32_t kReserved = 0x0044, kFcal = 0x0028, kLedctl = 0x0E00;
    const std::uint32_t port1 = E1000::kBarBytes;
    CHECK(bus.mmio_read(kReserved) == 0);  // reserved space reads as zero ...
    bus.mmio_read(kReserved);
    bus.mmio_write(kReserved, 0x8002);
    CHECK(bus.mmio_read(kReserved) == 0);  // ... and keeps no written value
    // Flow control is not modelled: FCAL reads its reset value and drops writes; LEDCTL too.
    bus.mmio_write(port1 + kFcal, 0x00C28001);
    CHECK(bus.mmio_read(port1 + kFcal) == 0);
    CHECK(bus.mmio_read(port1 + kLedctl) == 0x07068302);
    nic.reset_stats();  // counted since construction, not since the last reset
    const nlohmann::json expected = {
        {{"port", 0}, {"offset", "0x00044"}, {"name", ""}, {"reads", 3}, {"writes", 1}},
        {{"port", 1}, {"offset", "0x00028"}, {"name", "FCAL"}, {"reads", 1}, {"writes", 1}},
        {{"port", 1}, {"offset", "0x00E00"}, {"name", "LEDCTL"}, {"reads", 1}, {"writes", 0}}};
    CHECK(nic_stats(nic)["unimplemented_register_accesses"] == expected);
}

}  // namespace test_e1000
