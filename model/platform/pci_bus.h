// One PCI or PCI-X bus segment with its arbiter.
//
// Event-driven: the bus computes each transaction's length in clocks when it starts (address,
// attribute, DEVSEL, wait states, data phases, turnaround; cut short by target disconnect,
// retry, split response or latency-timer preemption) and schedules a single event at its end.
// A request arriving during a transaction may move that end earlier (GNT# taken away from a
// master whose latency timer has run out).  Masters see logical reads and writes: the bus
// splits them into transactions, re-requests after retries and disconnects, and reports per
// request where the time went (DmaStats).
//
// The events the bus does without (retry loops a target promises, arbitrations whose outcome is
// known) are the run-ahead's (BusRunAhead, platform/bus_run_ahead.h); this file is the protocol.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "platform/arbiter.h"
#include "platform/bus_run_ahead.h"
#include "core/pci_types.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> bus_params();  // bus.*, and a card bridge's segment
// A segment's clock against its kind (PCI 33 or 66, PCI-X 50 to 133 MHz); `path` is its key
// ("bus", "card_bridges[0].bus").
void check_bus_clock(const nlohmann::json& bus, const std::string& path,
                     std::vector<std::string>& problems);

struct BusConfig {
    BusKind kind = BusKind::Pci;
    unsigned width_bits = 32;
    double clock_mhz = 33;
    unsigned latency_timer_clocks = 64;  // default for every master (config-space register)
    unsigned grant_clocks = 2;           // REQ# to FRAME# on an idle bus not parked on the master
    unsigned turnaround_clocks = 1;      // idle clock between transactions
    unsigned retry_backoff_clocks = 2;   // a retried master releases REQ# this long (PCI 3.0 3.3.3.2.2)
    unsigned adb_bytes = 128;            // PCI-X allowable disconnect boundary
    bool park_on_last = true;            // bus parking on the last master

    static BusConfig from(const ScenarioView& s, const std::string& prefix);
    Picos period() const;
};

// What a transaction of a master starting at a given time would be, if not cut short.
struct TransactionPlan {
    BusTransaction t;
    TargetOffer offer;
    BusTarget* target = nullptr;  // none for a split completion
    unsigned width = 4;           // bytes per data phase
    Picos end = 0;
};

class PciBus : public sc_core::sc_module, public BusPort {
public:
    SC_HAS_PROCESS(PciBus);
    PciBus(sc_core::sc_module_name name, const BusConfig& config);

    int attach_master(BusMaster* master, const MasterConfig& config) override;
    void attach_target(BusTarget* target, std::uint64_t base, std::uint64_t size) override;
    // Everything not positively decoded (host memory, through the bridge above this segment).
    void attach_default_target(BusTarget* target);

    void read(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) override;
    void write(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
               std::uint32_t dword = 0) override;
    // A single-dword register access (MemWrite of `dword`, or MemRead) that reaches the bus at
    // `arrives` (>= now), handed over ahead of time so that nothing has to wake up then.  The
    // master's requests are queued in the order they arrive, those arriving at the same time
    // by `rank` (the bridge face: the CPU's number), whatever the order they are handed over in.
    void request_at(int master, BusCommand command, std::uint64_t addr, std::uint64_t tag,
                    std::uint32_t dword, Picos arrives, unsigned rank);
    // Not while an observer watches: then every step is simulated as it happens.
    bool takes_requests_ahead() const { return observer_ == nullptr; }
    // PCI-X: a completer returns `bytes` of the split read `requester_tag` to `requester`.
    void split_completion(int completer, int requester, std::uint64_t requester_tag,
                          std::uint32_t bytes);

    const BusConfig& config() const { return config_; }
    Picos period() const { return period_; }
    Picos align_up(Picos t) const { return clocks_in(t + period_ - 1) * period_; }
    // Whole clocks in `t`: a multiplication by the period's reciprocal and at most a correction
    // or two, as a 64-bit division costs tens of cycles and the bus divides on every request.
    Picos clocks_in(Picos t) const {
        auto q = static_cast<Picos>((static_cast<unsigned __int128>(t) * period_reciprocal_) >> 64);
        for (Picos r = t - q * period_; r >= period_; r -= period_) ++q;  // q never exceeds t/period
        return q;
    }

