#include "e1000/e1000_port.h"

#include <stdexcept>
#include <string>

namespace pcisim::e1000 {

Port::Port(sc_core::sc_module_name name, unsigned index, const E1000Params& params, DmaMemory& mem,
           InterruptSink* irq, const FrameObserver& observer, Eeprom& eeprom)
    : sc_module(name), index_(index), params_(params),
      fifo_(params.tx_fifo_bytes(params.pba_rx_kb)),
      mac_("mac", index, params, fifo_, observer),
      irq_("interrupts", irq),
      eeprom_(eeprom),
      phy_(params.traits.identity, params.link_mbps()),
      tx_(this->name(), index, params, mem, fifo_, mac_, irq_, statistics_),
      rx_(std::string(this->name()) + ".rx", index, params, mem, irq_, statistics_, filter_),
      control_(index, params, eeprom, phy_, irq_, [this] { reset(); },
               [this] { load_station_address(); }),
      pba_{params.pba_rx_kb} {
    SC_HAS_PROCESS(Port);
    SC_METHOD(finish_packet);
    sensitive << tx_.finishing_done();
    dont_initialize();
    map_registers();
    load_station_address();
    mac_.set_ipgt(tipg_.ipgt());
    mac_.on_frame_sent([this](std::vector<std::uint8_t>&& frame) {
        statistics_.frame_sent(frame.data(), static_cast<std::uint32_t>(frame.size()));
        tx_.frame_sent(std::move(frame));
    });
    mac_.on_room_freed([this] { tx_.kick(); });
    // Frames already in the FIFO at time zero (nic.preload_*): the MAC sends them once
    // TCTL.EN is set, as if the FIFO pointers had been rewound over them.
    for (unsigned i = 0; i < params.preload_packets; ++i) {
        fifo_.reserve(params.preload_bytes);
        mac_.enqueue(std::vector<std::uint8_t>(params.preload_bytes, 0), FrameTimeline{});
    }
}

// The port's registers (SDM 13.4): its own, then each part's.
void Port::map_registers() {
    RegisterFile& r = registers_;
    control_.map_registers(r);
    r.add(kTipg, "TIPG", [this] { return tipg_.value; }, [this](std::uint32_t v) {
        tipg_ = Tipg{v};
        mac_.set_ipgt(tipg_.ipgt());
    });
    r.add(kPba, "PBA", [this] { return pba_.value; }, [this](std::uint32_t v) {
        pba_ = Pba{v};
        fifo_.set_capacity(params_.tx_fifo_bytes(pba_.rx_kb()));
        rx_.set_rx_kb(pba_.rx_kb());
    });
    irq_.map_registers(r);
    tx_.map_registers(r);
    rx_.map_registers(r);
    statistics_.map_registers(r, [this] { mac_.catch_up(); });
    filter_.map_registers(r);
}

// An 82546's second function answers to the EEPROM's address with its last bit flipped (as the
// Linux driver computes it, e1000_read_mac_addr).
void Port::load_station_address() {
    MacAddress station = eeprom_.mac();
    if (index_ == 1) station[5] ^= 1;
    filter_.reset(station);
}

void Port::reset() {
    mac_.catch_up();
    if (fifo_.used() != 0 || tx_.busy() || !rx_.idle())
        throw std::runtime_error(std::string(name()) +
                                 ": CTRL.RST while the port still has DMA or frames in flight "
                                 "(dropping them is not modelled); disable TCTL and RCTL and "
                                 "wait for them first, as the Linux driver does (e1000_reset_hw)");
    control_.reset();
    irq_.reset();
    tx_.reset();
    tipg_ = Tipg{8};
    mac_.set_ipgt(tipg_.ipgt());
    pba_ = Pba{params_.pba_rx_kb};
    fifo_.set_capacity(params_.tx_fifo_bytes(pba_.rx_kb()));
    statistics_.clear();
    rx_.reset();
    rx_.set_rx_kb(pba_.rx_kb());
}

// The engines take turns at the port's one read: the one that did not read last goes first.
bool Port::next_read(ReadRequest& out) {
    // The receive side is asked once: a transmit side that reads nothing changes nothing it
    // looks at.
    const bool rx_asked = rx_reads_first_;
    if (rx_asked && rx_.next_read(out)) {
        rx_reads_first_ = false;
        return true;
    }
    if (tx_.next_read(out)) {
        rx_reads_first_ = true;
        return true;
    }
    return !rx_asked && rx_.next_read(out);
}

void Port::read_finished(const ReadRequest& r, const DmaStats&) {
    if (r.kind == ReadKind::RxDescriptors) return rx_.read_finished(r);
    tx_.read_finished(r);
}

void Port::write_finished(std::uint64_t cookie, const DmaStats&) {
    if (cookie & RxPort::kCookieBit) return rx_.write_finished(cookie);
    tx_.write_finished(cookie);
}

void Port::reset_stats() {
    mac_.reset_stats();
    irq_.reset_stats();
    tx_.reset_stats();
    rx_.reset_stats();
}

}  // namespace pcisim::e1000
