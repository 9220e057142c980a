// Intel 8254x (e1000) gigabit NIC: the top level that puts the ports behind one
// bus master interface and one memory BAR.  See docs/e1000.md for what is modelled, the
// assumptions, and the per-model differences.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "core/dma_memory.h"
#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_config_space.h"
#include "e1000/e1000_eeprom.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_port.h"
#include "core/pci_types.h"
#include "nic/nic.h"

namespace pcisim {

// The NIC the harness sees (nic/nic.h) is the whole part; a simulation makes it through its
// family (e1000_family.h), the TLM component and tests directly.
class E1000 : public sc_core::sc_module, public BusMaster, public BusTarget, public Nic {
public:
    // A simulation passes e1000::E1000Params::from(scenario); tests build the struct.
    E1000(sc_core::sc_module_name name, const e1000::E1000Params& params, BusPort& bus,
          DmaMemory& mem, std::uint64_t bar_base, std::vector<InterruptSink*> irq_per_port);

    const char* module_name() const override { return basename(); }
    unsigned ports() const { return static_cast<unsigned>(ports_.size()); }
    static constexpr std::uint64_t kBarBytes = 0x20000;  // port p's registers at bar_base + p*kBarBytes

    // The counters of every part since reset_stats() (the statistics that report them are
    // declared in e1000_statistics.h); the register block counts since construction.
    void reset_stats() override;
    // Each port's wire kept lazily (one event per frame fewer); then catch_up() before reading
    // stats, frames sent, the FIFOs or what the frame observer collected.
    void set_lazy_wire(bool on) override;
    void catch_up() override;
    std::uint64_t frames_sent(unsigned port) const override { return ports_.at(port)->frames_sent(); }
    std::uint64_t preloaded_frames() const override { return params_.preload_packets; }
    double wire_limit_pps(unsigned port, std::size_t frame_bytes) const override {
        return ports_.at(port)->wire_limit_pps(frame_bytes);
    }
    NicTransmitState transmit_state(unsigned port) const override;
    NicReceiveState receive_state(unsigned port) const override;
    NicReceiveTotals receive_totals() const override;
    std::string port_module(unsigned port) const override;
    std::string mac_module(unsigned port) const override { return port_module(port) + ".mac"; }
    std::string receive_module(unsigned port) const override { return port_module(port) + ".rx"; }
    // Every frame that has left: its port, its bytes and when its last byte left.
    void set_frame_observer(
        std::function<void(unsigned port, const std::uint8_t* frame, unsigned len, Picos when)> fn);
    // The same with the frame's stages through the NIC (nic/frame_timeline.h); replaces the
    // observer above.
    void set_frame_timeline_observer(FrameObserver fn) override;

    const e1000::E1000Params& params() const { return params_; }
    const e1000::Port& port(unsigned p) const { return *ports_.at(p); }
    // A frame from the wire at port `p` (its last byte is in now); see e1000::RxPort.
    void receive_frame(unsigned p, std::uint32_t len, std::uint32_t seq) override {
        ports_.at(p)->rx().frame_arrived(len, seq);
    }
    // The same with the frame's bytes (no FCS), which the port's address filters judge.
    void receive_frame(unsigned p, const std::uint8_t* frame, std::uint32_t len) {
        ports_.at(p)->rx().frame_arrived(frame, len);
    }

    // What a guest reaches besides the memory BAR: each function's configuration space (port p
    // is function p), the I/O BAR's IOADDR/IODATA window (SDM 13.2: offset 0 selects a register,
    // offset 4 reads or writes it), and the EEPROM the functions share.
    e1000::ConfigSpace& config_space(unsigned function) { return *config_.at(function); }
    const e1000::ConfigSpace& config_space(unsigned function) const { return *config_.at(function); }
    std::uint32_t io_read(unsigned function, std::uint32_t offset);
    void io_write(unsigned function, std::uint32_t offset, std::uint32_t value);
    const e1000::Eeprom& eeprom() const { return *eeprom_; }
    // A register as a read would return it, without the read's side effects (debug access);
    // `offset` from the BAR's base.
    std::uint32_t peek_register(std::uint64_t offset) const;
    // The receive engines' counters, all ports together.
    e1000::RxStats rx_stats() const;
    // The bus outcome of the NIC's own DMA (its bus interface's counters).
    const e1000::BusStats& bus_stats() const { return bus_interface_->stats(); }
    // Whether any port's receiver has been enabled (RCTL.EN) since time zero.
    bool receive_used() const;
    bool offloads_used() const;  // a port saw a context descriptor or a TSO packet

    // BusMaster
    void read_done(std::uint64_t tag, const DmaStats& stats, std::uint32_t dword) override;
    void write_done(std::uint64_t tag, const DmaStats& stats) override;
    // BusTarget: register accesses to the BAR
    TargetOffer offer(const BusTransaction& t, Picos start) override;
    void complete(BusTransaction& t) override;

private:
    e1000::Port& port_at(std::uint64_t addr, std::uint32_t& offset);

    e1000::E1000Params params_;
    std::uint64_t bar_base_;
    FrameObserver observer_;
    std::unique_ptr<e1000::Eeprom> eeprom_;
    std::vector<std::unique_ptr<e1000::ConfigSpace>> config_;
    std::vector<std::uint32_t> io_address_;  // IOADDR of each function
    std::vector<std::unique_ptr<e1000::Port>> ports_;
    std::unique_ptr<e1000::BusInterface> bus_interface_;
};

}  // namespace pcisim