    // Observers (statistics, tests, waveform views).
    struct Counters {
        Picos busy = 0;  // clocks the bus was not idle (incl. turnaround), in ps
        std::uint64_t transactions = 0, retries = 0, disconnects = 0, preemptions = 0,
                      split_responses = 0, data_bytes = 0;
        std::uint64_t retries_run_ahead = 0;  // of `retries`, how many ran without own events
    };
    // Between sc_start calls: attempts of a loop run ahead that fall before now are counted first.
    const Counters& counters() { run_ahead_.settle(); return counters_; }
    // Outside the bus's processes: the steps held back that come before now run now (before a
    // CPU touches its cache, which they snoop and write back).
    void settle() { run_ahead_.settle(); }
    void reset_counters() { run_ahead_.settle(); counters_ = Counters{}; }
    const std::string& master_name(int id) const { return masters_[id].config.name; }
    std::size_t master_count() const { return masters_.size(); }
    // Called with every finished transaction (tests, traces).  Not on the hot path when unset.
    void set_transaction_observer(void (*fn)(void*, const BusTransaction&), void* ctx) {
        observer_ = fn, observer_ctx_ = ctx;
    }
    // Off: every retry with events of its own, as with an observer.  With the CPU caches
    // modelled, `caches_quiet_until` says until when (kernel time, exclusive) no CPU can touch
    // them: the host bridge snoops them at the bus's time, so a step that does (a retry's end
    // that latches a read and writes back its snooped lines, a planned read's snoop) is held
    // back or asked early only when it comes before then (BusRunAhead::caches_quiet_through),
    // and the CPUs settle() the bus before they touch them again.
    void allow_retry_run_ahead(bool allowed, std::function<Picos()> caches_quiet_until = {}) {
        retry_run_ahead_allowed_ = allowed;
        caches_quiet_until_ = std::move(caches_quiet_until);
    }
    bool retry_run_ahead_allowed() const { return retry_run_ahead_allowed_ && !observer_; }
    // Inside the observer, for a transaction that moved data: the clocks in which its target
    // held TRDY# off between data phases (lines still streaming in), as [start, end) runs.
    std::vector<std::pair<Picos, Picos>> data_wait_runs() const;

private:
    // The run-ahead runs the bus's own steps (arbitrate, end_transaction) with their own times.
    friend class BusRunAhead;

    struct Request {  // a logical read or write
        BusCommand command = BusCommand::MemRead;
        std::uint64_t addr = 0;
        std::uint32_t bytes = 0;
        std::uint32_t done = 0;       // bytes transferred (read: arrived) so far
        std::uint32_t issued = 0;     // PCI-X read: bytes asked for in split requests so far
        unsigned outstanding = 0;     // PCI-X read: split requests not yet completed
        std::uint64_t tag = 0;
        std::uint32_t dword = 0;
        int requester = -1;           // split completion: who gets the data
        unsigned rank = 0;            // request_at: the order among equal arrival times
        DmaStats stats;
    };
    struct MasterState {
        BusMaster* master;
        MasterConfig config;
        std::deque<Request> queue;   // head is being worked on
        std::vector<Request> waiting_splits;  // PCI-X reads awaiting completions
        bool requesting = false;
        Picos request_time = 0;      // REQ# asserted (clock-aligned)
        Picos not_before = 0;        // retry back-off
    };

