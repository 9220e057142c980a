// One port of an 8254x, wired from its parts: the register block (RegisterFile, which each part
// fills with its own registers), the TX FIFO and the MAC, the interrupt logic, the transmit
// engine (TxEngine: ring, FIFO room, TSO path, write-back, commit-ahead), the receive engine
// (RxPort) with its address filters, the statistics registers, the PHY and the device control
// block (DeviceControl: CTRL with its resets, STATUS, the EEPROM's and the PHY's registers).
// The engines share the interrupt logic and the port's one outstanding read: when both want to
// read, they take turns.  The port holds the registers that belong to no one engine: PBA (which
// splits the packet buffer between the FIFOs) and TIPG (the MAC's gap).
#pragma once

#include <cstdint>

#include <systemc>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_device_control.h"
#include "e1000/e1000_eeprom.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_mac_wire.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_phy.h"
#include "e1000/e1000_receive_filter.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"
#include "e1000/e1000_rx_port.h"
#include "e1000/e1000_statistics_registers.h"
#include "e1000/e1000_tx_engine.h"
#include "e1000/e1000_tx_fifo.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

class Port : public sc_core::sc_module, public DmaClient {
public:
    // `eeprom` is the part's, shared by its ports.
    Port(sc_core::sc_module_name name, unsigned index, const E1000Params& params, DmaMemory& mem,
         InterruptSink* irq, const FrameObserver& observer, Eeprom& eeprom);

    void attach(BusInterface* bus) {
        tx_.attach(bus);
        rx_.attach(bus);
    }
    std::uint32_t read_register(std::uint32_t offset) { return registers_.read(offset); }
    void write_register(std::uint32_t offset, std::uint32_t value) {
        registers_.write(offset, value);
    }
    const RegisterFile& registers() const { return registers_; }
    std::uint32_t peek_register(std::uint32_t offset) const { return registers_.peek(offset); }

    bool next_read(ReadRequest& out) override;
    void read_finished(const ReadRequest& r, const DmaStats& s) override;
    void write_finished(std::uint64_t cookie, const DmaStats& s) override;

    std::uint64_t frames_sent() const { return mac_.frames_sent(); }
    double wire_limit_pps(std::size_t frame_bytes) const { return mac_.wire_limit_pps(frame_bytes); }
    // The wire kept lazily (MacWire::set_lazy): catch_up() before reading counters or the FIFO.
    void set_lazy_wire(bool on) { mac_.set_lazy(on); }
    void catch_up() { mac_.catch_up(); }
    const TxFifo& fifo() const { return fifo_; }
    unsigned tdh() const { return tx_.tdh(); }
    unsigned tdt() const { return tx_.tdt(); }
    bool offloads_used() const { return tx_.offloads_used(); }

    const TxEngine& tx() const { return tx_; }
    RxPort& rx() { return rx_; }
    const RxPort& rx() const { return rx_; }
    const MacWire& mac() const { return mac_; }
    const InterruptLogic& interrupts() const { return irq_; }
    const Phy& phy() const { return phy_; }
    const StatisticsRegisters& statistics() const { return statistics_; }
    void reset_stats();

private:
    void map_registers();
    // CTRL.RST: the transmit and receive engines, the interrupt logic, the statistics and the
    // address filters back to their reset state (the PHY and the EEPROM keep theirs).  Throws
    // when the port still has DMA or frames in flight: dropping them is not modelled.
    void reset();
    void load_station_address();  // RA[0] from the EEPROM (reset, CTRL_EXT.EE_RST)
    void finish_packet() { tx_.finish_packet(); }  // SC_METHOD on the engine's finishing event

    unsigned index_;
    const E1000Params& params_;
    TxFifo fifo_;
    MacWire mac_;
    InterruptLogic irq_;
    Eeprom& eeprom_;
    Phy phy_;
    StatisticsRegisters statistics_;
    ReceiveFilter filter_;
    TxEngine tx_;
    RxPort rx_;
    DeviceControl control_;
    bool rx_reads_first_ = false;  // whose turn it is when both engines want to read

    RegisterFile registers_;
    // Reset values: TIPG.IPGT 8 (see docs/e1000.md).
    Tipg tipg_{8};
    Pba pba_;
};

}  // namespace pcisim::e1000
