#include "e1000/e1000_interrupts.h"

#include <algorithm>

#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

namespace {
constexpr Picos kItrUnit = 256 * kPicosPerNs;  // ITR counts 256 ns
}  // namespace

InterruptLogic::InterruptLogic(sc_core::sc_module_name name, InterruptSink* sink)
    : sc_module(name), sink_(sink) {
    SC_HAS_PROCESS(InterruptLogic);
    SC_METHOD(delay_expired);
    sensitive << txdw_delay_.event();
    dont_initialize();
    SC_METHOD(throttle_expired);
    sensitive << throttle_event_;
    dont_initialize();
    SC_METHOD(rx_delay_expired);
    sensitive << rxt0_delay_.event();
    dont_initialize();
    update_line();
}

void InterruptLogic::map_registers(RegisterFile& r) {
    r.add(kIcr, "ICR", [this] { return read_icr(); },
          [this](std::uint32_t v) { clear(v); },  // 1s clear causes
          [this] { return icr(); });
    r.add(kItr, "ITR", [this] { return itr(); }, [this](std::uint32_t v) { set_itr(Itr{v}); });
    r.add(kIcs, "ICS", nullptr, [this](std::uint32_t v) { raise(v); });
    r.add(kIms, "IMS", [this] { return ims(); }, [this](std::uint32_t v) { set_mask(v); });
    r.add(kImc, "IMC", nullptr, [this](std::uint32_t v) { clear_mask(v); });
    r.add(kTidv, "TIDV", [this] { return txdw_delay_.packet_delay(); },
          [this](std::uint32_t v) { txdw_delay_.set_packet_delay(InterruptDelay{v}.idv()); });
    r.add(kTadv, "TADV", [this] { return txdw_delay_.absolute_delay(); },
          [this](std::uint32_t v) { txdw_delay_.set_absolute_delay(InterruptDelay{v}.idv()); });
    r.add(kRdtr, "RDTR", [this] { return rxt0_delay_.packet_delay(); },
          [this](std::uint32_t v) { rxt0_delay_.set_packet_delay(InterruptDelay{v}.idv()); });
    r.add(kRadv, "RADV", [this] { return rxt0_delay_.absolute_delay(); },
          [this](std::uint32_t v) { rxt0_delay_.set_absolute_delay(InterruptDelay{v}.idv()); });
}

void InterruptLogic::raise(std::uint32_t causes) {
    if (InterruptCauses{causes}.txdw()) txdw_delay_.cancel();  // a TXDW now also reports any delayed one
    if (causes & kIcrRxt0) rxt0_delay_.cancel();  // a receive timer interrupt reports any delayed one
    icr_ |= causes;
    update_line();
}

void InterruptLogic::raise_delayed_rxt0() {
    if (!rxt0_delay_.start(now_ps())) raise(kIcrRxt0);
}

void InterruptLogic::rx_delay_expired() {
    if (rxt0_delay_.expired(now_ps())) raise(kIcrRxt0);
}

void InterruptLogic::set_receive_enabled(bool on) {
    receive_enabled_ = on;
    update_line();
}

void InterruptLogic::raise_delayed_txdw() {
    if (!txdw_delay_.start(now_ps())) raise(kIcrTxdw);
}

void InterruptLogic::delay_expired() {
    if (txdw_delay_.expired(now_ps())) raise(kIcrTxdw);
}

std::uint32_t InterruptLogic::read_icr() {
    std::uint32_t v = icr_;
    icr_ = 0;
    update_line();
    return v;
}

void InterruptLogic::reset() {
    txdw_delay_.reset(), rxt0_delay_.reset(), throttle_event_.cancel();
    icr_ = ims_ = 0;
    itr_ = 0;
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
