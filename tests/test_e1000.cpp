// E1000 transmit model against a fake bus: conservation and order, wire rate, descriptor
// fetching, write-backs, interrupts, FIFO room.  Registers are driven through the BusTarget
// interface (complete() with MemWrite/MemRead), as the bus would.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "e1000/e1000.h"
#include "e1000/e1000_regs.h"
#include "platform/host_memory.h"
#include "platform/pci_bus.h"
#include "run/scenario.h"
#include "core/sim_time.h"

using namespace pcisim;
using namespace pcisim::e1000;

namespace {

constexpr std::uint64_t kBar = 0xF0000000;
constexpr std::uint64_t kRing = 0x10000;
constexpr std::uint64_t kBuffers = 0x100000;

// Completes reads after a fixed delay plus a per-byte time and writes after a fixed delay.
class FakeBus : public sc_core::sc_module, public BusPort {
public:
    struct Access {
        bool read;
        std::uint64_t addr;
        std::uint32_t bytes;
        Picos issued;
    };
    Picos read_delay = ns_to_ps(600);
    Picos read_per_byte = ns_to_ps(7.5);
    Picos write_delay = ns_to_ps(200);
    std::vector<Access> log;
    std::function<void(const Access&)> on_access;
    unsigned outstanding_reads = 0, max_outstanding_reads = 0;
    MasterConfig master_config;

    explicit FakeBus(sc_core::sc_module_name n) : sc_module(n) {
        SC_HAS_PROCESS(FakeBus);
        SC_METHOD(fire);
        sensitive << wake_;
        dont_initialize();
    }
    int attach_master(BusMaster* m, const MasterConfig& c) override {
        master_ = m;
        master_config = c;
        return 0;
    }
    void attach_target(BusTarget* t, std::uint64_t base, std::uint64_t size) override {
        target_ = t, base_ = base, size_ = size;
    }
    void read(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) override {
        record({true, addr, bytes, now_ps()});
        max_outstanding_reads = std::max(max_outstanding_reads, ++outstanding_reads);
        schedule(read_delay + bytes * read_per_byte, {true, tag});
    }
    void write(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
               std::uint32_t) override {
        record({false, addr, bytes, now_ps()});
        schedule(write_delay, {false, tag});
    }
    void mmio_write(std::uint32_t offset, std::uint32_t v) {
        BusTransaction t;
        t.command = BusCommand::MemWrite;
        t.addr = base_ + offset;
        t.bytes = t.bytes_done = 4;
        t.dword = v;
        target_->complete(t);
    }
    std::uint32_t mmio_read(std::uint32_t offset) {
        BusTransaction t;
        t.command = BusCommand::MemRead;
        t.addr = base_ + offset;
        t.bytes = t.bytes_done = 4;
        target_->complete(t);
        return t.dword;
    }
    std::uint64_t bar_size() const { return size_; }

private:
    struct Op {
        bool read;
        std::uint64_t tag;
    };
    void record(const Access& a) {
        log.push_back(a);
        if (on_access) on_access(a);
    }
    void schedule(Picos delay, Op op) {
        due_.emplace(now_ps() + delay, op);
        wake_.notify(ps(due_.begin()->first - now_ps()));
    }
    void fire() {
        while (!due_.empty() && due_.begin()->first <= now_ps()) {
            Op op = due_.begin()->second;
            due_.erase(due_.begin());
            DmaStats s;
            s.finished = now_ps();
            s.transactions = 1;
            if (op.read) {
                --outstanding_reads;
                master_->read_done(op.tag, s, 0);
            } else {
                master_->write_done(op.tag, s);
            }
        }
        if (!due_.empty()) wake_.notify(ps(due_.begin()->first - now_ps()));
    }
    BusMaster* master_ = nullptr;
    BusTarget* target_ = nullptr;
    std::uint64_t base_ = 0, size_ = 0;
    std::multimap<Picos, Op> due_;
    sc_core::sc_event wake_;
};

class LineRecorder : public InterruptSink {
public:
    std::vector<std::pair<bool, Picos>> changes;
    void set_interrupt(bool a) override { changes.emplace_back(a, now_ps()); }
};

Scenario nic_scenario(nlohmann::json nic) {
    return Scenario::from_json({{"nic", std::move(nic)}}, "test");
}

// A preloaded FIFO on its own: pktgen's frames could not follow the preloaded ones in order.
Scenario preloaded_scenario(unsigned packets, unsigned bytes) {
    return Scenario::from_json({{"nic", {{"preload_packets", packets}, {"preload_bytes", bytes}}},
                                {"pktgen", {{"enabled", false}}}},
                               "test");
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
    NicOnFakeBus(nlohmann::json params, unsigned slots)
        : nic("nic", nic_scenario(std::move(params)), bus, mem, kBar, {&line}),
          ring{mem, bus, slots} {}
    void start() {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        ring.setup();
    }
};

}  // namespace

