// An interrupt delay of the 8254x (SDM 3.4.1 "Transmit interrupts", 3.2.7 "Receive interrupt
// delay"): a packet timer (TIDV, RDTR) that every event restarts, bounded by an absolute timer
// (TADV, RADV) that the first event since the last interrupt starts (0: no bound).  Both count
// 1.024 us.  The interrupt logic has one for TXDW and one for RXT0.
#pragma once

#include <algorithm>
#include <cstdint>

#include <systemc>

#include "core/pci_types.h"
#include "core/sim_time.h"

namespace pcisim::e1000 {

class DelayTimer {
public:
    static constexpr Picos kUnit = 1024 * kPicosPerNs;

    // `event_name` names the timer's event (the interrupt logic's process waits on it).
    explicit DelayTimer(const char* event_name) : event_(event_name) {}

    void set_packet_delay(std::uint32_t units) { packet_ = units; }      // TIDV, RDTR
    void set_absolute_delay(std::uint32_t units) { absolute_ = units; }  // TADV, RADV
    std::uint32_t packet_delay() const { return packet_; }
    std::uint32_t absolute_delay() const { return absolute_; }
    sc_core::sc_event& event() { return event_; }

    // An event that asks for the interrupt (a descriptor written back): false when the packet
    // delay is 0, and the interrupt is due at once.
    bool start(Picos now) {
        if (packet_ == 0) return false;
        Picos packet_deadline = now + packet_ * kUnit;
        if (!absolute_running_ && absolute_ != 0) {
            absolute_running_ = true;
            absolute_deadline_ = now + absolute_ * kUnit;
        }
        deadline_ = absolute_running_ ? std::min(packet_deadline, absolute_deadline_) : packet_deadline;
        pending_ = true;
        if (armed_ > deadline_) {
            event_.cancel();
            event_.notify(ps(deadline_ - now));
            armed_ = deadline_;
        }
        return true;
    }
    // The interrupt was raised: it reports the delayed one too.
    void cancel() {
        pending_ = absolute_running_ = false;
        event_.cancel();
        armed_ = kNotArmed;
    }
    // CTRL.RST: nothing pending, both delays 0.
    void reset() {
        cancel();
        packet_ = absolute_ = 0;
    }
    // The event fired: true when the interrupt is due now, false when later events have moved
    // the deadline (the event is armed again) or nothing is pending.
    bool expired(Picos now) {
        armed_ = kNotArmed;
        if (!pending_) return false;
        if (now < deadline_) {  // restarted by later events: wait on
            event_.notify(ps(deadline_ - now));
            armed_ = deadline_;
            return false;
        }
        return true;
    }

private:
    // When the event is due, if it is (kNotArmed).  A deadline that moves later leaves the event
    // where it is; expired() moves it on.  (Cancelling and notifying anew on every write-back
    // left a dead entry in the kernel's timed-event queue each time: dozens of them at full
    // load, making every timed notification dearer.)
    static constexpr Picos kNotArmed = ~Picos{0};

    std::uint32_t packet_ = 0, absolute_ = 0;
    bool pending_ = false, absolute_running_ = false;
    Picos absolute_deadline_ = 0, deadline_ = 0, armed_ = kNotArmed;
    sc_core::sc_event event_;
};

}  // namespace pcisim::e1000
