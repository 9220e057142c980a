// The e1000 as a guest driver sees it: Linux 2.6.9's PCI core, e1000_probe and e1000_open
// replayed access by access (guest_linux269.h) against the TLM-2.0 component behind a PCI host
// bridge, for an 82540, an 82544 and an 82546 (both functions); then frames sent and received
// through the rings the driver set up, with the filters and statistics the driver configured.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <boost/crc.hpp>

#include "core/sim_time.h"
#include "e1000/e1000_device_regs.h"
#include "e1000/e1000_regs.h"
#include "guest_linux269.h"
#include "nic_stats.h"
#include "platform/host_memory.h"
#include "tlm/e1000_tlm.h"
#include "tlm/tlm_memory.h"
#include "tlm/tlm_pci_host.h"
#include "tlm/tlm_router.h"

namespace test_guest_bringup {

using namespace pcisim;
using namespace pcisim::e1000;

namespace {

constexpr std::uint64_t kPciMemory = 0xE0000000, kPciMemoryBytes = 0x18000000;
constexpr std::uint64_t kConfig = 0xF8000000, kIoWindow = 0xF9000000;
constexpr std::uint64_t kRegisterBar = 0xF0000000;
constexpr std::uint32_t kIoBar = 0x2000;
constexpr unsigned kSlot = 3;

// A CPU's view of a PC with the NIC in slot 3: memory from 0, PCI memory, ECAM and I/O windows.
struct GuestBench : sc_core::sc_module {
    HostMemory memory{1u << 22};
    TlmMemory ram{"ram", memory, {}};
    TlmRouter router{"router", 10000};
    TlmPciHost pci{"pci", 0, kPciMemory, 0};
    E1000Tlm nic;
    sc_core::sc_vector<sc_core::sc_signal<bool>> irq;
    tlm_utils::simple_initiator_socket<sc_core::sc_module> cpu{"cpu"};

    GuestBench(sc_core::sc_module_name name, const E1000Params& params, const E1000TlmConfig& timing = {})
        : sc_module(name), nic("nic", params, timing), irq("irq", params.traits.ports) {
        cpu.bind(router.in);
        nic.dma.bind(router.in);
        router.add_target(ram.socket, 0, memory.size());
        router.add_target(pci.memory, kPciMemory, kPciMemoryBytes);
        router.add_target(pci.config, kConfig, 0x100000);
        router.add_target(pci.io, kIoWindow, 0x10000);
        pci.add_device({kSlot, nic.functions(), &nic.config, E1000Tlm::kConfigBytesPerFunction,
                        &nic.regs, E1000::kBarBytes, &nic.io, E1000Tlm::kIoBytesPerFunction});
        for (unsigned p = 0; p < params.traits.ports; ++p) nic.irq[p].bind(irq[p]);
    }

