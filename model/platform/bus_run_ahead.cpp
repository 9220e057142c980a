#include "platform/bus_run_ahead.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "core/sim_time.h"
#include "platform/pci_bus.h"

namespace pcisim {

void BusRunAhead::after_request() { maybe_defer_arbitration(); }

void BusRunAhead::after_arbitration() {
    if (bus_.busy_ && bus_.current_->t.termination == Termination::Retry)
        maybe_run_ahead_from_start();
    else
        maybe_defer_arbitration();
}

void BusRunAhead::after_transaction_end() {
    if (bus_.current_->t.termination == Termination::Retry) maybe_run_ahead_from_end();
    if (!ahead_) maybe_defer_arbitration();
}

// The bus's own event: what comes at its time but before it (a retry ending in the clock of the
// arbitration that follows it) runs first, and it must be the real one.
void BusRunAhead::run_up_to_this_event() {
    run_ahead_to(bus_.now_, true);
    if (ahead_) throw std::logic_error(std::string(bus_.name()) + ": run-ahead out of step");
}

// The attempts up to now are run and the events set as they would stand (the caller's
// sync_events hands them to SystemC).  The retried master's own new requests only join its queue.
void BusRunAhead::end_at_request() {
    run_ahead_to(bus_.now_, true);
    stop_running_ahead();
}

// sc_start stops before the events of its end time: those attempts are still to come.
void BusRunAhead::run_before_now() {
    bus_.now_ = now_ps();
    run_ahead_to(bus_.now_, false);
}

// The transactions planned for the run-ahead (nothing has changed since): the deferred
// arbitration's, or the one that ends a retry loop.
bool BusRunAhead::swap_in_planned(int master, Picos start, TransactionPlan*& current) {
    TransactionPlan** slot = nullptr;
    for (TransactionPlan** p : {&deferred_plan_, &loop_end_plan_})
        if ((*p)->t.master == master && (*p)->t.start == start) {
            slot = p;
            break;
        }
    if (!slot) return false;
    if (*slot == loop_end_plan_ && master == ahead_master_) check_promise(*loop_end_plan_);
    // The plan's slot becomes the current one, and the old current's the free one: not copied,
    // as a copy read it back in 16-byte pieces right after it was written field by field, a
    // store-forwarding stall (seen in perf).
    std::swap(current, *slot);
    (*slot)->t.master = -1;
    return true;
}

// The attempt that ends a retry loop was planned from the target's promise
// (TargetOffer::Promise::then_known): the target must answer it that way now.  A target breaking
// its promise would silently change the timing, so this is checked every time (one offer() per
// loop).
void BusRunAhead::check_promise(const TransactionPlan& promised) const {
    TargetOffer real = promised.target->offer(promised.t, promised.t.start);
    const TargetOffer& p = promised.offer;
    if (real.kind != p.kind || real.devsel != p.devsel ||
        real.initial_wait_clocks != p.initial_wait_clocks || real.max_bytes != p.max_bytes ||
        real.first_line_ready != p.first_line_ready || real.line_time != p.line_time ||
        real.line_bytes != p.line_bytes || real.modified != p.modified)
        throw std::logic_error(std::string(bus_.name()) + ": master " +
                               std::to_string(promised.t.master) +
                               " gets a different answer after a retry loop than the target "
                               "promised (TargetOffer::Promise::then_known)");
}

void BusRunAhead::stop_running_ahead() {
    ahead_ = false;
    deferred_plan_->t.master = loop_end_plan_->t.master = -1;
}

Picos BusRunAhead::others_from(int master) const {
    Picos first = kNever;
    for (std::size_t i = 0; i < bus_.masters_.size(); ++i)
        if (static_cast<int>(i) != master && bus_.masters_[i].requesting)
            first = std::min(first, bus_.masters_[i].request_time);
    return first;
}

// A retried master repeats the same attempt after each back-off until the target has its
// data.  When the target says until when (retry_until, or ready_after_end for a read it takes
// at the end of the attempt), only the first repeat at or after that time gets an event; the
// attempts before it run later (run_ahead_to).  Another master asking (now or from a later
// time) ends the loop's run-ahead at the first arbitration it is in.
// Here: a retry of `master` ending at `end` with this answer (started, or still to start).
void BusRunAhead::run_ahead_retries(int master, Picos end, const TargetOffer& offer, bool read) {
    const BusConfig& config = bus_.config_;
    Picos period = bus_.period_;
    // An observer must see every transaction; without a back-off a repeat comes at once; a
    // master with two reads queued tries them in turn (PciBus::take_turns_after_retry).
    if (!bus_.retry_run_ahead_allowed() || config.retry_backoff_clocks == 0 ||
        bus_.reads_take_turns(master))
        return;
    const TargetOffer::Promise& promise = offer.promise;
    Picos until = promise.retry_until ? promise.retry_until
                  : promise.ready_after_end ? end + promise.ready_after_end : 0;
    if (until == 0) return;
    // The loop's first retry has not ended yet: its end, which latches the delayed read and has
    // the host bridge write back the lines it snooped modified, runs late, when a CPU next goes
    // on (Cpu::set_before_running) or at the real event.  That must come before any CPU touches
    // the caches; else the first retry ends with its own event and the loop runs ahead from
    // there (maybe_run_ahead_from_end): the repeats after it neither snoop nor write back.
    if (end > now_ps() && may_latch(offer) && !caches_quiet_through(end)) return;
    Picos first_repeat = end + config.retry_backoff_clocks * period;
    // Each repeat: arbitration parked on the master, the retry, the back-off.
    ahead_retry_ = (bus_.data_start_clock(offer, read) + 1 + config.turnaround_clocks) * period;
    Picos attempt = ahead_retry_ + config.retry_backoff_clocks * period;
    Picos repeats = until > first_repeat ? (until - first_repeat + attempt - 1) / attempt : 0;
    Picos data_arbitration = first_repeat + repeats * attempt;
    // The first arbitration that needs an event, and the repeats before it.
    Picos real = data_arbitration, loop_end = data_arbitration;
    Picos bus_free = 0;  // when the other master's arbitration at `real` is its alone
    Picos others = others_from(master);
    if (others != kNever && others < first_repeat) {
        // In the arbitration after this attempt's end, or when it asks in the back-off.
        loop_end = first_repeat;
        real = std::max(others, end);
        bus_free = end;
    } else if (others != kNever) {
        Picos repeat = first_repeat + (others - first_repeat) / attempt * attempt;
        if (repeat < data_arbitration) {
            if (others == repeat) {
                real = loop_end = repeat;  // in that repeat's arbitration
            } else if (others <= repeat + ahead_retry_) {
                loop_end = repeat;  // asks during that repeat: arbitration after its end
                real = bus_free = repeat + ahead_retry_;
            } else {
                loop_end = repeat + attempt;  // asks in the back-off after it
                real = others;
                bus_free = repeat + ahead_retry_;
            }
        }
    }
    ahead_ = true;
    ahead_master_ = master;
    ahead_until_ = real;
    ahead_real_end_ = false;
    ahead_first_repeat_ = first_repeat;
    ahead_loop_end_ = loop_end;
    loop_end_plan_->t.master = -1;
    if (bus_free)
        plan_other_after_loop(master, real, bus_free);
    else if (promise.then_known && real == data_arbitration)
        plan_data_after_loop(master, until, offer, others);
}

// A retry's end changes nothing at its target when the target promised the same Retry until
// later (Promise::retry_until: a delayed read already latched); otherwise it may latch one.
bool BusRunAhead::may_latch(const TargetOffer& retry) { return retry.promise.retry_until == 0; }

// No CPU touches its cache up to `last`: a step held back until then (run late, but before the
// CPU next goes on) or a target asked early (a planned transaction's snoop of its first lines)
// sees the caches as it would have in time.  Equal times are not enough: the CPU's thread and
// the bus's may run in either order within them.
bool BusRunAhead::caches_quiet_through(Picos last) const {
    return !bus_.caches_quiet_until_ || last < bus_.caches_quiet_until_();
}

// The loop ends in an arbitration that another master has to itself (the retried one is
// backing off): its transaction is planned now, and only its end needs an event, when it
// cannot be cut short (one data phase: the retried master asks again during it).
void BusRunAhead::plan_other_after_loop(int master, Picos at, Picos bus_free) {
    const auto& masters = bus_.masters_;
    int other = -1;
    for (std::size_t i = 0; i < masters.size(); ++i) {
        if (static_cast<int>(i) == master || !masters[i].requesting ||
            masters[i].request_time > at)
            continue;
        if (other >= 0) return;  // several: the arbitration keeps its event
        other = static_cast<int>(i);
    }
    if (other < 0) return;
    TransactionPlan& plan = *loop_end_plan_;
    // By then the bus is parked on the retried master (if it parks at all).
    Picos start = bus_.granted_start(other, at, bus_free, bus_.config_.park_on_last ? master : -1);
    // A read's target is asked now (and remembers its snoop): only if nothing touches the
    // caches before its arbitration.
    if (masters[other].queue.front().command == BusCommand::MemRead && !caches_quiet_through(start))
        return;
    bus_.plan_transaction(other, start, nullptr, plan);
    if (plan.t.termination == Termination::Retry ||
        bus_.phases(plan.t.addr, plan.t.bytes_done, plan.width) > 1) {
        plan.t.master = -1;
        return;
    }
    ahead_until_ = plan.end;
    ahead_real_end_ = true;
}

// The attempt that ends the loop gets data as the target promised: it is planned now, so that
// only its end needs an event (its arbitration runs ahead like the repeats before it).
void BusRunAhead::plan_data_after_loop(int master, Picos promised, const TargetOffer& retry,
                                       Picos others) {
    TargetOffer data = retry;  // devsel and the promised data's pace (Promise::then_known)
    data.kind = TargetOffer::Data;
    data.initial_wait_clocks = 0;
    data.first_line_ready = promised;
    data.promise = {};
    // The master, parked after its repeats, asks again and starts at the loop's end.
    bus_.plan_transaction(master, ahead_loop_end_, &data, *loop_end_plan_);
    loop_end_plan_->t.request = ahead_loop_end_;
    // Another master asking before it ends could cut it short: then it keeps its arbitration.
    if (others < loop_end_plan_->end) {
        loop_end_plan_->t.master = -1;
        return;
    }
    ahead_until_ = loop_end_plan_->end;
    ahead_real_end_ = true;
}

// The repeats that end before `last_end` (at most), all at once: each is what arbitrate() and
// end_transaction() would do for a retry the target promised (no change of its state, so it is
// not told); returns how many.
std::uint64_t BusRunAhead::skip_repeats(Picos last_end) {
    Picos backoff = bus_.config_.retry_backoff_clocks * bus_.period_;
    Picos first = bus_.arb_pending_;
    Picos attempt = ahead_retry_ + backoff;
    if (last_end < first + ahead_retry_) return 0;
    std::uint64_t n = std::min((ahead_loop_end_ - first) / attempt,
                               (last_end - first - ahead_retry_) / attempt + 1);
    if (n == 0) return 0;
    PciBus::MasterState& m = bus_.masters_[ahead_master_];
    PciBus::Request& r = m.queue.front();
    PciBus::Counters& counters = bus_.counters_;
    Picos retrying = n * ahead_retry_;
    counters.busy += retrying;
    counters.transactions += n;
    counters.retries += n;
    r.stats.transactions += static_cast<unsigned>(n);
    r.stats.retries += static_cast<unsigned>(n);
    r.stats.latency += retrying;
    Picos end = first + (n - 1) * attempt + ahead_retry_;
    bus_.bus_free_ = end;
    m.not_before = end + backoff;
    m.request_time = m.not_before;
    bus_.arb_pending_ = std::min(m.request_time, others_from(ahead_master_));
    return n;
}

// A retry has just started.
void BusRunAhead::maybe_run_ahead_from_start() {
    const TransactionPlan& current = *bus_.current_;
    if (bus_.arb_pending_ == kNever)
        run_ahead_retries(current.t.master, bus_.scheduled_end_, current.offer,
                          current.t.command == BusCommand::MemRead);
}

// A retry has just ended (the target had not promised anything when it began).
void BusRunAhead::maybe_run_ahead_from_end() {
    const BusTransaction& retried = bus_.current_->t;
    const PciBus::MasterState& m = bus_.masters_[retried.master];
    if (!bus_.current_->target || !m.requesting || bus_.arb_pending_ != m.request_time ||
        bus_.arbiter_.parked() != retried.master)
        return;
    // The repeat, as start_transaction will build it.
    BusTransaction next = retried;
    next.start = m.request_time;
    TargetOffer probe = bus_.current_->target->offer(next, next.start);
    if (probe.kind != TargetOffer::Retry || probe.promise.retry_until <= next.start) return;
    Picos back_off = bus_.config_.retry_backoff_clocks * bus_.period_;
    run_ahead_retries(retried.master, next.start - back_off, probe,
                      retried.command == BusCommand::MemRead);
}

// The next arbitration's outcome is known as soon as it is due: it runs later (run_ahead_to) and
// only the end of the transaction it starts gets an event.
void BusRunAhead::maybe_defer_arbitration() {
    if (ahead_ || bus_.observer_) return;
    Picos now = bus_.now_;
    bool busy = bus_.busy_;
    Picos end_pending = bus_.end_pending_;
    // A retry on the bus tells nobody when it ends (the target keeps or latches its delayed
    // read; the master backs off): that end runs ahead too, and the arbitration after it is the
    // one deferred.  The retried master asks again only after its back-off.
    bool after_retry = busy && bus_.current_->t.termination == Termination::Retry &&
                       end_pending != kNever && end_pending > now &&
                       bus_.config_.retry_backoff_clocks > 0;
    if (busy && !after_retry) return;
    // The arbitration is due at `at`: when a request comes, or now for a master that has been
    // waiting (for another master's transaction to end).  The arbiter's choice then is known
    // now (Arbiter::pick is pure); masters that lose it or ask later wait ("others").
    Picos at = after_retry ? end_pending : bus_.arb_pending_;
    Picos bus_free = after_retry ? end_pending : bus_.bus_free_;
    if (at == kNever || at < now) return;
    const auto& masters = bus_.masters_;
    std::vector<char>& in_it = bus_.requesting_now_;
    int candidates = 0;
    bool others = after_retry;
    for (std::size_t i = 0; i < masters.size(); ++i) {
        in_it[i] = masters[i].requesting && masters[i].request_time <= at;
        candidates += in_it[i];
        others = others || (masters[i].requesting && !in_it[i]);
    }
    if (candidates == 0) return;
    int master = bus_.arbiter_.pick(in_it);
    others = others || candidates > 1;
    // Now (a delta notification): the arbitration would run in the next delta cycle.
    if (at == now) {
        arb_delta_time_ = now;
        arb_delta_ = sc_core::sc_delta_count() + 1;
    }
    TransactionPlan& plan = *deferred_plan_;
    bus_.plan_transaction(
        master, bus_.granted_start(master, at, bus_free, bus_.arbiter_.parked()), nullptr, plan);
    bool deferred;
    if (plan.t.termination == Termination::Retry) {
        // The loop's first attempt; after another master's retry the two interleave and are
        // simulated one by one.
        if (!after_retry)
            run_ahead_retries(master, plan.end, plan.offer, plan.t.command == BusCommand::MemRead);
        deferred = ahead_;
    } else {
        // A waiting master could take GNT# away (PciBus::maybe_preempt) from a transaction of
        // more than one data phase: that one keeps its arbitration event.  A register access
        // (one data phase) cannot be cut short.
        deferred = !others || bus_.phases(plan.t.addr, plan.t.bytes_done, plan.width) <= 1;
    }
    // A retry's end held back that may latch a read (and write back the lines it snooped) must
    // run before any CPU touches the caches.
    if (!deferred || (after_retry && may_latch(bus_.current_->offer) &&
                      !caches_quiet_through(end_pending)))
        return stop_running_ahead();
    if (plan.t.termination == Termination::Retry) return;
    ahead_ = true;
    ahead_master_ = master;
    ahead_until_ = deferred_plan_->end;
    ahead_real_end_ = true;
    ahead_loop_end_ = 0;
}

// Runs the bus's events that come before `limit` (and at it, if `inclusive`), each at its own
// time, up to the one that has a real SystemC event: arbitrations and retries of a retry loop,
// or a deferred arbitration.
void BusRunAhead::run_ahead_to(Picos limit, bool inclusive) {
    Picos now = bus_.now_;
    for (;;) {
        bool busy = bus_.busy_;
        Picos next = busy ? bus_.end_pending_ : bus_.arb_pending_;
        if (busy == ahead_real_end_ && next == ahead_until_) {
            stop_running_ahead();
            break;
        }
        if (next > limit || (next == limit && !inclusive)) break;
        // An arbitration runs in the first delta cycle of its time (timed) or in the delta cycle
        // after the one that asked for it; another master asking up to that same delta cycle
        // is taken to come first.
        if (next == limit && !busy &&
            (next == arb_delta_time_ ? sc_core::sc_delta_count() <= arb_delta_
                                     : sc_core::sc_delta_count_at_current_time() == 0))
            break;
        if (!busy && next >= ahead_first_repeat_ && next < ahead_loop_end_) {
            std::uint64_t n = skip_repeats(inclusive ? limit : limit - 1);
            bus_.counters_.retries_run_ahead += n;
            if (n) continue;
        }
        bus_.now_ = next;
        if (busy) {
            bus_.end_pending_ = kNever;
            bus_.end_transaction();
            ++bus_.counters_.retries_run_ahead;
        } else {
            bus_.arb_pending_ = kNever;
            bus_.arbitrate();
            // A repeat of the loop (a retry), or the planned transaction with the real end.
            const BusTransaction& t = bus_.current_->t;
            bool in_step = bus_.busy_ && ((ahead_real_end_ && bus_.end_pending_ == ahead_until_) ||
                                          (t.master == ahead_master_ &&
                                           t.termination == Termination::Retry));
            if (!in_step)
                throw std::logic_error(std::string(bus_.name()) +
                                       ": a target changed its answer during a run-ahead");
        }
    }
    bus_.now_ = now;
}

}  // namespace pcisim
