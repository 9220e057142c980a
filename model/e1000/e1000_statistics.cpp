#include "e1000/e1000_statistics.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/sim_time.h"

namespace pcisim::e1000 {

NicCounters NicCounters::of(const E1000& nic) {
    NicCounters t;
    t.nic = &nic;
    for (unsigned p = 0; p < nic.ports(); ++p) {
        const Port& port = nic.port(p);
        const TxEngine& tx = port.tx();
        t.descriptor_fetches += tx.ring_stats().descriptor_fetches;
        t.descriptors_fetched += tx.ring_stats().descriptors_fetched;
        t.data_reads += tx.stats().data_reads;
        t.writebacks += tx.writeback_stats().writebacks;
        t.descriptors_written_back += tx.writeback_stats().descriptors_written_back;
        t.interrupts += port.interrupts().stats().interrupts;
        t.tx_frames += port.mac().stats().tx_frames;
        t.tx_bytes += port.mac().stats().tx_bytes;
        t.wire += port.mac().stats().wire;
        t.context_descriptors += tx.stats().context_descriptors;
        t.checksum_packets += tx.stats().checksum_packets;
        t.tso_packets += tx.tso_stats().tso_packets;
        t.tso_segments += tx.tso_stats().tso_segments;
        t.fifo_wait += tx.fifo_wait();
    }
    t.bus = nic.bus_stats();
    t.rx = nic.rx_stats();
    return t;
}

namespace {

using C = NicCounters;

// Time sums divided by tx_frames: the per-packet means.
double mean_ns(const C& c, Picos total) {
    return c.tx_frames ? ps_to_ns(total) / static_cast<double>(c.tx_frames) : 0.0;
}

// An access to a register offset the model does not have or a register it does not act on,
// since construction.
struct UnimplementedAccess {
    unsigned port;
    std::uint32_t offset;
    std::string name;
    std::uint64_t reads, writes;
};

StatGroup<const Port*> port_statistics() {
    StatGroup<const Port*> g;
    g.stat("frames_sent", "count", "Frames the port sent since time zero (not the window).",
           [](const Port* p) { return p->frames_sent(); })
        .stat("fifo_peak_bytes", "bytes", "Most of the TX FIFO in use at once, since time zero.",
              [](const Port* p) { return p->fifo().peak(); })
        .stat("fifo_bytes", "bytes", "The TX FIFO's size (from PBA).",
              [](const Port* p) { return p->fifo().capacity(); });
    return g;
}

StatGroup<UnimplementedAccess> unimplemented_statistics() {
    StatGroup<UnimplementedAccess> g;
    g.stat("port", "", "Port of an access to an offset with no register (since time zero; the "
                       "list is empty when there was none).",
           [](const UnimplementedAccess& a) { return a.port; })
        .stat("offset", "", "The register offset, \"0x00100\".",
              [](const UnimplementedAccess& a) {
                  char hex[16];
                  std::snprintf(hex, sizeof hex, "0x%05X", a.offset);
                  return std::string(hex);
              })
        .stat("name", "", "The register's name when it is one the model does not act on (it "
                          "reads its reset value: \"FCAL\"); empty for an offset with no register.",
              [](const UnimplementedAccess& a) { return a.name; })
        .stat("reads", "count", "Reads of it since time zero.",
              [](const UnimplementedAccess& a) { return a.reads; })
        .stat("writes", "count", "Writes of it since time zero.",
              [](const UnimplementedAccess& a) { return a.writes; });
    return g;
}

StatGroup<const RxPort*> rx_port_statistics() {
    StatGroup<const RxPort*> g;
    g.stat("frames_delivered", "count", "Frames the port delivered since time zero.",
           [](const RxPort* p) { return p->frames_delivered(); })
        .stat("frames_missed", "count", "Frames the port missed since time zero.",
              [](const RxPort* p) { return p->frames_missed(); })
        .stat("fifo_peak_bytes", "bytes", "Most of the RX FIFO in use at once, since time zero.",
              [](const RxPort* p) { return p->fifo_peak(); })
        .stat("fifo_bytes", "bytes", "The RX FIFO's size (PBA.RXA).",
              [](const RxPort* p) { return p->fifo_capacity(); });
    return g;
}

// The receive side's counters (only once a receiver has been enabled).
StatGroup<C> rx_statistics() {
    const std::string n = "count";
    StatGroup<C> g;
    g.stat("frames_arrived", n, "Frames the receivers took from the wire (RCTL.EN set); rx.* only "
                                "once a receiver was enabled.",
           [](const C& c) { return c.rx.frames_arrived; })
        .stat("frames_delivered", n, "Frames written to host memory and written back (DD).",
              [](const C& c) { return c.rx.frames_delivered; })
        .stat("bytes_delivered", "bytes", "Bytes of those frames' data writes (CRC included "
                                          "unless RCTL.SECRC).",
              [](const C& c) { return c.rx.bytes_delivered; })
        .stat("missed_frames", n, "Frames the RX FIFO had no room for (MPC).",
              [](const C& c) { return c.rx.missed(); })
        .stat("missed_no_descriptor", n, "Of those, missed while no receive descriptor was on "
                                         "chip or in host memory (the driver behind).",
              [](const C& c) { return c.rx.missed_no_descriptor; })
        .stat("missed_fifo_full", n, "Of those, missed while descriptors were available (the DMA "
                                     "engine, i.e. the bus, behind).",
              [](const C& c) { return c.rx.missed_fifo_full; })
        .stat("no_buffer_arrivals", n, "Frames that arrived with no receive descriptor available "
                                       "(RNBC), missed or not.",
              [](const C& c) { return c.rx.no_buffer_arrivals; })
        .stat("descriptor_fetches", n, "Receive descriptor DMA reads.",
              [](const C& c) { return c.rx.descriptor_fetches; })
        .stat("descriptors_fetched", n, "Descriptors those reads brought in.",
              [](const C& c) { return c.rx.descriptors_fetched; })
        .stat("data_writes", n, "Packet data DMA writes (one per frame).",
              [](const C& c) { return c.rx.data_writes; })
        .stat("writebacks", n, "Receive descriptor write-back DMA writes.",
              [](const C& c) { return c.rx.writebacks; })
        .stat("descriptors_written_back", n, "Descriptors those writes carried.",
              [](const C& c) { return c.rx.descriptors_written_back; })
        .list<const RxPort*>("ports", rx_port_statistics(), [](const C& c) {
            std::vector<const RxPort*> ports;
            for (unsigned p = 0; p < c.nic->ports(); ++p) ports.push_back(&c.nic->port(p).rx());
            return std::optional(ports);
        });
    return g;
}

StatGroup<C> offload_statistics() {
    const std::string n = "count";
    StatGroup<C> g;
    g.stat("context_descriptors", n, "TCP/IP context descriptors the NICs took; offload.* only "
                                     "once a port saw a context descriptor.",
           [](const C& c) { return c.context_descriptors; })
        .stat("tso_packets", n, "TSO packets (DCMD.TSE) the NICs started to segment.",
              [](const C& c) { return c.tso_packets; })
        .stat("tso_segments", n, "Frames those packets were cut into, each with the header "
                                 "replicated (counted when their data is in).",
              [](const C& c) { return c.tso_segments; })
        .stat("checksum_packets", n, "Packets without TSO whose IP or TCP checksum the NIC "
                                     "inserted (POPTS).",
              [](const C& c) { return c.checksum_packets; });
    return g;
}

StatGroup<C> counter_statistics() {
    const std::string n = "count";
    StatGroup<C> g;
    g.stat("model", "", "The NIC model (nic.model).", [](const C& c) { return c.nic->params().model; })
        .stat("descriptor_fetches", n, "Descriptor DMA reads.",
              [](const C& c) { return c.descriptor_fetches; })
        .stat("descriptors_fetched", n, "Descriptors those reads brought in.",
              [](const C& c) { return c.descriptors_fetched; })
        .stat("data_reads", n, "Packet data DMA reads (one per buffer).",
              [](const C& c) { return c.data_reads; })
        .stat("writebacks", n, "Descriptor write-back DMA writes.",
              [](const C& c) { return c.writebacks; })
        .stat("descriptors_written_back", n, "Descriptors those writes carried.",
              [](const C& c) { return c.descriptors_written_back; })
        .stat("interrupts", n, "INTA# assertions.", [](const C& c) { return c.interrupts; })
        .stat("tx_frames", n, "Frames the MACs finished sending.",
              [](const C& c) { return c.tx_frames; })
        .stat("tx_bytes", "bytes", "Frame bytes sent, without preamble, FCS and gap.",
              [](const C& c) { return c.tx_bytes; })
        .stat("bus_transactions_in_window", n,
              "Bus transactions of the NIC's own DMA (sums of its requests' DmaStats).",
              [](const C& c) { return c.bus.transactions; })
        .stat("bus_retries_in_window", n, "Retry terminations of the NIC's DMA reads.",
              [](const C& c) { return c.bus.retries; })
        .stat("bus_disconnects_in_window", n, "Disconnects of the NIC's DMA transactions.",
              [](const C& c) { return c.bus.disconnects; })
        .stat("bus_preemptions_in_window", n,
              "The NIC's bursts cut by the latency timer (GNT# taken away).",
              [](const C& c) { return c.bus.preemptions; })
        .stat("mean_per_packet_ns.descriptor", "ns",
              "Descriptor reads, issue to last byte, summed and divided by tx_frames.",
              [](const C& c) { return mean_ns(c, c.bus.descriptor_fetch); })
        .stat("mean_per_packet_ns.arbitration", "ns",
              "REQ# to FRAME# of all the NIC's requests, per frame.",
              [](const C& c) { return mean_ns(c, c.bus.arbitration); })
        .stat("mean_per_packet_ns.overhead", "ns",
              "Address, attribute, decode and turnaround clocks of all the NIC's requests, per "
              "frame.",
              [](const C& c) { return mean_ns(c, c.bus.overhead); })
        .stat("mean_per_packet_ns.read_latency", "ns",
              "Waiting for read data (retries and back-off, split wait) of descriptor and data "
              "reads, per frame.",
              [](const C& c) { return mean_ns(c, c.bus.read_latency); })
        .stat("mean_per_packet_ns.data_phases", "ns",
              "Data phases (with target wait states) of all the NIC's requests, per frame.",
              [](const C& c) { return mean_ns(c, c.bus.data_phases); })
        .stat("mean_per_packet_ns.fifo_wait", "ns",
              "Packets ready to fetch but waiting for TX FIFO room, per frame.",
              [](const C& c) { return mean_ns(c, c.fifo_wait); })
        .stat("mean_per_packet_ns.wire", "ns",
              "Frame, preamble, FCS and inter-packet gap, per frame.",
              [](const C& c) { return mean_ns(c, c.wire); })
        .list<const Port*>("ports", port_statistics(), [](const C& c) {
            std::vector<const Port*> ports;
            for (unsigned p = 0; p < c.nic->ports(); ++p) ports.push_back(&c.nic->port(p));
            return std::optional(ports);
        })
        .list<UnimplementedAccess>("unimplemented_register_accesses", unimplemented_statistics(),
                                   [](const C& c) {
            std::vector<UnimplementedAccess> list;
            for (unsigned p = 0; p < c.nic->ports(); ++p)
                for (const auto& [offset, a] : c.nic->port(p).registers().unimplemented())
                    list.push_back({p, offset, a.name, a.reads, a.writes});
            return std::optional(list);
        })
        .group<C>("rx", rx_statistics(), [](const C& c) {
            return c.nic->receive_used() ? std::optional(c) : std::nullopt;
        })
        .group<C>("offload", offload_statistics(), [](const C& c) {
            return c.nic->offloads_used() ? std::optional(c) : std::nullopt;
        });
    return g;
}

}  // namespace

const StatGroup<NicCounters>& statistics() {
    static const StatGroup<NicCounters> g = counter_statistics();
    return g;
}

}  // namespace pcisim::e1000
