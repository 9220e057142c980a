#include "platform/pci_bus.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>

#include "core/invariants.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"

namespace pcisim {

const char* to_string(Termination t) {
    switch (t) {
    case Termination::Completed: return "completed";
    case Termination::Retry: return "retry";
    case Termination::Disconnect: return "disconnect";
    case Termination::LatencyTimer: return "latency-timer";
    case Termination::SplitResponse: return "split-response";
    }
    return "?";
}

std::vector<ParamSpec> bus_params() {
    return {
        choice("bus.kind", "pci", {"pci", "pcix"}, "Protocol of the NIC's bus segment."),
        one_of_integers("bus.width_bits", "bits", 32, {32, 64}, "Data path width."),
        number("bus.clock_mhz", "MHz", 33, 33, 133,
               "Bus clock: PCI 33 or 66; PCI-X any clock from 50 to 133 (its modes PCI-X 66, "
               "100 and 133 run at 50-66, 66-100 and 100-133 MHz). B = width/8 x clock."),
        integer("bus.latency_timer_clocks", "clocks", 64, 0, 255,
                "Latency timer of every master (config register): clocks a master may keep "
                "the bus after FRAME# once GNT# is taken away. Linux/BIOS default 64."),
        integer("bus.grant_clocks", "clocks", 2, 1, 16,
                "REQ# to FRAME# on an idle bus not parked on the requester (arbiter samples "
                "REQ#, drives GNT#, master samples GNT#)."),
        integer("bus.turnaround_clocks", "clocks", 1, 0, 4,
                "Idle clocks between two transactions (PCI 3.0 3.3.1)."),
        integer("bus.retry_backoff_clocks", "clocks", 2, 0, 64,
                "Clocks a master keeps REQ# released after a Retry or Disconnect (spec "
                "minimum 2)."),
        boolean("bus.park_on_last", true,
                "Arbiter parks GNT# on the last master, which then starts without "
                "arbitration."),
    };
}

// Conventional PCI runs the model at its two standard clocks.  A PCI-X segment runs at any clock
// from 50 MHz up to its mode's maximum: the initialization pattern a bridge drives at reset
// tells the devices the mode, PCI-X 66 (50-66 MHz), PCI-X 100 (66-100) or PCI-X 133 (100-133)
// (PCI-X Addendum 1.0; the same ranges in Linux's aic79xx_pci.c pci_bus_modes), so a card bus
// at 120 MHz is a PCI-X 133 segment.
void check_bus_clock(const nlohmann::json& bus, const std::string& path, std::vector<std::string>& problems) {
    std::string kind = bus["kind"];
    double mhz = bus["clock_mhz"];
    bool ok = kind == "pci" ? (mhz == 33 || mhz == 66) : (mhz >= 50 && mhz <= 133);
    if (!ok)
        problems.push_back(path + ".clock_mhz: " + nlohmann::json(mhz).dump() + " is not a " + kind +
                           " clock; expected " +
                           (kind == "pci" ? "33 or 66 for pci" : "50 to 133 for pcix"));
}

BusConfig BusConfig::from(const ScenarioView& s, const std::string& prefix) {
    BusConfig c;
    c.kind = s.text(prefix + ".kind") == "pcix" ? BusKind::PciX : BusKind::Pci;
    c.width_bits = static_cast<unsigned>(s.integer(prefix + ".width_bits"));
    c.clock_mhz = s.number(prefix + ".clock_mhz");
    c.latency_timer_clocks = static_cast<unsigned>(s.integer(prefix + ".latency_timer_clocks"));
    c.grant_clocks = static_cast<unsigned>(s.integer(prefix + ".grant_clocks"));
    c.turnaround_clocks = static_cast<unsigned>(s.integer(prefix + ".turnaround_clocks"));
    c.retry_backoff_clocks = static_cast<unsigned>(s.integer(prefix + ".retry_backoff_clocks"));
    c.park_on_last = s.boolean(prefix + ".park_on_last");
    return c;
}

Picos BusConfig::period() const {
    return static_cast<Picos>(std::llround(1e6 / clock_mhz));
}

PciBus::PciBus(sc_core::sc_module_name name, const BusConfig& config)
    : sc_core::sc_module(name),
      config_(config),
      period_(config.period()),
      period_reciprocal_(~Picos{0} / period_),
      arbiter_(config.park_on_last) {
    SC_METHOD(on_transaction_end);
    sensitive << end_event_;
    dont_initialize();
    SC_METHOD(on_arbitrate);
    sensitive << arbitrate_event_;
    dont_initialize();
}

int PciBus::attach_master(BusMaster* master, const MasterConfig& config) {
    MasterState m;
    m.master = master;
    m.config = config;
    if (m.config.width_bits == 0 || m.config.width_bits > config_.width_bits)
        m.config.width_bits = config_.width_bits;
    if (m.config.latency_timer_clocks == 0)
        m.config.latency_timer_clocks = config_.latency_timer_clocks;
    masters_.push_back(std::move(m));
    requesting_now_.push_back(false);
    arbiter_.add_master();
    return static_cast<int>(masters_.size()) - 1;
}

void PciBus::attach_target(BusTarget* target, std::uint64_t base, std::uint64_t size) {
    windows_.push_back({base, size, target});
}

void PciBus::attach_default_target(BusTarget* target) { default_target_ = target; }

BusTarget* PciBus::decode(std::uint64_t addr) const {
    for (const auto& w : windows_)
        if (addr >= w.base && addr - w.base < w.size) return w.target;
    if (!default_target_)
        throw std::logic_error(std::string(name()) + ": no target claims address " +
                               std::to_string(addr) + " (master abort)");
    return default_target_;
}

// Built in the master's queue itself (a request built elsewhere and copied in cost a store-
// forwarding stall on every request).
PciBus::Request& PciBus::queue_request(int master, BusCommand command, std::uint64_t addr,
                                       std::uint32_t bytes, std::uint64_t tag,
                                       std::uint32_t dword, int requester, Picos arrives,
                                       std::size_t behind) {
    auto& queue = masters_.at(master).queue;
    // At the back, nearly always: emplace() at end() would first ask whether end() is begin()
    // (the queue empty), and then take the path for the front.
    Request& r = behind == 0 ? queue.emplace_back()
                             : *queue.emplace(queue.end() - static_cast<std::ptrdiff_t>(behind));
    r.command = command;
    r.addr = addr;
    r.bytes = bytes;
    r.tag = tag;
    r.dword = dword;
    r.requester = requester;
    r.stats.issued = arrives;
    return r;
}

// A request reaches the bus: another master's ends a run-ahead (the steps up to now run first).
void PciBus::enter(Picos now, int master) {
    now_ = now;
    run_ahead_.request_arrives(master);
}

// Outside the bus's processes a request is acted on at once: what can run ahead from it, and
// the events as they now stand.  Inside them, the handler does this when it is done.
void PciBus::after_request() {
    if (handling_) return;
    run_ahead_.after_request();
    sync_events();
}

void PciBus::read(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) {
    // A second read of a master (the 82546's other LAN function) changes what its retry loop
    // does (take_turns_after_retry): a loop run ahead ends here, as for another master.
    const auto& queue = masters_.at(master).queue;
    bool second_read = std::any_of(queue.begin(), queue.end(), [](const Request& r) {
        return r.command == BusCommand::MemRead;
    });
    enter(now_ps(), second_read ? -1 : master);
    queue_request(master, BusCommand::MemRead, addr, bytes, tag, 0, -1, now_, 0);
    request_bus(master, now_);
    after_request();
}

void PciBus::write(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
                   std::uint32_t dword) {
    enter(now_ps(), master);
    queue_request(master, BusCommand::MemWrite, addr, bytes, tag, dword, -1, now_, 0);
    request_bus(master, now_);
    after_request();
}

// Queued now and asserted from `arrives` on (the request's request_time, as for a master back
// from its back-off): the bus does what it would have done had the request come then.
// Arbitrations before then leave it out; a retry loop runs ahead only up to the first
// arbitration it is in (BusRunAhead); a transaction on the bus then is cut short from then
// (maybe_preempt is told when the request comes, not when it is handed over).
void PciBus::request_at(int master, BusCommand command, std::uint64_t addr, std::uint64_t tag,
                        std::uint32_t dword, Picos arrives, unsigned rank) {
    Picos now = now_ps();
    arrives = std::max(arrives, now);
    // Several CPUs hand their accesses over out of order: the queue stays in arrival order.
    std::size_t behind = queued_after(master, arrives, rank);
    enter(now, behind ? -1 : master);  // a new head voids what was planned for this master
    // Caught up to now, one arriving now may have begun.
    if (behind) behind = queued_after(master, arrives, rank);
    queue_request(master, command, addr, 4, tag, dword, -1, arrives, behind).rank = rank;
    MasterState& m = masters_[master];
    if (behind == m.queue.size() - 1) m.requesting = false;  // asks again for the new head
    request_bus(master, now_);
    after_request();
}

// Those that arrive later have not arrived yet, so none of them has begun; of those arriving at
// the same time, one may be on the bus or have been retried already, and it keeps its place.
std::size_t PciBus::queued_after(int master, Picos arrives, unsigned rank) const {
    const MasterState& m = masters_.at(master);
    std::size_t behind = 0;
    for (auto it = m.queue.rbegin(); it != m.queue.rend(); ++it, ++behind) {
        if (it->stats.issued > arrives) continue;
        bool begun = it->stats.transactions > 0 ||
                     (busy_ && current_->t.master == master && &*it == &m.queue.front());
        if (it->stats.issued < arrives || it->rank <= rank || begun) break;
    }
    return behind;
}

void PciBus::split_completion(int completer, int requester, std::uint64_t requester_tag,
                              std::uint32_t bytes) {
    enter(now_ps(), completer);
    const auto& waiting = masters_.at(requester).waiting_splits;
    auto it = std::find_if(waiting.begin(), waiting.end(),
                           [&](const Request& r) { return r.tag == requester_tag; });
    if (it == waiting.end())
        throw std::logic_error(std::string(name()) + ": split completion for an unknown request");
    queue_request(completer, BusCommand::SplitCompletion, it->addr + it->done, bytes,
                  requester_tag, 0, requester, now_, 0);
    request_bus(completer, now_);
    after_request();
}

std::uint32_t PciBus::phases(std::uint64_t addr, std::uint32_t bytes, unsigned width) const {
    return static_cast<std::uint32_t>((addr % width + bytes + width - 1) / width);
}

void PciBus::request_bus(int master, Picos at) {
    MasterState& m = masters_[master];
    if (m.requesting || m.queue.empty() || (busy_ && current_->t.master == master)) return;
    m.requesting = true;
    m.request_time = align_up(std::max({at, m.not_before, m.queue.front().stats.issued}));
    if (busy_) {
        maybe_preempt(m.request_time, std::max(now_, m.queue.front().stats.issued));
    } else {
        notify_arbitrate(std::max(m.request_time, now_));
    }
}

Picos PciBus::data_start_clock(const TargetOffer& offer, bool read) const {
    unsigned devsel = static_cast<unsigned>(offer.devsel);
    // PCI: address in clock 0; DEVSEL# in clock `devsel`; a read also needs the AD turnaround
    // clock, so TRDY# no earlier than clock 2 (PCI 3.0 3.3.1).  PCI-X: address and attribute
    // phases (clocks 0, 1), DEVSEL# decode A/B/C after the attribute phase, and the target
    // response phase before data (PCI-X 2.0 2.6): one clock more than PCI decodes.
    unsigned first = config_.kind == BusKind::Pci ? std::max(devsel, read ? 2u : 1u)
                                                 : 1 + devsel + 1;
    return first + offer.initial_wait_clocks;
}

// After a transaction, or when nobody could be granted: arbitrate in the next delta cycle if a
// master is waiting already (requests other processes make at this instant compete too), else
// when the first master backing off after a retry comes back, else not until a new request.
// This spares the bus an activation that would find nobody to grant after most retries.
void PciBus::schedule_arbitration() {
    Picos next = 0;
    for (const auto& m : masters_) {
        if (!m.requesting) continue;
        if (m.request_time <= now_) return notify_arbitrate(now_);
        if (next == 0 || m.request_time < next) next = m.request_time;
    }
    if (next) notify_arbitrate(next);
}

void PciBus::on_arbitrate() {
    now_ = now_ps();
    arb_notified_ = kNever;
    run_ahead_.catch_up();
    arb_pending_ = kNever;
    handling_ = true;
    arbitrate();
    handling_ = false;
    run_ahead_.after_arbitration();
    sync_events();
}

void PciBus::arbitrate() {
    if (busy_) return;
    Picos now = now_;
    std::vector<char>& requesting = requesting_now_;
    bool any = false;
    for (std::size_t i = 0; i < masters_.size(); ++i) {
        requesting[i] = masters_[i].requesting && masters_[i].request_time <= now;
        any = any || requesting[i];
    }
    if (!any) return schedule_arbitration();
    int winner = arbiter_.pick(requesting);
    Picos start = granted_start(winner, now, bus_free_, arbiter_.parked());
    arbiter_.granted(winner);
    masters_[winner].requesting = false;
    start_transaction(winner, start);
}

// FRAME# of `master` granted in an arbitration at `at`, the bus free from `bus_free` and
// parked on `parked` (-1: none).  A master parked on an idle bus drives FRAME# in the clock it
// wants the bus; any other waits for GNT#.  (Also what the run-ahead plans with.)
Picos PciBus::granted_start(int master, Picos at, Picos bus_free, int parked) const {
    const MasterState& m = masters_[master];
    Picos start = std::max(bus_free, align_up(at));
    if (master != parked || m.request_time < bus_free)
        start = std::max(start, m.request_time + config_.grant_clocks * period_);
    return start;
}

void PciBus::start_transaction(int master, Picos start) {
    MasterState& m = masters_[master];
    // One master at a time: FRAME# only after the previous transaction's turnaround.
    if (busy_ || start < bus_free_)
        throw InvariantViolation(name(), "master " + std::to_string(master) +
                                             " granted at " + std::to_string(start) +
                                             " ps while master " + std::to_string(current_->t.master) +
                                             " holds the bus until " +
                                             std::to_string(busy_ ? scheduled_end_ : bus_free_) +
                                             " ps");
    m.queue.front().stats.arbitration += start - m.request_time;
    // Running ahead, this very transaction may be planned already (nothing changed since).
    if (!run_ahead_.take_planned(master, start, current_))
        plan_transaction(master, start, nullptr, *current_);
    data_first_ = current_->t.data_start;
    busy_ = true;
    set_end(current_->end);
    // Another master already waiting takes GNT# away in the first clock.
    for (std::size_t i = 0; i < masters_.size(); ++i)
        if (static_cast<int>(i) != master && masters_[i].requesting)
            maybe_preempt(std::max(masters_[i].request_time, start),
                          std::max(now_, masters_[i].queue.front().stats.issued));
}

// Written straight into its destination: building a Plan elsewhere and copying it cost a store-
// forwarding stall on every transaction (the target's answer is written field by field and
// read back in 16-byte pieces; seen in perf).
void PciBus::plan_transaction(int master, Picos start, const TargetOffer* given,
                              TransactionPlan& p) {
    const MasterState& m = masters_[master];
    const Request& r = m.queue.front();
    bool read = r.command == BusCommand::MemRead;
    BusTransaction& t = p.t;
    t.command = r.command;
    t.master = master;
    t.addr = r.addr + (read ? r.issued : r.done);
    t.bytes = r.bytes - (read ? r.issued : r.done);
    t.tag = r.tag;
    t.dword = r.dword;
    t.start = start;
    t.end = 0;
    t.request = m.request_time;
    t.requester = r.requester;
    if (config_.kind == BusKind::PciX && read)
        t.bytes = std::min<std::uint32_t>(t.bytes, m.config.mmrbc_bytes);

    TargetOffer& offer = p.offer;
    if (r.command == BusCommand::SplitCompletion) {
        p.target = nullptr;
        offer = TargetOffer{};
        offer.devsel = Devsel::Fast;  // the requester claims its own completion (decode A)
    } else {
        p.target = decode(t.addr);
        if (given) offer = *given;
        else new (&offer) TargetOffer(p.target->offer(t, start));  // the target writes it in place
    }
    Picos first = data_start_clock(offer, read);
    p.width = r.command == BusCommand::SplitCompletion
                  ? masters_[r.requester].config.width_bits / 8
                  : m.config.width_bits / 8;

    Picos end_clocks;
    if (offer.kind != TargetOffer::Data) {
        t.termination = offer.kind == TargetOffer::Retry ? Termination::Retry
                                                         : Termination::SplitResponse;
        t.bytes_done = 0;
        end_clocks = first + 1 + config_.turnaround_clocks;
    } else {
        std::uint32_t bytes = t.bytes;
        t.termination = Termination::Completed;
        if (offer.max_bytes && offer.max_bytes < bytes) {
            bytes = offer.max_bytes;
            t.termination = Termination::Disconnect;
        }
        t.bytes_done = bytes;
        plan_data_phases(t.addr, bytes, p.width, start + first * period_, offer);
        end_clocks = clocks_in(segments_.back().start - start) + segments_.back().phases +
                     config_.turnaround_clocks;
    }
    t.data_start = start + first * period_;
    // DEVSEL# after the address phase (PCI) or the attribute phase (PCI-X).
    t.devsel = start + (static_cast<unsigned>(offer.devsel) +
                        (config_.kind == BusKind::PciX ? 1u : 0u)) * period_;
    p.end = start + end_clocks * period_;
}

// Data phases back to back from `first`, except that a phase cannot go before the cache line
// holding its last byte has reached the target (a bridge streaming from memory): each line's
// phases form one segment.
void PciBus::plan_data_phases(std::uint64_t addr, std::uint32_t bytes, unsigned width,
                              Picos first, const TargetOffer& offer) {
    segments_.clear();
    std::uint32_t total = phases(addr, bytes, width);
    std::uint64_t line_bytes = offer.line_bytes;
    std::uint64_t first_line = addr / line_bytes;
    // Every line there by the first data clock (clocks are on the bus's clock grid, so a line
    // there by `first` unrounded is there by it rounded up to a clock): back to back.
    const std::uint64_t last_line = (addr + bytes - 1) / line_bytes - first_line;
    Picos last_ready = offer.first_line_ready + last_line * offer.line_time +
                       offer.modified.until(last_line);
    if (last_ready <= first) {
        segments_.emplace_back(first, 0, total);
        return;
    }
    // Line by line: the phases whose last byte is in line k are those before p_end, the
    // number of phases that end within lines up to k (the last one ends at addr + bytes).
    std::uint64_t aligned = addr / width * width;
    Picos clock = first;
    std::uint32_t p = 0;
    Picos snooped = 0;  // what the modified lines up to line k add (ModifiedLines)
    for (std::uint64_t k = first_line; p < total; ++k) {
        const std::uint64_t i = k - first_line;
        if (offer.modified.holds(i)) snooped += offer.modified.delay;
        std::uint64_t line_end = (k + 1) * line_bytes;
        auto p_end = addr + bytes <= line_end
                         ? total
                         : static_cast<std::uint32_t>(std::min<std::uint64_t>(
                               total, line_end > aligned ? (line_end - aligned) / width : 0));
        if (p_end <= p) continue;
        Picos ready = offer.first_line_ready + i * offer.line_time + snooped;
        if (ready > clock || segments_.empty()) {
            clock = std::max(clock, align_up(ready));
            segments_.emplace_back(clock, p, 0);
        }
        segments_.back().phases += p_end - p;
        clock += (p_end - p) * period_;
        p = p_end;
    }
}

std::vector<std::pair<Picos, Picos>> PciBus::data_wait_runs() const {
    std::vector<std::pair<Picos, Picos>> runs;
    for (std::size_t i = 1; i < segments_.size(); ++i) {
        Picos previous_end = segments_[i - 1].start + segments_[i - 1].phases * period_;
        if (segments_[i].start > previous_end) runs.emplace_back(previous_end, segments_[i].start);
    }
    return runs;
}

std::uint64_t PciBus::phases_by(Picos last_data) const {
    std::uint64_t done = 0;
    for (const auto& seg : segments_) {
        if (last_data < seg.start) break;
        done = seg.first_phase + std::min<std::uint64_t>(seg.phases, (last_data - seg.start) / period_ + 1);
    }
    return done;
}

Picos PciBus::phase_end(std::uint64_t phase_count) const {
    for (const auto& seg : segments_)
        if (phase_count <= seg.first_phase + seg.phases)
            return seg.start + (phase_count - seg.first_phase) * period_;
    return segments_.back().start + segments_.back().phases * period_;
}

void PciBus::set_end(Picos end) {
    scheduled_end_ = end;
    notify_end(end);
}

// Notifications are noted and handed to SystemC once, when the bus is done acting (sync_events),
// with the same meaning: of several notifications of the arbitration the earliest counts (a
// delta notification, at == now, beats any timed one); a new end replaces the old.
void PciBus::notify_arbitrate(Picos at) { arb_pending_ = std::min(arb_pending_, at); }

void PciBus::notify_end(Picos at) { end_pending_ = at; }

// What SystemC should have pending: the noted events, or while running ahead only the real one.
void PciBus::sync_events() {
    Picos end = end_pending_, arb = arb_pending_;
    run_ahead_.real_events(end, arb);
    if (end != end_notified_) {
        if (end_notified_ != kNever) end_event_.cancel();
        if (end != kNever) end_event_.notify(ps(end - now_));
        end_notified_ = end;
    }
    if (arb != arb_notified_) {
        if (arb_notified_ != kNever) arbitrate_event_.cancel();
        if (arb != kNever) arbitrate_event_.notify(ps(arb - now_));
        arb_notified_ = arb;
    }
}

// GNT# is taken from the current master one clock after another master's REQ# is sampled.  The
// master stops at the later of that and its latency-timer expiry (counted from FRAME#), after
// the data phase in progress; a PCI-X master only at the next ADB (PCI 3.0 3.5.4; PCI-X 2.0
// 2.12.1).
void PciBus::maybe_preempt(Picos request_time, Picos asked) {
    if (!busy_ || current_->t.termination == Termination::Retry ||
        current_->t.termination == Termination::SplitResponse || current_->t.bytes_done == 0)
        return;
    const MasterState& m = masters_[current_->t.master];
    Picos gnt_removed = align_up(request_time) + period_;
    Picos timer_expired = current_->t.start + m.config.latency_timer_clocks * period_;
    Picos last_data = std::max({gnt_removed, timer_expired, data_first_});
    std::uint64_t offset = current_->t.addr % current_->width;
    std::uint64_t phases_allowed = std::max<std::uint64_t>(phases_by(last_data), 1);
    std::uint64_t bytes = phases_allowed * current_->width - offset;
    if (config_.kind == BusKind::PciX) {
        std::uint64_t end_addr = current_->t.addr + bytes;
        end_addr = (end_addr + config_.adb_bytes - 1) / config_.adb_bytes * config_.adb_bytes;
        bytes = end_addr - current_->t.addr;
    }
    if (bytes >= current_->t.bytes_done) return;
    current_->t.bytes_done = static_cast<std::uint32_t>(bytes);
    current_->t.termination = Termination::LatencyTimer;
    Picos end = phase_end(phases(current_->t.addr, current_->t.bytes_done, current_->width)) +
                config_.turnaround_clocks * period_;
    if (end < scheduled_end_) set_end(std::max(end, align_up(asked)));
}

void PciBus::on_transaction_end() {
    now_ = now_ps();
    end_notified_ = kNever;
    run_ahead_.catch_up();
    end_pending_ = kNever;
    handling_ = true;
    end_transaction();
    handling_ = false;
    run_ahead_.after_transaction_end();
    sync_events();
}

void PciBus::end_transaction() {
    // In place (no copy): nothing the target or the master are told below starts a transaction.
    BusTransaction& t = current_->t;
    t.end = scheduled_end_;
    busy_ = false;
    bus_free_ = t.end;
    MasterState& m = masters_[t.master];
    Request& r = m.queue.front();

    counters_.busy += t.end - t.start;
    ++counters_.transactions;
    counters_.data_bytes += t.bytes_done;
    ++r.stats.transactions;
    Picos first = data_first_ - t.start;
    Picos turnaround = config_.turnaround_clocks * period_;
    switch (t.termination) {
    case Termination::Retry:
        ++counters_.retries;
        ++r.stats.retries;
        r.stats.latency += t.end - t.start;
        break;
    case Termination::SplitResponse:
        ++counters_.split_responses;
        r.stats.overhead += t.end - t.start;
        break;
    default: {
        // Data phases proper; clocks spent waiting for the target (initial wait states, lines
        // still streaming in) are read latency.
        Picos data = phases(t.addr, t.bytes_done, current_->width) * period_;
        Picos wait = current_->offer.initial_wait_clocks * period_;
        r.stats.overhead += first - wait + turnaround;
        r.stats.latency += t.end - t.start - first - turnaround - data + wait;
        r.stats.data += data;
        if (t.termination == Termination::Disconnect) ++counters_.disconnects, ++r.stats.disconnects;
        if (t.termination == Termination::LatencyTimer) ++counters_.preemptions, ++r.stats.preemptions;
        break;
    }
    }
    if (current_->target) current_->target->complete(t);
    if (observer_) observer_(observer_ctx_, t);

    // Advance the master's request and hand out completions.
    Picos backoff = config_.retry_backoff_clocks * period_;
    if (t.termination == Termination::Retry || t.termination == Termination::Disconnect)
        m.not_before = t.end + backoff;
    if (t.command == BusCommand::MemRead && config_.kind == BusKind::PciX) {
        if (t.termination == Termination::SplitResponse) {
            r.issued += t.bytes;
            ++r.outstanding;
            if (r.issued == r.bytes || r.outstanding >= m.config.max_outstanding_splits) {
                m.waiting_splits.push_back(r);
                m.queue.pop_front();
            }
        } else {
            // Immediate response (target answered with data): behaves like a PCI read.
            r.issued += t.bytes_done;
            r.done += t.bytes_done;
            if (r.done == r.bytes) {
                Request done = r;
                m.queue.pop_front();
                finish(t.master, done, t.end, t.dword);
            }
        }
    } else if (t.command == BusCommand::SplitCompletion) {
        deliver_split(r.requester, r.tag, t.bytes_done, t.end);
        r.done += t.bytes_done;
        if (r.done == r.bytes) {
            m.master->completion_sent(r.requester, r.tag);
            m.queue.pop_front();
        }
    } else {
        r.done += t.bytes_done;
        if (t.command == BusCommand::MemRead) r.issued = r.done;
        if (r.done == r.bytes) {
            // The master hears of it while the request still heads its queue: all it can do
            // meanwhile is add requests behind it (copying the request out first cost a
            // store-forwarding stall per request).
            finish(t.master, r, t.end, t.dword);
            m.queue.pop_front();
        }
    }
    if (t.termination == Termination::Retry && t.command == BusCommand::MemRead)
        take_turns_after_retry(m, t.end);
    if (!m.queue.empty()) request_bus(t.master, t.end);
    schedule_arbitration();
}

// A master with more than one read outstanding (the 82546: one per LAN function) need not
// wait for a retried read before trying its next: each is a delayed request of its own in the
// target (PCI 3.0 3.3.3.3.5, a target may queue several; each is completed when its master
// repeats it), and on PCI-X a read the completer cannot take yet (Retry) holds up no other
// sequence.  So the retried read goes behind the reads queued directly after it; a write keeps
// its place (posted writes after a read stay after it), and a read that has not arrived yet
// (handed over ahead, request_at) is not tried early.
void PciBus::take_turns_after_retry(MasterState& m, Picos end) {
    std::size_t reads = 1;
    while (reads < m.queue.size() && m.queue[reads].command == BusCommand::MemRead &&
           m.queue[reads].stats.issued <= end)
        ++reads;
    if (reads > 1) std::rotate(m.queue.begin(), m.queue.begin() + 1, m.queue.begin() + reads);
}

void PciBus::deliver_split(int requester, std::uint64_t tag, std::uint32_t bytes, Picos when) {
    MasterState& m = masters_[requester];
    auto it = std::find_if(m.waiting_splits.begin(), m.waiting_splits.end(),
                           [&](const Request& r) { return r.tag == tag; });
    Request& r = *it;
    r.done += bytes;
    // A split request of up to MMRBC bytes is over when all its bytes have come back.
    if (r.done < r.issued) return;
    --r.outstanding;
    if (r.done == r.bytes) {
        Request done = r;
        m.waiting_splits.erase(it);
        finish(requester, done, when, 0);
    } else if (r.issued < r.bytes) {
        // More to ask for: back to the front of the master's queue.
        Request more = r;
        m.waiting_splits.erase(it);
        m.queue.push_front(more);
        request_bus(requester, when);
    }
}

void PciBus::finish(int master, Request& r, Picos when, std::uint32_t dword) {
    r.stats.finished = when;
    Picos total = when - r.stats.issued;
    Picos accounted = r.stats.arbitration + r.stats.overhead + r.stats.data + r.stats.latency;
    if (total > accounted) r.stats.latency += total - accounted;
    if (r.command == BusCommand::MemRead)
        masters_[master].master->read_done(r.tag, r.stats, dword);
    else
        masters_[master].master->write_done(r.tag, r.stats);
}

}  // namespace pcisim
