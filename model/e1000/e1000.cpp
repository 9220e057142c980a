#include "e1000/e1000.h"

#include <cstdio>
#include <string>

#include "core/sim_time.h"

namespace pcisim {

using namespace e1000;

E1000::E1000(sc_core::sc_module_name name, const E1000Params& params, BusPort& bus,
             DmaMemory& mem, std::uint64_t bar_base, std::vector<InterruptSink*> irq_per_port)
    : sc_module(name), params_(params), bar_base_(bar_base) {
    for (unsigned p = 0; p < params_.traits.ports; ++p) {
        InterruptSink* irq = p < irq_per_port.size() ? irq_per_port[p] : nullptr;
        std::string port_name = "port" + std::to_string(p);
        ports_.push_back(std::make_unique<Port>(port_name.c_str(), p, params_, mem, irq, observer_));
    }
    MasterConfig config;
    config.name = basename();
    config.width_bits = params_.traits.bus_width_bits;
    config.latency_timer_clocks = 0;  // bus default
    config.mmrbc_bytes = params_.mmrbc_bytes;
    config.max_outstanding_splits = 1;  // each read's MMRBC-sized split requests in turn
    int master = bus.attach_master(this, config);
    bus_interface_ = std::make_unique<BusInterface>(bus, master, params_.one_read_per_device);
    for (auto& p : ports_) {
        bus_interface_->add_client(p.get());
        p->attach(bus_interface_.get());
    }
    bus.attach_target(this, bar_base, ports() * kBarBytes);
}

void E1000::set_frame_observer(
    std::function<void(unsigned, const std::uint8_t*, unsigned, Picos)> fn) {
    observer_ = [fn = std::move(fn)](unsigned port, const std::uint8_t* frame, unsigned len,
                                     const FrameTimeline& times) {
        fn(port, frame, len, times.wire_end);
    };
}

void E1000::set_frame_timeline_observer(FrameObserver fn) { observer_ = std::move(fn); }

void E1000::read_done(std::uint64_t tag, const DmaStats& stats, std::uint32_t) {
    bus_interface_->read_done(tag, stats);
}

void E1000::write_done(std::uint64_t tag, const DmaStats& stats) {
    bus_interface_->write_done(tag, stats);
}

Port& E1000::port_at(std::uint64_t addr, std::uint32_t& offset) {
    std::uint64_t rel = addr - bar_base_;
    offset = static_cast<std::uint32_t>(rel % kBarBytes) & ~3u;
    return *ports_.at(rel / kBarBytes);
}

TargetOffer E1000::offer(const BusTransaction& t, Picos) {
    TargetOffer o;
    o.kind = TargetOffer::Data;
    o.devsel = params_.devsel;
    o.initial_wait_clocks = t.command == BusCommand::MemRead ? params_.mmio_read_wait_clocks
                                                             : params_.mmio_write_wait_clocks;
    return o;
}

void E1000::complete(BusTransaction& t) {
    if (t.termination == Termination::Retry || t.termination == Termination::SplitResponse ||
        t.bytes_done == 0)
        return;
    std::uint32_t offset = 0;
    Port& p = port_at(t.addr, offset);
    if (t.command == BusCommand::MemWrite) p.write_register(offset, t.dword);
    else if (t.command == BusCommand::MemRead) t.dword = p.read_register(offset);
}

void E1000::set_lazy_wire(bool on) {
    for (auto& p : ports_) p->set_lazy_wire(on);
}

void E1000::catch_up() {
    for (auto& p : ports_) p->catch_up();
}

namespace {

// The transmit side's counters, all ports together (each part keeps its own).
struct TxTotals {
    std::uint64_t descriptor_fetches = 0, descriptors_fetched = 0, data_reads = 0, writebacks = 0,
                  descriptors_written_back = 0, interrupts = 0, tx_frames = 0, tx_bytes = 0,
                  context_descriptors = 0, tso_packets = 0, tso_segments = 0,
                  checksum_packets = 0;
    Picos fifo_wait = 0, wire = 0;
};

TxTotals tx_totals(const std::vector<std::unique_ptr<Port>>& ports) {
    TxTotals t;
    for (const auto& p : ports) {
        const TxEngine& tx = p->tx();
        t.descriptor_fetches += tx.ring_stats().descriptor_fetches;
        t.descriptors_fetched += tx.ring_stats().descriptors_fetched;
        t.data_reads += tx.stats().data_reads;
        t.writebacks += tx.writeback_stats().writebacks;
        t.descriptors_written_back += tx.writeback_stats().descriptors_written_back;
        t.interrupts += p->interrupts().stats().interrupts;
        t.tx_frames += p->mac().stats().tx_frames;
        t.tx_bytes += p->mac().stats().tx_bytes;
        t.wire += p->mac().stats().wire;
        t.context_descriptors += tx.stats().context_descriptors;
        t.checksum_packets += tx.stats().checksum_packets;
        t.tso_packets += tx.tso_stats().tso_packets;
        t.tso_segments += tx.tso_stats().tso_segments;
        t.fifo_wait += tx.fifo_wait();
    }
    return t;
}

}  // namespace

RxStats E1000::rx_stats() const {
    RxStats t;
    for (const auto& p : ports_) {
        const RxStats& s = p->rx().stats();
        t.frames_arrived += s.frames_arrived;
        t.frames_delivered += s.frames_delivered;
        t.bytes_delivered += s.bytes_delivered;
        t.missed_no_descriptor += s.missed_no_descriptor;
        t.missed_fifo_full += s.missed_fifo_full;
        t.no_buffer_arrivals += s.no_buffer_arrivals;
        t.descriptor_fetches += s.descriptor_fetches;
        t.descriptors_fetched += s.descriptors_fetched;
        t.data_writes += s.data_writes;
        t.writebacks += s.writebacks;
        t.descriptors_written_back += s.descriptors_written_back;
    }
    return t;
}

nlohmann::json E1000::stats() const {
    const TxTotals s = tx_totals(ports_);
    const BusStats& b = bus_interface_->stats();
    double frames = s.tx_frames ? static_cast<double>(s.tx_frames) : 1.0;
    auto mean_ns = [&](Picos total) { return s.tx_frames ? ps_to_ns(total) / frames : 0.0; };
    nlohmann::json per_port = nlohmann::json::array();
    for (const auto& p : ports_)
        per_port.push_back({{"frames_sent", p->frames_sent()},
                            {"fifo_peak_bytes", p->fifo().peak()},
                            {"fifo_bytes", p->fifo().capacity()}});
    nlohmann::json r = {
        {"model", params_.model},
        {"descriptor_fetches", s.descriptor_fetches},
        {"descriptors_fetched", s.descriptors_fetched},
        {"data_reads", s.data_reads},
        {"writebacks", s.writebacks},
        {"descriptors_written_back", s.descriptors_written_back},
        {"interrupts", s.interrupts},
        {"tx_frames", s.tx_frames},
        {"tx_bytes", s.tx_bytes},
        {"bus_transactions_in_window", b.transactions},
        {"bus_retries_in_window", b.retries},
        {"bus_disconnects_in_window", b.disconnects},
        {"bus_preemptions_in_window", b.preemptions},
        {"mean_per_packet_ns",
         {{"descriptor", mean_ns(b.descriptor_fetch)},
          {"arbitration", mean_ns(b.arbitration)},
          {"overhead", mean_ns(b.overhead)},
          {"read_latency", mean_ns(b.read_latency)},
          {"data_phases", mean_ns(b.data_phases)},
          {"fifo_wait", mean_ns(s.fifo_wait)},
          {"wire", mean_ns(s.wire)}}},
        {"ports", per_port},
        {"unimplemented_register_accesses", unimplemented_register_accesses()},
    };
    if (receive_used()) r["rx"] = rx_stats_json();
    if (offloads_used())
        r["offload"] = {{"context_descriptors", s.context_descriptors},
                        {"tso_packets", s.tso_packets},
                        {"tso_segments", s.tso_segments},
                        {"checksum_packets", s.checksum_packets}};
    return r;
}

bool E1000::offloads_used() const {
    for (const auto& p : ports_)
        if (p->offloads_used()) return true;
    return false;
}

bool E1000::receive_used() const {
    for (const auto& p : ports_)
        if (p->rx().enabled()) return true;
    return false;
}

// The receive side's counters (only once a receiver has been enabled).
nlohmann::json E1000::rx_stats_json() const {
    const RxStats s = rx_stats();
    nlohmann::json per_port = nlohmann::json::array();
    for (const auto& p : ports_)
        per_port.push_back({{"frames_delivered", p->rx().frames_delivered()},
                            {"frames_missed", p->rx().frames_missed()},
                            {"fifo_peak_bytes", p->rx().fifo_peak()},
                            {"fifo_bytes", p->rx().fifo_capacity()}});
    return {{"frames_arrived", s.frames_arrived},
            {"frames_delivered", s.frames_delivered},
            {"bytes_delivered", s.bytes_delivered},
            {"missed_frames", s.missed()},
            {"missed_no_descriptor", s.missed_no_descriptor},
            {"missed_fifo_full", s.missed_fifo_full},
            {"no_buffer_arrivals", s.no_buffer_arrivals},
            {"descriptor_fetches", s.descriptor_fetches},
            {"descriptors_fetched", s.descriptors_fetched},
            {"data_writes", s.data_writes},
            {"writebacks", s.writebacks},
            {"descriptors_written_back", s.descriptors_written_back},
            {"ports", per_port}};
}

std::vector<MetricSpec> E1000::stats_metrics() {
    const std::string in_window = "count";
    return {
        {"model", "", "The NIC model (nic.model)."},
        {"descriptor_fetches", in_window, "Descriptor DMA reads."},
        {"descriptors_fetched", in_window, "Descriptors those reads brought in."},
        {"data_reads", in_window, "Packet data DMA reads (one per buffer)."},
        {"writebacks", in_window, "Descriptor write-back DMA writes."},
        {"descriptors_written_back", in_window, "Descriptors those writes carried."},
        {"interrupts", in_window, "INTA# assertions."},
        {"tx_frames", in_window, "Frames the MACs finished sending."},
        {"tx_bytes", "bytes", "Frame bytes sent, without preamble, FCS and gap."},
        {"bus_transactions_in_window", in_window,
         "Bus transactions of the NIC's own DMA (sums of its requests' DmaStats)."},
        {"bus_retries_in_window", in_window, "Retry terminations of the NIC's DMA reads."},
        {"bus_disconnects_in_window", in_window, "Disconnects of the NIC's DMA transactions."},
        {"bus_preemptions_in_window", in_window,
         "The NIC's bursts cut by the latency timer (GNT# taken away)."},
        {"mean_per_packet_ns.descriptor", "ns",
         "Descriptor reads, issue to last byte, summed and divided by tx_frames."},
        {"mean_per_packet_ns.arbitration", "ns",
         "REQ# to FRAME# of all the NIC's requests, per frame."},
        {"mean_per_packet_ns.overhead", "ns",
         "Address, attribute, decode and turnaround clocks of all the NIC's requests, per frame."},
        {"mean_per_packet_ns.read_latency", "ns",
         "Waiting for read data (retries and back-off, split wait) of descriptor and data reads, "
         "per frame."},
        {"mean_per_packet_ns.data_phases", "ns",
         "Data phases (with target wait states) of all the NIC's requests, per frame."},
        {"mean_per_packet_ns.fifo_wait", "ns",
         "Packets ready to fetch but waiting for TX FIFO room, per frame."},
        {"mean_per_packet_ns.wire", "ns", "Frame, preamble, FCS and inter-packet gap, per frame."},
        {"ports[].frames_sent", "count", "Frames the port sent since time zero (not the window)."},
        {"ports[].fifo_peak_bytes", "bytes", "Most of the TX FIFO in use at once, since time zero."},
        {"ports[].fifo_bytes", "bytes", "The TX FIFO's size (from PBA)."},
        {"unimplemented_register_accesses[].port", "", "Port of an access to an offset with no "
         "register (since time zero; the list is empty when there was none)."},
        {"unimplemented_register_accesses[].offset", "", "The register offset, \"0x00100\"."},
        {"unimplemented_register_accesses[].reads", "count", "Reads of it since time zero."},
        {"unimplemented_register_accesses[].writes", "count", "Writes of it since time zero."},
        {"rx.frames_arrived", in_window, "Frames the receivers took from the wire (RCTL.EN "
         "set); rx.* only once a receiver was enabled."},
        {"rx.frames_delivered", in_window, "Frames written to host memory and written back "
         "(DD)."},
        {"rx.bytes_delivered", "bytes", "Bytes of those frames' data writes (CRC included "
         "unless RCTL.SECRC)."},
        {"rx.missed_frames", in_window, "Frames the RX FIFO had no room for (MPC)."},
        {"rx.missed_no_descriptor", in_window, "Of those, missed while no receive descriptor was "
         "on chip or in host memory (the driver behind)."},
        {"rx.missed_fifo_full", in_window, "Of those, missed while descriptors were available "
         "(the DMA engine, i.e. the bus, behind)."},
        {"rx.no_buffer_arrivals", in_window, "Frames that arrived with no receive descriptor "
         "available (RNBC), missed or not."},
        {"rx.descriptor_fetches", in_window, "Receive descriptor DMA reads."},
        {"rx.descriptors_fetched", in_window, "Descriptors those reads brought in."},
        {"rx.data_writes", in_window, "Packet data DMA writes (one per frame)."},
        {"rx.writebacks", in_window, "Receive descriptor write-back DMA writes."},
        {"rx.descriptors_written_back", in_window, "Descriptors those writes carried."},
        {"rx.ports[].frames_delivered", "count", "Frames the port delivered since time zero."},
        {"rx.ports[].frames_missed", "count", "Frames the port missed since time zero."},
        {"rx.ports[].fifo_peak_bytes", "bytes", "Most of the RX FIFO in use at once, since time "
         "zero."},
        {"rx.ports[].fifo_bytes", "bytes", "The RX FIFO's size (PBA.RXA)."},
        {"offload.context_descriptors", in_window, "TCP/IP context descriptors the NICs "
         "took; offload.* only once a port saw a context descriptor."},
        {"offload.tso_packets", in_window, "TSO packets (DCMD.TSE) the NICs started to segment."},
        {"offload.tso_segments", in_window, "Frames those packets were cut into, each with the "
         "header replicated (counted when their data is in)."},
        {"offload.checksum_packets", in_window, "Packets without TSO whose IP or TCP checksum "
         "the NIC inserted (POPTS)."},
    };
}

// Every port's accesses to offsets with no register, since construction (a register the driver
// relies on that the model lacks); an empty list when there were none.
nlohmann::json E1000::unimplemented_register_accesses() const {
    nlohmann::json list = nlohmann::json::array();
    for (unsigned p = 0; p < ports(); ++p) {
        for (const auto& [offset, n] : ports_[p]->registers().unimplemented()) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "0x%05X", offset);
            list.push_back({{"port", p}, {"offset", hex}, {"reads", n.reads}, {"writes", n.writes}});
        }
    }
    return list;
}

void E1000::reset_stats() {
    for (auto& p : ports_) p->reset_stats();
    bus_interface_->reset_stats();
}

}  // namespace pcisim
