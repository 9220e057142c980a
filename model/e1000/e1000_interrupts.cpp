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
    update_line();
}

void InterruptLogic::raise(std::uint32_t causes) {
    if (InterruptCauses{causes}.txdw()) {  // a TXDW now also reports any delayed one
        delay_pending_ = tadv_running_ = false;
        delay_event_.cancel();
        delay_armed_ = kNotArmed;
    }
    icr_ |= causes;
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
    // The transmit path raises only TXDW and TXQE (and software ICS writes): with neither
    // unmasked and nothing pending, the line stays low until the mask changes.
    bool quiet = !asserted_ && (ims_ & (icr_ | kIcrTxdw | kIcrTxqe)) == 0;
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
