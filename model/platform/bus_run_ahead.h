// The bus's run-ahead: the events a PCI/PCI-X segment does without.
//
// Most bus activity tells nobody anything until a transaction ends, so it needs no SystemC
// event of its own; the run-ahead lets such steps happen later, through the bus's own code
// (PciBus::arbitrate, end_transaction, plan_transaction) with their own times:
// - retry loops: a master retried by a target that promises the same Retry until a known time
//   (TargetOffer::Promise) repeats retry and back-off until then; the repeats are added up in
//   one step, and the attempt that gets data is planned from the promise;
// - arbitrations whose outcome is known when they are due (Arbiter::pick is pure): the
//   transaction they start is planned then, and only its end gets an event.
// The bus schedules only the real events (a transaction's end, an arbitration the run-ahead
// cannot foresee) and the steps before them run when that event comes, or when anything else
// reaches the bus first (a request, a counter read).  Results are identical to simulating every
// step (docs/architecture.md, "Events the bus does without"); an observer of the bus's
// transactions turns it off.
//
// The bus calls in at a few points: before it acts (catch_up, request_arrives, settle), after
// it acted (after_request, after_arbitration, after_transaction_end), when a transaction starts
// (take_planned) and when it hands its events to SystemC (real_events).  The run-ahead in turn
// drives the bus's protocol steps and reads its state as a friend of PciBus: the steps it runs
// are the protocol's own, not a copy of them.
#pragma once

#include <cstdint>

#include "core/pci_types.h"

namespace pcisim {

class PciBus;
struct TransactionPlan;

class BusRunAhead {
public:
    // `deferred_plan` and `loop_end_plan`: the bus's two plan slots besides the current one.
    BusRunAhead(PciBus& bus, TransactionPlan* deferred_plan, TransactionPlan* loop_end_plan)
        : bus_(bus), deferred_plan_(deferred_plan), loop_end_plan_(loop_end_plan) {}

    // Steps of the bus are being held back, to run later.
    bool active() const { return ahead_; }

    // In the bus's own processes, before they act: the steps before this event, which had no
    // SystemC event of their own.
    void catch_up() { if (ahead_) run_up_to_this_event(); }
    // A request of `master` reaches the bus now (-1: one that voids what was planned for any
    // master): another master's request ends the run-ahead, after the steps up to now.
    void request_arrives(int master) { if (ahead_ && master != ahead_master_) end_at_request(); }
    // Between sc_start calls, before the bus's counters are read: the steps before now.
    void settle() { if (ahead_) run_before_now(); }

    // After the bus acted: what can run ahead from here.
    void after_request();          // outside the bus's processes (a master's request)
    void after_arbitration();      // PciBus::on_arbitrate
    void after_transaction_end();  // PciBus::on_transaction_end

    // A transaction of `master` starts at `start`: if the run-ahead planned it already, that
    // plan becomes `current` (the slots are swapped, not copied) and true is returned.
    bool take_planned(int master, Picos start, TransactionPlan*& current) {
        return ahead_ && swap_in_planned(master, start, current);
    }

    // The events the bus hands to SystemC: while running ahead only the real one.
    void real_events(Picos& end, Picos& arbitrate) const {
        if (!ahead_) return;
        end = ahead_real_end_ ? ahead_until_ : kNever;
        arbitrate = ahead_real_end_ ? kNever : ahead_until_;
    }

private:
    void run_up_to_this_event();
    void end_at_request();
    void run_before_now();
    bool swap_in_planned(int master, Picos start, TransactionPlan*& current);
    void check_promise(const TransactionPlan& promised) const;
    void stop_running_ahead();
    Picos others_from(int master) const;  // earliest REQ# of another master, or kNever
    void run_ahead_retries(int master, Picos end, const TargetOffer& offer, bool read);
    bool caches_quiet_through(Picos last) const;
    static bool may_latch(const TargetOffer& retry);
    void plan_data_after_loop(int master, Picos promised, const TargetOffer& retry, Picos others);
    void plan_other_after_loop(int master, Picos at, Picos bus_free);
    void maybe_run_ahead_from_start();
    void maybe_run_ahead_from_end();
    void maybe_defer_arbitration();
    void run_ahead_to(Picos limit, bool inclusive);
    std::uint64_t skip_repeats(Picos last_end);

    PciBus& bus_;
    bool ahead_ = false;          // events of ahead_master_ are run later (see the top) ...
    int ahead_master_ = -1;
    Picos ahead_until_ = 0;       // ... up to the real event at this time:
    bool ahead_real_end_ = false; // a transaction's end (else an arbitration)
    Picos ahead_first_repeat_ = 0;  // retry loop: repeats start here, every retry + back-off,
    Picos ahead_loop_end_ = 0;      // ... until the arbitration of the attempt that gets data
    Picos ahead_retry_ = 0;         // clocks of one retry, in ps
    Picos arb_delta_time_ = kNever;  // a deferred arbitration notified as a delta at this time
    std::uint64_t arb_delta_ = 0;    // ... would run in this delta cycle (sc_delta_count)
    TransactionPlan* deferred_plan_;  // what a deferred arbitration will start ...
    TransactionPlan* loop_end_plan_;  // ... and the attempt that ends a retry loop
};

}  // namespace pcisim