TEST_CASE("e1000: a ring of packets is sent once each and in order with one read outstanding", "[e1000]") {
    NicOnFakeBus t({{"model", "82540"}}, 64);
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
    auto st = nic.stats();
    CHECK(st["tx_frames"] == packets);
    CHECK(st["descriptors_fetched"] == packets + (packets + 2) / 3);
    CHECK(st["data_reads"] == packets + (packets + 2) / 3);
}

TEST_CASE("e1000: descriptor fetches never pass TDT or the ring end", "[e1000]") {
    const unsigned slots = 24;
    NicOnFakeBus t({{"model", "82544"}}, slots);
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
    E1000 nic("nic", preloaded_scenario(n, size), bus, mem, kBar, {});
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
    E1000 nic("nic", preloaded_scenario(n, size), bus, mem, kBar, {});
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
    NicOnFakeBus t({{"model", "82546"}}, 32);
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
    CHECK(nic.stats()["writebacks"] == 5);
}

TEST_CASE("e1000: TIDV delays TXDW and an ICR read clears it and releases INTA#", "[e1000]") {
    NicOnFakeBus t(nlohmann::json::object(), 16);
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
    CHECK(nic.stats()["interrupts"] == 2);
}

TEST_CASE("e1000: TADV bounds a TIDV delay that keeps being restarted", "[e1000]") {
    NicOnFakeBus t(nlohmann::json::object(), 256);
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
    NicOnFakeBus t({{"model", "82544"}, {"pba_rx_kb", 56}}, 128);
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
    CHECK(nic.stats()["mean_per_packet_ns"]["fifo_wait"].get<double>() > 0);
    // The wire, not the bus, sets the rate: 125e6/(1514+24) frames/s.
    auto st = nic.stats();
    CHECK(st["mean_per_packet_ns"]["wire"].get<double>() == Approx((1514 + 24) * 8.0));
}

TEST_CASE("e1000: packet prefetch (TXDMAC.DPP=0) overlaps finishing with the next read", "[e1000]") {
    NicOnFakeBus t({{"packet_processing_ns", 500}}, 256);
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

TEST_CASE("e1000: two ports of an 82546 share the one read slot", "[e1000]") {
    HostMemory mem(16 << 20);
    FakeBus bus("bus");
    E1000 nic("nic", nic_scenario({{"model", "82546"}}), bus, mem, kBar, {});
    std::vector<std::uint32_t> seen[2];
    nic.set_frame_observer([&](unsigned port, const std::uint8_t* f, unsigned, Picos) {
        seen[port].push_back(sequence_of(f));
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const std::uint32_t port1 = E1000::kBarBytes;
    Ring ring0{mem, bus, 64}, ring1{mem, bus, 64};
    ring0.setup();
    ring1.setup(port1);
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
    CHECK(bus.max_outstanding_reads == 1);
    CHECK(bus.mmio_read(port1 + kStatus) != bus.mmio_read(kStatus));  // function id
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
    E1000 nic("nic", nic_scenario({{"model", "82540"}}), bus, mem, kBar, {});
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
    auto st = nic.stats();
    CHECK(st["mean_per_packet_ns"]["arbitration"].get<double>() > 0);
    CHECK(st["mean_per_packet_ns"]["data_phases"].get<double>() > 0);
    INFO(st.dump(2));
    INFO("pps " << pps);
    CHECK(bus.counters().transactions > 0);
}

TEST_CASE("e1000: ITR keeps INTA# assertions at least ITR x 256 ns apart", "[e1000]") {
    NicOnFakeBus t(nlohmann::json::object(), 256);
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
    CHECK(nic.stats()["interrupts"] == rises.size());
}
