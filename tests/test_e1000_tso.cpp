// The TSO and checksum offload path end to end: the driver (e1000_tso, tx_csum, tx_map) on a
// CPU, the NIC's TSO engine on a real bus, and the frames as they leave the wire (the NIC's
// frame observer).  The skbs carry real Ethernet + IPv4 + TCP headers in host memory; the test
// checks the bytes on the wire against them with checksums computed here, independently of
// the model's.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "e1000/e1000.h"
#include "e1000/e1000_family.h"
#include "platform/bridge_face.h"
#include "platform/cpu.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "run/platform.h"
#include "run/scenario.h"
#include "software/e1000_driver.h"
#include "software/skb_pool.h"
#include "nic_stats.h"
#include "test_support.h"

namespace test_e1000_tso {

using namespace pcisim;

namespace {

constexpr std::uint64_t kBar = 0xf0000000;
constexpr std::uint64_t kRing = 0x100000;
constexpr std::uint64_t kSkbArea = 0x400000;
constexpr std::uint32_t kHeader = 14 + 20 + 20;

std::uint32_t get16(const std::uint8_t* p) { return std::uint32_t(p[0]) << 8 | p[1]; }
std::uint32_t get32(const std::uint8_t* p) { return get16(p) << 16 | get16(p + 2); }
void put16(std::uint8_t* p, std::uint32_t v) {
    p[0] = std::uint8_t(v >> 8);
    p[1] = std::uint8_t(v);
}
void put32(std::uint8_t* p, std::uint32_t v) { put16(p, v >> 16), put16(p + 2, v & 0xFFFF); }

// RFC 1071, folded (not complemented).
std::uint32_t sum16(const std::uint8_t* p, std::size_t n, std::uint32_t sum = 0) {
    for (std::size_t i = 0; i + 1 < n; i += 2) sum += get16(p + i);
    if (n & 1) sum += std::uint32_t(p[n - 1]) << 8;
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return sum;
}
// The TCP pseudo-header sum of an IPv4 header at `ip` for `tcp_len` bytes of TCP.
std::uint32_t pseudo_sum(const std::uint8_t* ip, std::uint32_t tcp_len) {
    return sum16(ip + 12, 8, 6 + tcp_len);
}

std::uint8_t payload_byte(std::uint32_t seq) { return static_cast<std::uint8_t>(seq * 7 + 3); }

// A frame as the stack hands it over: Ethernet, IPv4 (IHL 5) and TCP (20 bytes) headers and
// `payload` bytes whose value follows their sequence number, at `addr` in host memory, with
// the struct sk_buff 256 bytes below.  Checksum offload (CHECKSUM_HW): the IP checksum filled
// in and the TCP checksum seeded with the pseudo-header sum, as the stack leaves them.
Skb tcp_skb(HostMemory& mem, std::uint64_t addr, std::uint32_t payload, std::uint32_t seq,
            std::uint16_t ip_id, std::uint32_t mss, bool checksum_offload) {
    std::vector<std::uint8_t> f(kHeader + payload, 0);
    const std::uint8_t mac[12] = {0, 0x1b, 0x21, 0, 0, 2, 0, 0x1b, 0x21, 0, 0, 1};
    std::memcpy(f.data(), mac, 12);
    put16(&f[12], 0x0800);
    std::uint8_t* ip = &f[14];
    ip[0] = 0x45;
    put16(ip + 2, 40 + payload);
    put16(ip + 4, ip_id);
    put16(ip + 6, 0x4000);  // DF
    ip[8] = 64;
    ip[9] = 6;
    put32(ip + 12, 0x0a000001);
    put32(ip + 16, 0x0a000002);
    put16(ip + 10, ~sum16(ip, 20) & 0xFFFF);
    std::uint8_t* tcp = ip + 20;
    put16(tcp, 40000);
    put16(tcp + 2, 12865);
    put32(tcp + 4, seq);
    put32(tcp + 8, 1);
    tcp[12] = 5 << 4;
    tcp[13] = 0x19;  // ACK, PSH and FIN: PSH and FIN belong on the last segment only
    put16(tcp + 14, 0xFFFF);
    for (std::uint32_t i = 0; i < payload; ++i) tcp[20 + i] = payload_byte(seq + i);
    if (checksum_offload) put16(tcp + 16, pseudo_sum(ip, 20 + payload));
    mem.write(addr, f.data(), f.size());
    Skb skb;
    skb.data = skb.head = addr;
    skb.meta = addr - 256;
    skb.len = static_cast<std::uint32_t>(f.size());
    skb.header_len = kHeader;
    skb.tso_mss = mss;
    skb.checksum_offload = checksum_offload || mss > 0;
    return skb;
}

// The process-context loop of the test: hand the driver its skbs in order.
struct Sender : CpuSoftware {
    E1000Driver* driver = nullptr;
    std::deque<Skb> skbs;
    bool has_work() const override { return !skbs.empty() && !driver->queue_stopped(); }
    void start() override { driver->configure_tx(); }
    void run_once() override {
        if (driver->xmit_frame(skbs.front()) == E1000Driver::TxResult::Ok) skbs.pop_front();
    }
    void interrupt() override { driver->intr(); }
    void timer() override { driver->watchdog_timer(); }
};

struct WireFrame {
    std::vector<std::uint8_t> bytes;
    FrameTimeline times;
};

// A CPU, host bridge, bus and NIC as the athlon 64/66 scenario builds them (no bridges), with
// the driver on port 0 and every frame that leaves the wire kept.
struct Rig {
    Scenario scenario;
    PlatformConfig config;
    HostMemory memory;
    HostBridge host;
    PciBus bus;
    BridgeFace face;
    Cpu cpu;
    std::unique_ptr<E1000> nic;
    std::unique_ptr<E1000Driver> driver;
    Sender sender;
    std::vector<WireFrame> wire;
    unsigned freed = 0;

