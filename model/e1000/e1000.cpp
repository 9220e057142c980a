#include "e1000/e1000.h"

#include <string>

#include "core/sim_time.h"
#include "e1000/e1000_device_regs.h"

namespace pcisim {

using namespace e1000;

E1000::E1000(sc_core::sc_module_name name, const E1000Params& params, BusPort& bus,
             DmaMemory& mem, std::uint64_t bar_base, std::vector<InterruptSink*> irq_per_port)
    : sc_module(name), params_(params), bar_base_(bar_base) {
    eeprom_ = std::make_unique<Eeprom>(params_.traits.identity, params_.mac_address);
    io_address_.assign(params_.traits.ports, 0);
    for (unsigned p = 0; p < params_.traits.ports; ++p) {
        InterruptSink* irq = p < irq_per_port.size() ? irq_per_port[p] : nullptr;
        std::string port_name = "port" + std::to_string(p);
        config_.push_back(std::make_unique<ConfigSpace>(params_.traits, p, params_.devsel,
                                                        params_.mmrbc_bytes));
        ports_.push_back(std::make_unique<Port>(port_name.c_str(), p, params_, mem, irq, observer_,
                                                *eeprom_));
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

std::uint32_t E1000::io_read(unsigned function, std::uint32_t offset) {
    if (offset == e1000::kIoAddr) return io_address_.at(function);
    return ports_.at(function)->read_register(io_address_.at(function) & 0x1FFFC);
}

void E1000::io_write(unsigned function, std::uint32_t offset, std::uint32_t value) {
    if (offset == e1000::kIoAddr) io_address_.at(function) = value;
    else ports_.at(function)->write_register(io_address_.at(function) & 0x1FFFC, value);
}

std::uint32_t E1000::peek_register(std::uint64_t offset) const {
    return ports_.at(offset / kBarBytes)->peek_register(static_cast<std::uint32_t>(offset % kBarBytes) & ~3u);
}

void E1000::set_lazy_wire(bool on) {
    for (auto& p : ports_) p->set_lazy_wire(on);
}

void E1000::catch_up() {
    for (auto& p : ports_) p->catch_up();
}

std::string E1000::port_module(unsigned port) const {
    return ports_.at(port)->name();  // as its parts name themselves in the trace
}

NicTransmitState E1000::transmit_state(unsigned port) const {
    const Port& p = *ports_.at(port);
    return {p.tdh(), p.tdt(), p.fifo().used(), p.fifo().capacity()};
}

NicReceiveState E1000::receive_state(unsigned port) const {
    const RxPort& rx = ports_.at(port)->rx();
    NicReceiveState s;
    s.arrived = rx.frames_arrived();
    s.delivered = rx.frames_delivered();
    s.missed = rx.frames_missed();
    s.while_off = rx.frames_while_off();
    s.in_nic = rx.frames_in_nic();
    s.ring_head = rx.rdh();
    s.ring_tail = rx.rdt();
    s.fifo_used = rx.fifo_used();
    s.fifo_capacity = rx.fifo_capacity();
    s.enabled = rx.enabled();
    return s;
}

NicReceiveTotals E1000::receive_totals() const {
    const RxStats s = rx_stats();
    NicReceiveTotals t;
    t.missed_no_descriptor = s.missed_no_descriptor;
    t.missed_fifo_full = s.missed_fifo_full;
    t.no_buffer_arrivals = s.no_buffer_arrivals;
    t.bytes_delivered = s.bytes_delivered;
    t.descriptor_bytes = (s.descriptors_fetched + s.descriptors_written_back) * kDescriptorBytes;
    return t;
}

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

void E1000::reset_stats() {
    for (auto& p : ports_) p->reset_stats();
    bus_interface_->reset_stats();
}

}  // namespace pcisim