    test::Linux269E1000 driver(unsigned function) {
        return test::Linux269E1000({&cpu, kConfig, kSlot, function,
                                    kRegisterBar + function * E1000::kBarBytes,
                                    kIoBar + 0x10 * function, kIoWindow});
    }
};

E1000Params part(const std::string& model) {
    E1000Params p = E1000Params::for_model(model);
    p.mac_address = {0x00, 0x0e, 0x0c, 0x12, 0x34, 0x56};
    // The slots of the measured machines: the 82540 in a 32-bit 33 MHz PCI slot, the others in
    // 64-bit PCI-X at 133 MHz.
    p.slot = p.traits.pci_x ? BusSlot{true, 64, 133} : BusSlot{false, 32, 33};
    return p;
}

// The first few problems a replay recorded, and how many there were.
std::string joined(const std::vector<std::string>& v) {
    std::string s = std::to_string(v.size()) + " problems";
    for (std::size_t i = 0; i < v.size() && i < 8; ++i) s += "; " + v[i];
    return s;
}

// Rings and buffers in the guest's memory.
constexpr std::uint64_t kTxRing = 0x10000, kRxRing = 0x20000, kBuffers = 0x100000;
constexpr unsigned kRingSize = 256;

// What the probe and open of one function should find on each part.
struct Expected {
    std::uint16_t device, subsystem;
    bool bar64;
    unsigned io_bar;
    std::uint32_t phy_id;
};
Expected expected_of(const std::string& model) {
    if (model == "82540") return {0x100E, 0x001E, false, 2, 0x01410C20};
    if (model == "82544") return {0x1008, 0x1107, true, 4, 0x01410C30};
    return {0x1010, 0x1011, true, 4, 0x01410C20};
}

// Probe, open and the first watchdog run of every function, each checked; then `traffic` in the
// guest's thread, with the last function's driver.
void bring_up(GuestBench& bench, const std::string& model, const E1000Params& params,
              std::function<void(test::Linux269E1000&, unsigned function)> traffic = {}) {
    const Expected want = expected_of(model);
    std::vector<test::Linux269E1000> drivers;
    std::vector<bool> irq_after_open;
    std::vector<std::uint32_t> icr_after_open;
    sc_core::sc_spawn([&] {
        for (unsigned f = 0; f < params.traits.ports; ++f) {
            test::Linux269E1000 d = bench.driver(f);
            d.pci_scan_and_assign();
            d.e1000_probe();
            std::vector<std::uint64_t> buffers;
            for (unsigned i = 0; i < kRingSize; ++i) {
                const std::uint64_t b = kBuffers + (f * kRingSize + i) * 2048;
                buffers.push_back(b);
                RxDescriptor r{};
                r.buffer_addr = b;
                bench.memory.write(kRxRing + f * 0x1000 + i * 16, &r, 16);
            }
            d.e1000_open(kTxRing + f * 0x1000, kRxRing + f * 0x1000, kRingSize, buffers);
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
            irq_after_open.push_back(bench.irq[f].read());
            icr_after_open.push_back(d.read_icr());  // e1000_intr
            d.e1000_watchdog();
            drivers.push_back(d);
        }
        if (traffic) traffic(drivers.back(), params.traits.ports - 1);
    });
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_SEC));
    REQUIRE(drivers.size() == params.traits.ports);
    for (unsigned f = 0; f < drivers.size(); ++f) {
        const test::Linux269E1000& d = drivers[f];
        INFO(model << " function " << f << ": " << joined(d.problems));
        CHECK(d.problems.empty());
        CHECK(d.register_accesses > 10000);  // the EEPROM is read bit by bit through EECD
        // Both MAC resets went through the I/O BAR (IOADDR, then IODATA).
        CHECK(d.io_accesses == 4);
        // The PCI core's view.
        CHECK(d.vendor_id == 0x8086);
        CHECK(d.device_id == want.device);
        CHECK(d.class_code == 0x020000);
        CHECK(d.subsystem_vendor_id == 0x8086);
        CHECK(d.subsystem_id == want.subsystem);
        CHECK(d.header_type == (params.traits.ports > 1 ? 0x80 : 0x00));
        CHECK(d.interrupt_pin == 1 + f);
        CHECK(d.bar_size[0] == 128 * 1024);
        CHECK_FALSE(d.bar_io[0]);
        CHECK(d.bar_64[0] == want.bar64);
        CHECK(d.bar_io[want.io_bar]);
        CHECK(d.bar_size[want.io_bar] == 8);
        CHECK(d.rom_size == 0);
        // The driver's view.
        CHECK(d.mac_type != test::MacType::unknown);
        CHECK(d.eeprom_words == 64);
        CHECK(d.eeprom_checksum == 0xBABA);
        MacAddress mac = params.mac_address;
        if (f == 1) mac[5] ^= 1;
        CHECK(d.mac_addr == mac);
        CHECK(d.phy_id == want.phy_id);
        CHECK(d.pcix == params.slot.pcix);
        CHECK(d.bus_width == params.slot.width_bits);
        CHECK(d.bus_speed == static_cast<unsigned>(params.slot.clock_mhz));
        CHECK(d.link_up);
        CHECK(d.link_speed == params.link_mbps());
        CHECK(d.full_duplex);
        // The link came up after the PHY reset: LSC, pending since, asserted INTA# when the
        // driver unmasked it, and its interrupt handler read it.
        CHECK(irq_after_open[f]);
        CHECK((icr_after_open[f] & kIcrLsc) != 0);
        // The registers the device has: RA[0] holds the station address, the receiver and
        // transmitter run with the driver's settings.
        const E1000& nic = bench.nic.nic();
        const std::uint64_t base = f * E1000::kBarBytes;
        CHECK(nic.peek_register(base + kRa) ==
              (std::uint32_t(mac[0]) | mac[1] << 8 | mac[2] << 16 | std::uint32_t(mac[3]) << 24));
        CHECK(nic.peek_register(base + kRa + 4) == (mac[4] | mac[5] << 8 | kRahAv));
        CHECK(Rctl{nic.peek_register(base + kRctl)}.en());
        CHECK(Tctl{nic.peek_register(base + kTctl)}.en());
        CHECK(nic.peek_register(base + kRdt) == kRingSize - 16);
        CHECK(nic.peek_register(base + kIms) == (kIcrTxdw | kIcrLsc | 1u << 3 | kIcrRxdmt0 | kIcrRxt0));
        CHECK(nic.config_space(f).bus_master());
    }
    // Everything the driver touched is a register of the part; those whose mechanism the model
    // lacks are named (flow control, wake-up, management, LEDs, receive checksums).
    const std::set<std::string> not_modelled = {"FCAL", "FCAH", "FCT", "FCTTV", "FCRTL", "FCRTH",
                                                "XONRXC", "XONTXC", "XOFFRXC", "XOFFTXC", "FCRUC",
                                                "MGTPRC", "MGTPDC", "MGTPTC", "AIT", "LEDCTL",
                                                "WUC", "MANC", "RXCSUM"};
    const nlohmann::json unimplemented = nic_stats(bench.nic.nic())["unimplemented_register_accesses"];
    CHECK_FALSE(unimplemented.empty());
    for (const auto& u : unimplemented) {
        INFO(u.dump());
        CHECK(not_modelled.count(u["name"].get<std::string>()) == 1);
    }
}

}  // namespace