    explicit Rig(const std::vector<std::string>& sets)
        : scenario(Scenario::load(test::scenario_path("athlon-64-66-82546gb"), sets)),
          config(PlatformConfig::from(scenario)),
          memory(config.host.memory_bytes),
          host("host", config.host),
          bus("bus", config.bus),
          face("face", config.segment_face(), bus, host),
          cpu("cpu", config.cpu, host, memory) {
        REQUIRE(config.bridges.empty());
        host.bind_mmio(face, config.host.mmio_down_ps, config.host.mmio_up_ps);
        nic = std::make_unique<E1000>("nic", e1000::params_of(*config.topology.nics.at(0).spec), bus, memory, kBar,
                                      std::vector<InterruptSink*>{&cpu, nullptr});
        nic->set_frame_timeline_observer(
            [this](unsigned, const std::uint8_t* f, unsigned len, const FrameTimeline& t) {
                wire.push_back({std::vector<std::uint8_t>(f, f + len), t});
            });
        driver = std::make_unique<E1000Driver>(config.driver, kBar, kRing,
                                               [this](const Skb&) { ++freed; });
        sender.driver = driver.get();
    }
    void run(std::deque<Skb> skbs, double us = 2000) {
        sender.skbs = std::move(skbs);
        cpu.run(&sender, 0);
        sc_core::sc_start(sc_core::sc_time(us, sc_core::SC_US));
    }
    std::uint64_t offload(const char* key) const {
        return nic_stats(*nic)["offload"][key].get<std::uint64_t>();
    }
};

// Checks every frame of one TSO skb sent as `frames` (its header at `skb` in `mem` as built,
// before the driver touched it): header replicated, IP ids and sequence numbers continuous,
// lengths, flags, both checksums, and the payload bytes in order.
void check_segments(const std::vector<WireFrame>& frames, std::size_t first, std::uint32_t payload,
                    std::uint32_t mss, std::uint32_t seq0, std::uint16_t id0) {
    const std::size_t n = (payload + mss - 1) / mss;
    REQUIRE(frames.size() >= first + n);
    std::uint32_t seq = seq0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::vector<std::uint8_t>& f = frames[first + k].bytes;
        const std::uint32_t part = std::min(mss, payload - static_cast<std::uint32_t>(k) * mss);
        INFO("segment " << k << " of " << n);
        REQUIRE(f.size() == kHeader + part);
        const std::uint8_t* ip = f.data() + 14;
        const std::uint8_t* tcp = ip + 20;
        CHECK(get16(f.data() + 12) == 0x0800);
        CHECK(get16(ip + 2) == 40 + part);                        // total length
        CHECK(get16(ip + 4) == ((id0 + k) & 0xFFFF));             // identification +1
        CHECK(sum16(ip, 20) == 0xFFFF);                           // IP header checksum
        CHECK(get32(tcp + 4) == seq);                             // sequence continues
        CHECK((tcp[13] & 0x09) == (k + 1 == n ? 0x09 : 0));       // PSH, FIN on the last only
        CHECK((tcp[13] & 0x10) == 0x10);                          // ACK on all
        CHECK(sum16(tcp, 20 + part, pseudo_sum(ip, 20 + part)) == 0xFFFF);  // TCP checksum
        bool payload_ok = true;
        for (std::uint32_t i = 0; i < part; ++i) payload_ok &= tcp[20 + i] == payload_byte(seq + i);
        CHECK(payload_ok);
        seq += part;
    }
}

}  // namespace

