// Interrupt cause/mask registers and moderation of one port (8254x SDM 13.4.17-21 ICR/ICS/
// IMS/IMC, 13.4.44/45 TIDV/TADV, 13.4.18 ITR, 3.4.1 "Transmit interrupts").
//   - TXDW from a descriptor written back with IDE set waits TIDV (restarted by every such
//     write-back) but no longer than TADV after the first one (TADV 0: no bound); without IDE
//     it is raised at once, which also delivers any TXDW still being delayed.
//   - RXT0 (3.2.7, 13.4.29/13.4.31): each receive descriptor written back restarts the packet
//     timer RDTR; RXT0 is raised when it expires, or RADV after the first write-back since the
//     last RXT0, whichever is first (RADV 0: no bound).  RDTR 0 raises RXT0 at once.
//   - INTA# is asserted while ICR & IMS != 0, but not sooner than ITR x 256 ns after the
//     previous assertion (ITR 0: no throttling); reading ICR clears it and releases INTA#.
#pragma once

#include <cstdint>

#include <systemc>

#include "e1000/e1000_delay_timer.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"
#include "core/pci_types.h"

namespace pcisim::e1000 {

// The interrupt logic's counter (since the last reset).
struct InterruptStats {
    std::uint64_t interrupts = 0;  // INTA# assertions
};

class InterruptLogic : public sc_core::sc_module {
public:
    InterruptLogic(sc_core::sc_module_name name, InterruptSink* sink);

    // ICR, ICS, IMS, IMC, ITR and the delay registers TIDV, TADV, RDTR, RADV (SDM 13.4).
    void map_registers(RegisterFile& r);
    void raise(std::uint32_t causes);  // immediate (also ICS writes)
    void raise_delayed_txdw();         // a write-back of a descriptor with IDE
    void raise_delayed_rxt0();         // a receive descriptor written back
    // RCTL.EN: the receiver raises RXT0, RXDMT0 and RXO by itself while it runs.
    void set_receive_enabled(bool on);
    std::uint32_t read_icr();          // clear on read
    std::uint32_t icr() const { return icr_; }  // without clearing (debug reads)
    // CTRL.RST: causes, mask, throttling and delays back to their reset values (all 0).
    void reset();
    void clear(std::uint32_t causes);  // ICR write: 1s clear
    std::uint32_t ims() const { return ims_; }
    void set_mask(std::uint32_t bits);    // IMS write
    void clear_mask(std::uint32_t bits);  // IMC write
    void set_itr(Itr v) { itr_ = v.interval(); }
    std::uint32_t itr() const { return itr_; }
    const InterruptStats& stats() const { return stats_; }
    void reset_stats() { stats_ = InterruptStats{}; }

private:
    void delay_expired();     // SC_METHOD on the TXDW delay's event
    void throttle_expired();  // SC_METHOD on throttle_event_
    void rx_delay_expired();  // SC_METHOD on the RXT0 delay's event
    void update_line();  // INTA# from ICR, IMS and ITR, and the promise that follows from them
    void drive_line();

    InterruptSink* sink_;
    InterruptStats stats_;
    std::uint32_t icr_ = 0, ims_ = 0;
    std::uint32_t itr_ = 0;
    DelayTimer txdw_delay_{"delay"};     // TIDV, bounded by TADV
    DelayTimer rxt0_delay_{"rx_delay"};  // RDTR, bounded by RADV
    bool receive_enabled_ = false;
    bool asserted_ = false;
    bool quiet_ = false;  // as last told to the sink (InterruptSink::set_line_quiet)
    bool ever_asserted_ = false;
    Picos last_assertion_ = 0;
    sc_core::sc_event throttle_event_{"throttle"};
};

}  // namespace pcisim::e1000
