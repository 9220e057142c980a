#include "e1000/e1000_interrupts.h"

#include <algorithm>

#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

namespace {
constexpr Picos kDelayUnit = 1024 * kPicosPerNs;  // TIDV/TADV count 1.024 us
constexpr Picos kItrUnit = 256 * kPicosPerNs;     // ITR counts 256 ns
}  // namespace

InterruptLogic::InterruptLogic(sc_core::sc_module_name name, InterruptSink* sink, TxStats& stats)
    : sc_module(name), sink_(sink), stats_(stats) {
    SC_HAS_PROCESS(InterruptLogic);
    SC_METHOD(delay_expired);
    sensitive << delay_event_;
    dont_initialize();
    SC_METHOD(throttle_expired);
    sensitive << throttle_event_;
    dont_initialize();
    SC_METHOD(rx_delay_expired);
    sensitive << rx_delay_event_;
    dont_initialize();
    update_line();
}

void InterruptLogic::raise(std::uint32_t causes) {
    if (InterruptCauses{causes}.txdw()) {  // a TXDW now also reports any delayed one
        delay_pending_ = tadv_running_ = false;
        delay_event_.cancel();
        delay_armed_ = kNotArmed;
    }
    if (causes & kIcrRxt0) {  // a receive timer interrupt reports any delayed one
        rx_delay_pending_ = radv_running_ = false;
        rx_delay_event_.cancel();
        rx_delay_armed_ = kNotArmed;
    }
    icr_ |= causes;
    update_line();
}

void InterruptLogic::raise_delayed_rxt0() {
    if (rdtr_ == 0) return raise(kIcrRxt0);
    Picos now = now_ps();
    Picos rdtr_deadline = now + rdtr_ * kDelayUnit;
    if (!radv_running_ && radv_ != 0) {
        radv_running_ = true;
        radv_deadline_ = now + radv_ * kDelayUnit;
    }
    rx_delay_deadline_ = radv_running_ ? std::min(rdtr_deadline, radv_deadline_) : rdtr_deadline;
    rx_delay_pending_ = true;
    if (rx_delay_armed_ > rx_delay_deadline_) {
        rx_delay_event_.cancel();
        rx_delay_event_.notify(ps(rx_delay_deadline_ - now));
        rx_delay_armed_ = rx_delay_deadline_;
    }
}

void InterruptLogic::rx_delay_expired() {
    rx_delay_armed_ = kNotArmed;
    if (!rx_delay_pending_) return;
    Picos now = now_ps();
    if (now < rx_delay_deadline_) {  // restarted by later write-backs: wait on
        rx_delay_event_.notify(ps(rx_delay_deadline_ - now));
        rx_delay_armed_ = rx_delay_deadline_;
        return;
    }
    raise(kIcrRxt0);
}

void InterruptLogic::set_receive_enabled(bool on) {
    receive_enabled_ = on;
    update_line();
}

void InterruptLogic::raise_delayed_txdw() {
    if (tidv_ == 0) return raise(kIcrTxdw);
    Picos now = now_ps();
    tidv_deadline_ = now + tidv_ * kDelayUnit;
    if (!tadv_running_ && tadv_ != 0) {
        tadv_running_ = true;
        tadv_deadline_ = now + tadv_ * kDelayUnit;
    }
    delay_deadline_ = tadv_running_ ? std::min(tidv_deadline_, tadv_deadline_) : tidv_deadline_;
    delay_pending_ = true;
    if (delay_armed_ > delay_deadline_) {
        delay_event_.cancel();
        delay_event_.notify(ps(delay_deadline_ - now));
        delay_armed_ = delay_deadline_;
    }
}

void InterruptLogic::delay_expired() {
    delay_armed_ = kNotArmed;
    if (!delay_pending_) return;
    Picos now = now_ps();
    if (now < delay_deadline_) {  // restarted by later write-backs: wait on
        delay_event_.notify(ps(delay_deadline_ - now));
        delay_armed_ = delay_deadline_;
        return;
    }
    raise(kIcrTxdw);
}

std::uint32_t InterruptLogic::read_icr() {
    std::uint32_t v = icr_;
    icr_ = 0;
    update_line();
    return v;
}

void InterruptLogic::reset() {
    delay_event_.cancel(), rx_delay_event_.cancel(), throttle_event_.cancel();
    delay_armed_ = rx_delay_armed_ = kNotArmed;
    delay_pending_ = tadv_running_ = rx_delay_pending_ = radv_running_ = false;
    icr_ = ims_ = 0;
    itr_ = tidv_ = tadv_ = rdtr_ = radv_ = 0;
    receive_enabled_ = false;
    update_line();
}

void InterruptLogic::clear(std::uint32_t causes) {
    icr_ &= ~causes;
    update_line();
}

void InterruptLogic::set_mask(std::uint32_t bits) {
    ims_ |= bits;
    update_line();
}

void InterruptLogic::clear_mask(std::uint32_t bits) {
    ims_ &= ~bits;
    update_line();
}

void InterruptLogic::throttle_expired() { update_line(); }

void InterruptLogic::update_line() {
    drive_line();
    // The transmit path raises only TXDW and TXQE (and software ICS writes), a running receiver
    // RXT0, RXDMT0 and RXO: with none of them unmasked and nothing pending, the line stays low
    // until the mask changes.
    std::uint32_t own = kIcrTxdw | kIcrTxqe | (receive_enabled_ ? kIcrRxt0 | kIcrRxdmt0 | kIcrRxo : 0);
    bool quiet = !asserted_ && (ims_ & (icr_ | own)) == 0;
    if (quiet != quiet_ && sink_) sink_->set_line_quiet(quiet);
    quiet_ = quiet;
}

void InterruptLogic::drive_line() {
    if ((icr_ & ims_) == 0) {
        throttle_event_.cancel();
        if (asserted_) {
            asserted_ = false;
            if (sink_) sink_->set_interrupt(false);
        }
        return;
    }
    if (asserted_) return;
    Picos now = now_ps();
    Picos earliest = last_assertion_ + Picos(itr_) * kItrUnit;
    if (itr_ != 0 && ever_asserted_ && now < earliest) {
        throttle_event_.notify(ps(earliest - now));  // keeps the earlier of two notifications
        return;
    }
    asserted_ = ever_asserted_ = true;
    last_assertion_ = now;
    ++stats_.interrupts;
    trace::emit(TraceStep::Interrupt, TracePhase::Instant, name(), now);
    if (sink_) sink_->set_interrupt(true);
}

}  // namespace pcisim::e1000