TEST_CASE("tso: a TSO frame of N payload bytes leaves as ceil(N/MSS) frames with the header "
          "replicated and the IP and TCP fields updated", "[tso]") {
    // A 48 KB transmit FIFO holds every segment: no read is cut for want of room.
    Rig rig({"driver.tso=true", "nic.pba_rx_kb=16"});
    const std::uint32_t payload = 20000, mss = 1448;
    Skb skb = tcp_skb(rig.memory, kSkbArea, payload, 1000000, 7, mss, false);
    rig.run({skb});
    const std::size_t n = (payload + mss - 1) / mss;
    REQUIRE(rig.wire.size() == n);
    check_segments(rig.wire, 0, payload, mss, 1000000, 7);
    std::size_t bytes = 0;
    for (const WireFrame& f : rig.wire) bytes += f.bytes.size();
    CHECK(bytes == payload + n * kHeader);  // the payload plus the replicated headers
    // 20054 bytes in 4 KB data descriptors, the last 4 in a sentinel, after one context.
    CHECK(rig.driver->counters().descriptors == 1 + 5 + 1);
    CHECK(rig.driver->counters().context_descriptors == 1);
    CHECK(rig.offload("tso_packets") == 1);
    CHECK(rig.offload("tso_segments") == n);
    CHECK(nic_stats(*rig.nic)["data_reads"] == 6);  // as much of a descriptor as possible
    CHECK(rig.freed == 1);                       // cleaned up after its write-back
    // Each segment leaves only once all its bytes are in the FIFO (store-and-forward).
    for (const WireFrame& f : rig.wire) {
        CHECK(f.times.data_in <= f.times.committed);
        CHECK(f.times.committed <= f.times.wire_start);
    }
}

TEST_CASE("tso: TSO frames in a row are continuous on the wire, each after a context "
          "descriptor of its own as 2.6.9 writes them", "[tso]") {
    Rig rig({"driver.tso=true"});
    const std::uint32_t payload = 8 * 1448, mss = 1448;
    std::deque<Skb> skbs;
    for (unsigned i = 0; i < 3; ++i)
        skbs.push_back(tcp_skb(rig.memory, kSkbArea + i * 0x10000, payload, 5000 + i * payload,
                               static_cast<std::uint16_t>(100 + i * 8), mss, false));
    // A shorter one, its payload length in its own context.
    skbs.push_back(tcp_skb(rig.memory, kSkbArea + 3 * 0x10000, 3000, 5000 + 3 * payload, 124, mss,
                           false));
    rig.run(skbs);
    REQUIRE(rig.wire.size() == 3 * 8 + 3);
    // Each frame's segments; the stack numbered the frames so that ids and sequence numbers
    // continue from one frame's segments to the next's.
    for (unsigned i = 0; i < 3; ++i)
        check_segments(rig.wire, i * 8, payload, mss, 5000 + i * payload,
                       static_cast<std::uint16_t>(100 + i * 8));
    check_segments(rig.wire, 24, 3000, mss, 5000 + 3 * payload, 124);
    // One per skb, although the first three carry the same context (e1000_tso writes one for
    // every TSO skb).
    CHECK(rig.driver->counters().context_descriptors == 4);
    CHECK(rig.offload("context_descriptors") == 4);
    CHECK(rig.offload("tso_packets") == 4);
    CHECK(rig.freed == 4);
}