TEST_CASE("Linux 2.6.9 brings up an 82540: probe and open and the watchdog get every answer they expect",
          "[guest]") {
    GuestBench bench("bench", part("82540"));
    bring_up(bench, "82540", part("82540"));
}

TEST_CASE("Linux 2.6.9 brings up an 82544: probe and open and the watchdog get every answer they expect",
          "[guest]") {
    GuestBench bench("bench", part("82544"));
    bring_up(bench, "82544", part("82544"));
}

TEST_CASE("Linux 2.6.9 brings up both functions of an 82546: probe and open and the watchdog get every "
          "answer they expect", "[guest]") {
    GuestBench bench("bench", part("82546"));
    bring_up(bench, "82546", part("82546"));
}

TEST_CASE("the link comes up at nic.link_mbps: 100 Mb/s reads as such in STATUS and the PHY",
          "[guest]") {
    E1000Params p = part("82540");
    p.byte_time_ps = 80000;  // nic.link_mbps 100
    GuestBench bench("bench", p);
    bring_up(bench, "82540", p);
    CHECK(((bench.nic.nic().peek_register(kStatus) >> kStatusSpeedShift) & 3) == 1);
}

namespace {

using Frame = std::vector<std::uint8_t>;

Frame frame_to(const std::array<std::uint8_t, 6>& dst, const MacAddress& src, unsigned len,
               std::uint8_t fill) {
    Frame f(len, fill);
    std::memcpy(f.data(), dst.data(), 6);
    std::memcpy(f.data() + 6, src.data(), 6);
    f[12] = 0x08, f[13] = 0x00;  // IPv4
    return f;
}

std::uint32_t crc_of(const Frame& f) {
    boost::crc_32_type crc;
    crc.process_bytes(f.data(), f.size());
    return crc.checksum();
}

// After the bring-up: the driver's transmit path (e1000_xmit_frame: legacy descriptors with EOP,
// IFCS, RS and IDE, then TDT) sends four frames; frames arrive from the wire for the station,
// for all (broadcast), for a multicast group before and after the driver hashes it into the MTA
// (e1000_mta_set, RCTL.MO 0), for another station before and after promiscuous mode.
void traffic_after_bring_up(const std::string& model) {
    const E1000Params params = part(model);
    GuestBench bench("bench", params);
    const unsigned f = params.traits.ports - 1;
    MacAddress station = params.mac_address;
    if (f == 1) station[5] ^= 1;
    const std::array<std::uint8_t, 6> broadcast{0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
        group{0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb}, other{0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
    const std::vector<Frame> sent = {frame_to(broadcast, station, 60, 0xA1),
                                     frame_to(other, station, 1000, 0xB2),
                                     frame_to(group, station, 100, 0xC3),
                                     frame_to(other, station, 60, 0xD4)};
    std::vector<Frame> on_wire;
    bench.nic.nic().set_frame_observer([&](unsigned port, const std::uint8_t* frame, unsigned len, Picos) {
        if (port == f) on_wire.emplace_back(frame, frame + len);
    });
    const std::uint64_t tx_ring = kTxRing + f * 0x1000, rx_ring = kRxRing + f * 0x1000;
    struct Arrival {
        Frame frame;
        bool accepted;
    };
    std::vector<Arrival> arrivals;
    std::map<std::uint32_t, std::uint32_t> counters;  // statistics read after the traffic
    std::uint32_t tdh = 0, rdh = 0, icr_tx = 0, icr_rx = 0;
    bring_up(bench, model, params, [&](test::Linux269E1000& d, unsigned) {
        const std::uint32_t txd_cmd = kCmdEop | kCmdIfcs | kCmdRs | kCmdIde;
        for (unsigned i = 0; i < sent.size(); ++i) {
            const std::uint64_t buffer = 0x300000 + i * 2048;
            bench.memory.write(buffer, sent[i].data(), sent[i].size());
            TxDescriptor t{buffer, static_cast<std::uint16_t>(sent[i].size()), 0,
                           static_cast<std::uint8_t>(txd_cmd), 0, 0, 0};
            bench.memory.write(tx_ring + i * 16, &t, 16);
        }
        d.write_register(kTdt, static_cast<std::uint32_t>(sent.size()));
        sc_core::wait(sc_core::sc_time(200, sc_core::SC_US));  // past TIDV
        tdh = d.read_register(kTdh);
        icr_tx = d.read_icr();
        auto arrive = [&](const Frame& frame, bool accepted) {
            bench.nic.nic().receive_frame(f, frame.data(), static_cast<std::uint32_t>(frame.size()));
            arrivals.push_back({frame, accepted});
            sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
        };
        arrive(frame_to(station, other, 60, 0x11), true);
        arrive(frame_to(broadcast, other, 60, 0x22), true);
        arrive(frame_to(group, other, 100, 0x33), false);  // not in the MTA yet
        arrive(frame_to(other, station, 60, 0x44), false);  // another station's
        // e1000_mta_set with e1000_hash_mc_addr, filter type 0: address bits 47:36.
        const unsigned hash = ((group[4] >> 4) | (group[5] << 4)) & 0xFFF;
        const std::uint32_t mta = kMta + 4 * (hash >> 5);
        d.write_register(mta, d.read_register(mta) | 1u << (hash & 31));
        arrive(frame_to(group, other, 100, 0x55), true);
        d.write_register(kRctl, d.read_register(kRctl) | kRctlUpe);  // IFF_PROMISC
        arrive(frame_to(other, station, 1000, 0x66), true);
        rdh = d.read_register(kRdh);
        icr_rx = d.read_icr();
        for (std::uint32_t r : {kGptc, kBptc, kMptc, kTpt, kGotcl, kPtc64, kPtc64 + 4, kPtc64 + 16,
                                0x4074u /* GPRC */, kBprc, kMprc, kTpr, kGorcl, kPrc64, kPrc64 + 4,
                                kPrc64 + 16, 0x4010u /* MPC */})
            counters[r] = d.read_register(r);
    });
    INFO(model);
    // Transmit: the frames left as written, DD came back, TXDW was raised after TIDV.
    REQUIRE(on_wire.size() == sent.size());
    for (unsigned i = 0; i < sent.size(); ++i) CHECK(on_wire[i] == sent[i]);
    CHECK(tdh == sent.size());
    for (unsigned i = 0; i < sent.size(); ++i) {
        TxDescriptor t{};
        bench.memory.read(tx_ring + i * 16, &t, 16);
        CHECK((t.status & kStaDd) != 0);
    }
    CHECK((icr_tx & kIcrTxdw) != 0);
    // Receive: the accepted frames in the ring in order, each with its CRC (RCTL.SECRC clear).
    std::vector<Frame> accepted;
    for (const Arrival& a : arrivals)
        if (a.accepted) accepted.push_back(a.frame);
    CHECK(rdh == accepted.size());
    for (unsigned i = 0; i < accepted.size(); ++i) {
        RxDescriptor r{};
        bench.memory.read(rx_ring + i * 16, &r, 16);
        CHECK((r.status & (kRxStaDd | kRxStaEop)) == (kRxStaDd | kRxStaEop));
        CHECK(r.length == accepted[i].size() + 4);
        Frame in_memory(accepted[i].size() + 4);
        bench.memory.read(r.buffer_addr, in_memory.data(), in_memory.size());
        Frame expected = accepted[i];
        const std::uint32_t crc = crc_of(accepted[i]);
        for (unsigned k = 0; k < 4; ++k) expected.push_back(static_cast<std::uint8_t>(crc >> (8 * k)));
        CHECK(in_memory == expected);
    }
    RxDescriptor beyond{};
    bench.memory.read(rx_ring + accepted.size() * 16, &beyond, 16);
    CHECK(beyond.status == 0);  // nothing for the rejected frames
    CHECK((icr_rx & kIcrRxt0) != 0);
    // The statistics, cleared by the driver's watchdog before the traffic.
    CHECK(counters[kGptc] == 4);
    CHECK(counters[kTpt] == 4);
    CHECK(counters[kBptc] == 1);
    CHECK(counters[kMptc] == 1);
    CHECK(counters[kGotcl] == 64 + 1004 + 104 + 64);
    CHECK(counters[kPtc64] == 2);
    CHECK(counters[kPtc64 + 4] == 1);   // PTC127
    CHECK(counters[kPtc64 + 16] == 1);  // PTC1023
    CHECK(counters[0x4074] == 4);       // GPRC
    CHECK(counters[kBprc] == 1);
    CHECK(counters[kMprc] == 1);
    CHECK(counters[kTpr] == 6);         // every frame that arrived, filtered or not
    CHECK(counters[kGorcl] == 64 + 64 + 104 + 1004);
    CHECK(counters[kPrc64] == 2);
    CHECK(counters[kPrc64 + 4] == 1);   // PRC127
    CHECK(counters[kPrc64 + 16] == 1);  // PRC1023
    CHECK(counters[0x4010] == 0);       // MPC
}

}  // namespace

TEST_CASE("after the Linux bring-up an 82540 sends and receives through the driver's rings", "[guest]") {
    traffic_after_bring_up("82540");
}

TEST_CASE("after the Linux bring-up an 82544 sends and receives through the driver's rings", "[guest]") {
    traffic_after_bring_up("82544");
}

TEST_CASE("after the Linux bring-up an 82546 sends and receives through the driver's rings", "[guest]") {
    traffic_after_bring_up("82546");
}

}  // namespace test_guest_bringup