    // Queued `behind` requests from the end (0: last).
    Request& queue_request(int master, BusCommand command, std::uint64_t addr, std::uint32_t bytes,
                       std::uint64_t tag, std::uint32_t dword, int requester, Picos arrives,
                       std::size_t behind);
    // How many of `master`'s queued requests a request arriving at `arrives` with `rank` goes
    // before: those arriving later, and those arriving then with a higher rank not yet begun.
    std::size_t queued_after(int master, Picos arrives, unsigned rank) const;
    void request_bus(int master, Picos at);
    void schedule_arbitration();
    void on_arbitrate();        // SC_METHOD: arbitrate_event_
    void on_transaction_end();  // SC_METHOD: end_event_
    void arbitrate();
    void end_transaction();
    void start_transaction(int master, Picos start);
    Picos granted_start(int master, Picos at, Picos bus_free, int parked) const;
    // What a transaction of `master` starting at `start` would be, if not cut short: the bus's
    // state is not changed, except segments_ (the data phases), which the plan fills.
    // `given`: the target's answer, known in advance (TargetOffer::Promise::then_known), instead of
    // asking it.
    void plan_transaction(int master, Picos start, const TargetOffer* given,
                          TransactionPlan& out);
    // The two events, as the bus wants them (noted while it acts, handed to SystemC after).
    void notify_end(Picos at);
    void notify_arbitrate(Picos at);
    void sync_events();
    void enter(Picos now, int master);  // `master` asks for the bus at `now`
    void after_request();               // ... and its request is queued
    Picos data_start_clock(const TargetOffer& offer, bool read) const;
    void set_end(Picos end);
    // Another master asks for the bus from `request_time` (REQ#); `asked`: when it asked, the
    // earliest the transaction can be cut off.
    void maybe_preempt(Picos request_time, Picos asked);
    void finish(int master, Request& req, Picos when, std::uint32_t dword);
    // After a Retry of the read at the head of `m`'s queue, which ended at `end`.
    void take_turns_after_retry(MasterState& m, Picos end);
    // `master` has another read queued behind its head: it takes turns between them after a
    // retry, so its retry loops are simulated attempt by attempt (no run-ahead).
    bool reads_take_turns(int master) const {
        const auto& q = masters_[master].queue;
        return q.size() > 1 && q[1].command == BusCommand::MemRead;
    }
    void deliver_split(int requester, std::uint64_t tag, std::uint32_t bytes, Picos when);
    BusTarget* decode(std::uint64_t addr) const;
    std::uint32_t phases(std::uint64_t addr, std::uint32_t bytes, unsigned width) const;
    void plan_data_phases(std::uint64_t addr, std::uint32_t bytes, unsigned width, Picos first,
                          const TargetOffer& offer);
    std::uint64_t phases_by(Picos last_data) const;  // data phases done by this clock
    Picos phase_end(std::uint64_t phase_count) const;  // clock after that many data phases

    BusConfig config_;
    Picos period_;
    Picos period_reciprocal_;  // floor((2^64 - 1) / period_)
    std::vector<MasterState> masters_;
    struct Window { std::uint64_t base, size; BusTarget* target; };
    std::vector<Window> windows_;
    BusTarget* default_target_ = nullptr;
    Arbiter arbiter_;
    std::vector<char> requesting_now_;  // on_arbitrate's scratch (one per master), not reallocated

    // The transaction on the bus, if any.
    bool busy_ = false;
    // The current transaction's plan and the two the run-ahead plans take turns in these slots:
    // a plan that becomes current is not copied.
    TransactionPlan plans_[3];
    TransactionPlan* current_ = &plans_[0];  // its target, answer and bytes per data phase
    struct Segment {
        // Constructed in place (emplace_back): a braced temporary copied in stalled on
        // store forwarding, once per planned transaction.
        Segment(Picos s, std::uint64_t first, std::uint64_t n)
            : start(s), first_phase(first), phases(n) {}
        Picos start;
        std::uint64_t first_phase;
        std::uint64_t phases;
    };
    std::vector<Segment> segments_;  // the current transaction's data phases
    Picos data_first_ = 0;     // first data clock (absolute)
    Picos scheduled_end_ = 0;
    Picos bus_free_ = 0;       // first clock a new FRAME# may start

    Picos now_ = 0;               // the time the bus is acting at (earlier while running ahead)
    Picos end_pending_ = kNever;  // the bus's next events: a transaction's end ...
    Picos arb_pending_ = kNever;  // ... and an arbitration (the earliest wins)
    bool handling_ = false;       // in on_arbitrate / on_transaction_end
    BusRunAhead run_ahead_{*this, &plans_[1], &plans_[2]};  // the events it does without
    Picos end_notified_ = kNever; // what SystemC has pending
    Picos arb_notified_ = kNever;
    sc_core::sc_event end_event_{"end"};
    sc_core::sc_event arbitrate_event_{"arbitrate"};
    Counters counters_;
    void (*observer_)(void*, const BusTransaction&) = nullptr;
    bool retry_run_ahead_allowed_ = true;
    std::function<Picos()> caches_quiet_until_;  // empty: no caches to keep in step with
    void* observer_ctx_ = nullptr;
};

}  // namespace pcisim