TEST_CASE("tso: with checksum offload alone the NIC fills the TCP checksum of each frame, "
          "each after a context descriptor", "[tso]") {
    Rig rig({});
    std::deque<Skb> skbs;
    for (unsigned i = 0; i < 5; ++i)
        skbs.push_back(tcp_skb(rig.memory, kSkbArea + i * 0x1000, 1000 + i * 100, 77 + i * 5000,
                               static_cast<std::uint16_t>(i), 0, true));
    rig.run(skbs);
    REQUIRE(rig.wire.size() == 5);
    for (unsigned i = 0; i < 5; ++i) {
        const std::vector<std::uint8_t>& f = rig.wire[i].bytes;
        REQUIRE(f.size() == kHeader + 1000 + i * 100);
        const std::uint8_t* ip = f.data() + 14;
        CHECK(sum16(ip, 20) == 0xFFFF);
        CHECK(sum16(ip + 20, f.size() - 34, pseudo_sum(ip, f.size() - 34)) == 0xFFFF);
        CHECK(get32(ip + 24) == 77 + i * 5000);
    }
    CHECK(rig.driver->counters().context_descriptors == 5);  // e1000_tx_csum: one per skb
    CHECK(rig.driver->counters().descriptors == 5 * 2);
    CHECK(rig.offload("checksum_packets") == 5);
    CHECK(rig.offload("tso_packets") == 0);
}

// 30054 B at 4 MSS (4000 B) per data descriptor: 7 of 4000, 2050 and the 4-byte sentinel.
TEST_CASE("tso: a TSO read asks for as much of a descriptor as the FIFO room allows "
          "(nic.tso_fetch descriptor)", "[tso]") {
    Rig rig({"driver.tso=true", "nic.tso_fetch=descriptor", "nic.pba_rx_kb=16"});
    rig.run({tcp_skb(rig.memory, kSkbArea, 30000, 42, 9, 1000, false)});
    REQUIRE(rig.wire.size() == 30);
    check_segments(rig.wire, 0, 30000, 1000, 42, 9);
    CHECK(rig.driver->counters().descriptors == 1 + 9);
    CHECK(nic_stats(*rig.nic)["data_reads"] == 9);
}

TEST_CASE("tso: TSO reads cut at segment ends (nic.tso_fetch segment) send the same bytes in "
          "more reads", "[tso]") {
    Rig rig({"driver.tso=true", "nic.tso_fetch=segment"});
    rig.run({tcp_skb(rig.memory, kSkbArea, 30000, 42, 9, 1000, false)});
    REQUIRE(rig.wire.size() == 30);
    check_segments(rig.wire, 0, 30000, 1000, 42, 9);
    // A read per segment, and one more wherever a descriptor ends inside a segment.
    CHECK(nic_stats(*rig.nic)["data_reads"] >= 30 + 7);
}

TEST_CASE("tso: a TSO skb handed to a driver with driver.tso off is an error", "[tso]") {
    Rig rig({});
    Skb skb = tcp_skb(rig.memory, kSkbArea, 5000, 1, 1, 1448, false);
    CHECK_THROWS_WITH(rig.run({skb}), Catch::Contains("driver.tso is false"));
}

// 64 KB of payload is 45 segments, about four times the 16 KB transmit FIFO of the default
// PBA: segments are reserved as frames leave, reads are cut where the reserved room ends.
TEST_CASE("tso: a TSO frame four times the size of the transmit FIFO goes out whole, its "
          "reads waiting for room", "[tso]") {
    Rig rig({"driver.tso=true"});
    const std::uint32_t payload = 65000, mss = 1448;
    rig.run({tcp_skb(rig.memory, kSkbArea, payload, 3, 500, mss, false)});
    REQUIRE(rig.wire.size() == (payload + mss - 1) / mss);
    check_segments(rig.wire, 0, payload, mss, 3, 500);
    const auto stats = nic_stats(*rig.nic);
    CHECK(stats["ports"][0]["fifo_peak_bytes"].get<unsigned>() <= 16384);
    CHECK(stats["data_reads"].get<unsigned>() > 17);  // more than one per buffer: cut for room
    CHECK(stats["mean_per_packet_ns"]["fifo_wait"].get<double>() > 0);
    CHECK(rig.freed == 1);
}

}  // namespace test_e1000_tso
