#include "platform/bridge_face.h"

#include <algorithm>
#include <stdexcept>

#include "config/scenario_view.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim {

std::vector<ParamSpec> face_params(const std::string& prefix) {
    return {
        choice(prefix + ".read_response", "delayed", {"delayed", "wait"},
               "Conventional PCI DMA reads: 'delayed' = retry while fetching (delayed "
               "transaction); 'wait' = hold TRDY# if data comes within the initial-latency limit."),
        integer(prefix + ".prefetch_bytes", "bytes", 512, 4, 4096,
                "Conventional PCI: bytes fetched for one delayed read, from the start of the "
                "cache line; the target disconnects at the end of them."),
        choice(prefix + ".devsel", "medium", {"fast", "medium", "slow"},
               "DEVSEL# timing as a target (PCI-X: decode A/B/C)."),
        integer(prefix + ".initial_latency_limit_clocks", "clocks", 16, 1, 64,
                "Target initial latency limit (PCI 3.0 3.5.1.1): beyond it a read is retried."),
        boolean(prefix + ".prefetch_ahead", false,
                "Conventional PCI: while a master drains one prefetch buffer the bridge fetches "
                "the next (double buffering), so a master disconnected at the buffer end finds "
                "the following bytes ready or soon."),
        integer(prefix + ".completion_chunk_bytes", "bytes", 0, 0, 4096,
                "PCI-X: bytes per split completion transaction (each re-arbitrates); 0 = the "
                "whole request in one."),
        integer(prefix + ".delayed_request_limit", "requests", 0, 0, 64,
                "Conventional PCI: delayed read requests the face holds at once (PCI 3.0 "
                "3.3.3.3.5); a further read is retried without being latched until one has been "
                "completed. 0 = no limit."),
        integer(prefix + ".split_transaction_limit", "requests", 0, 0, 64,
                "PCI-X: split read requests the face has accepted and not finished completing; "
                "a further read is retried until the last completion of one has crossed the "
                "bus. 0 = no limit."),
    };
}

FaceConfig FaceConfig::from(const ScenarioView& s, const std::string& prefix,
                            unsigned cache_line_bytes) {
    FaceConfig c;
    c.delayed_reads = s.text(prefix + ".read_response") == "delayed";
    c.prefetch_bytes = static_cast<std::uint32_t>(s.integer(prefix + ".prefetch_bytes"));
    std::string d = s.text(prefix + ".devsel");
    c.devsel = d == "fast" ? Devsel::Fast : d == "slow" ? Devsel::Slow : Devsel::Medium;
    c.initial_latency_limit_clocks =
        static_cast<unsigned>(s.integer(prefix + ".initial_latency_limit_clocks"));
    c.prefetch_ahead = s.boolean(prefix + ".prefetch_ahead");
    c.completion_chunk_bytes =
        static_cast<std::uint32_t>(s.integer(prefix + ".completion_chunk_bytes"));
    c.delayed_request_limit = static_cast<unsigned>(s.integer(prefix + ".delayed_request_limit"));
    c.split_transaction_limit =
        static_cast<unsigned>(s.integer(prefix + ".split_transaction_limit"));
    c.cache_line_bytes = cache_line_bytes;
    return c;
}

BridgeFace::BridgeFace(sc_core::sc_module_name name, const FaceConfig& config, PciBus& bus,
                       MemoryPath& up)
    : sc_core::sc_module(name), config_(config), bus_(bus), up_(up) {
    MasterConfig mc;
    mc.name = std::string(this->name());
    master_id_ = bus_.attach_master(this, mc);
    bus_.attach_default_target(this);
    SC_METHOD(on_pending);
    sensitive << pending_event_;
    dont_initialize();
}

void BridgeFace::schedule(Pending p) {
    p.seq = seq_++;
    Picos now = now_ps();
    if (p.when < now) p.when = now;
    pending_.push(p);
    pending_event_.notify(ps(pending_.top().when - now));
}

void BridgeFace::on_pending() {
    Picos now = now_ps();
    while (!pending_.empty() && pending_.top().when <= now) {
        Pending p = pending_.top();
        pending_.pop();
        switch (p.kind) {
        // A register access goes behind those of its arrival time from CPUs with lower numbers
        // (one handed over ahead may be queued already: hand_over_ahead).
        case Pending::MmioWrite:
            bus_.request_at(master_id_, BusCommand::MemWrite, p.addr, 0, p.value, now, p.cpu);
            break;
        case Pending::MmioRead: {
            std::uint64_t tag = next_tag_++;
            reads_.push_back({tag, p.tag, p.return_latency, p.client});
            bus_.request_at(master_id_, BusCommand::MemRead, p.addr, tag, 0, now, p.cpu);
            break;
        }
        case Pending::Completion: bus_.split_completion(master_id_, p.requester, p.tag, p.value); break;
        case Pending::MmioReturn: p.client->mmio_read_done(p.tag, p.value); break;
        }
    }
    if (!pending_.empty()) pending_event_.notify(ps(pending_.top().when - now));
}

// On conventional PCI the CPU's accesses are all this face carries down, in the order they
// arrive (several CPUs' at the same time in CPU order, MmioTarget): each goes to the bus at once
// with its arrival time and CPU (PciBus::request_at), and the face
// needs no wake-up for it, unless something of its own waits to go first (queued while the bus
// took nothing ahead).  PCI-X completions share the face's queue and keep their time order
// through it, so there every access waits in the queue too.
bool BridgeFace::hand_over_ahead() const {
    return bus_.config().kind == BusKind::Pci && bus_.takes_requests_ahead() && pending_.empty();
}

void BridgeFace::mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) {
    if (hand_over_ahead())
        return bus_.request_at(master_id_, BusCommand::MemWrite, addr, 0, value, at, cpu);
    schedule({Pending::MmioWrite, at, cpu, 0, addr, value, -1, 0, 0, nullptr});
}

void BridgeFace::mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                           MmioClient* client, std::uint64_t tag) {
    if (hand_over_ahead()) {
        std::uint64_t bus_tag = next_tag_++;
        reads_.push_back({bus_tag, tag, return_latency, client});
        return bus_.request_at(master_id_, BusCommand::MemRead, addr, bus_tag, 0, at, cpu);
    }
    schedule({Pending::MmioRead, at, cpu, 0, addr, 0, -1, tag, return_latency, client});
}

void BridgeFace::read_done(std::uint64_t tag, const DmaStats&, std::uint32_t dword) {
    auto it = std::find_if(reads_.begin(), reads_.end(),
                           [&](const ReadInFlight& r) { return r.tag == tag; });
    Pending back{Pending::MmioReturn, now_ps() + it->return_latency, 0, 0, 0, dword, -1,
                 it->client_tag, 0, it->client};
    reads_.erase(it);
    schedule(back);
}

std::uint64_t BridgeFace::prefetch_end(std::uint64_t addr) const {
    std::uint64_t line = config_.cache_line_bytes;
    std::uint64_t end = addr / line * line + config_.prefetch_bytes;
    return end > addr ? end : (addr / line + 1) * line;
}

// A delayed request is completed only for the master that repeats it (PCI 3.0 3.3.3.3.1); the
// model knows the request by its master and that master's tag, so the 82546's two LAN functions,
// one master on the bus, hold a delayed read each.
BridgeFace::DelayedRead* BridgeFace::find_delayed(const BusTransaction& t) {
    for (auto& d : delayed_)
        if (d.master == t.master && d.tag == t.tag) return &d;
    return nullptr;
}

bool BridgeFace::delayed_queue_full() const {
    return config_.delayed_request_limit && delayed_.size() >= config_.delayed_request_limit;
}

bool BridgeFace::split_queue_full() const {
    return config_.split_transaction_limit && splits_.size() >= config_.split_transaction_limit;
}

MemoryPath::Snoop BridgeFace::snoop_read(const BusTransaction& t, std::uint64_t addr,
                                         std::uint64_t end, Picos snoop_at) const {
    auto it = std::find_if(snoop_answers_.begin(), snoop_answers_.end(),
                           [&](const SnoopAnswer& a) { return a.master == t.master; });
    if (it != snoop_answers_.end() && it->tag == t.tag && it->addr == addr && it->end == end &&
        it->start == snoop_at)
        return it->answer;
    SnoopAnswer a{t.master, t.tag, addr, end, snoop_at,
                  up_.snoop_read(addr, static_cast<std::uint32_t>(end - addr), snoop_at)};
    if (it == snoop_answers_.end()) snoop_answers_.push_back(a);
    else *it = a;
    return a.answer;
}

BridgeFace::LineTiming BridgeFace::line_timing(const BusTransaction& t, std::uint64_t addr,
                                               std::uint64_t end, Picos jitter,
                                               Picos snoop_at) const {
    std::uint32_t line = config_.cache_line_bytes;
    std::uint32_t in_first = line - static_cast<std::uint32_t>(addr % line);
    Picos first = up_.read_time(addr, in_first);
    Picos per_line = up_.read_time(addr, in_first + line) - first;
    MemoryPath::Snoop snoop = snoop_read(t, addr, end, snoop_at);
    if (snoop.first) first = snoop.first;
    return {first + jitter, per_line, snoop.further};
}

void BridgeFace::taken(const BusTransaction& t, std::uint64_t addr, std::uint64_t end) {
    std::uint64_t want = std::min<std::uint64_t>(t.addr + t.bytes, end);
    if (want > addr) up_.read_taken(addr, static_cast<std::uint32_t>(want - addr), t.start);
}

void BridgeFace::pace(TargetOffer& o, const DelayedRead& d) const {
    o.max_bytes = static_cast<std::uint32_t>(d.end - d.addr);
    o.first_line_ready = d.first_ready;
    o.line_time = d.line_time;
    o.line_bytes = config_.cache_line_bytes;
    o.modified = d.modified;
}

// For explain and traces: how long a read of `master`'s taken at `from` waits behind posted
// writes (one track per master: each has one read outstanding at a time).
void BridgeFace::note_commit_wait(int master, Picos from) const {
    Picos start = up_.read_start(from);
    if (start > from) {
        auto track = static_cast<unsigned>(master);
        trace::emit(TraceStep::WriteCommitWait, TracePhase::Begin, name(), from, track);
        trace::emit(TraceStep::WriteCommitWait, TracePhase::End, name(), start, track);
    }
}

BridgeFace::DelayedRead BridgeFace::fetch(const BusTransaction& t, std::uint64_t addr,
                                          Picos from, Picos jitter) const {
    DelayedRead d;
    d.master = t.master;
    d.tag = t.tag;
    d.addr = addr;
    d.end = prefetch_end(addr);
    LineTiming lt = line_timing(t, addr, d.end, jitter, t.start);
    note_commit_wait(t.master, from);
    d.first_ready = up_.read_start(from) + lt.first;
    d.line_time = lt.per_line;
    d.modified = lt.modified;
    return d;
}

TargetOffer BridgeFace::offer(const BusTransaction& t, Picos start) {
    TargetOffer o;
    o.devsel = config_.devsel;
    if (t.command == BusCommand::MemWrite) return o;  // posted: taken at once
    if (bus_.config().kind == BusKind::PciX) {
        // A completer that cannot take a split request now terminates it with Retry; the
        // requester repeats it (PCI-X 2.0 2.10).  When a slot frees is up to the completions
        // still to cross the bus: no promise, each repeat is simulated.
        o.kind = split_queue_full() ? TargetOffer::Retry : TargetOffer::Split;
        return o;
    }
    // The data streams out as its cache lines come in, once the first one is here.
    const DelayedRead* d = find_delayed(t);
    if (d && d->addr == t.addr) {
        if (d->first_ready > start) {
            o.kind = TargetOffer::Retry;
            o.promise.retry_until = d->first_ready;  // complete() leaves a latched read alone
            o.promise.then_known = true;
            o.max_bytes = static_cast<std::uint32_t>(d->end - d->addr);
            o.line_time = d->line_time;
            o.line_bytes = config_.cache_line_bytes;
            o.modified = d->modified;
        } else
            pace(o, *d);
        return o;
    }
    if (!config_.delayed_reads) {
        // Hold TRDY# for the first line if it comes within the initial-latency limit.
        DelayedRead now = fetch(t, t.addr, start, 0);
        Picos period = bus_.period();
        Picos clocks = (now.first_ready - start + period - 1) / period;
        if (clocks <= config_.initial_latency_limit_clocks) {
            unsigned base = std::max(static_cast<unsigned>(config_.devsel), 2u);
            o.initial_wait_clocks = clocks > base ? static_cast<unsigned>(clocks - base) : 0;
            pace(o, now);
            return o;
        }
    }
    o.kind = TargetOffer::Retry;
    // A full queue takes no new request (PCI 3.0 3.3.3.3.5): Retry without latching it, and no
    // promise (a slot frees when another master's read is completed).  A request of the same
    // master and tag at a new address replaces its own entry, so it always finds room.
    if (!d && delayed_queue_full()) return o;
    // complete() latches it at the end, as fetch() from that end describes it.
    LineTiming lt =
        line_timing(t, t.addr, prefetch_end(t.addr), up_.read_jitter(reads_started_), start);
    // Known only when no posted write is still being committed ahead of it.
    o.promise.ready_after_end = up_.read_start(start) == start ? lt.first : 0;
    o.promise.then_known = true;
    o.max_bytes = static_cast<std::uint32_t>(prefetch_end(t.addr) - t.addr);
    o.line_time = lt.per_line;
    o.line_bytes = config_.cache_line_bytes;
    o.modified = lt.modified;
    return o;
}

void BridgeFace::complete(BusTransaction& t) {
    if (t.command == BusCommand::MemWrite) {
        up_.posted_write(t.addr, t.bytes_done, t.end);
        return;
    }
    if (t.termination == Termination::SplitResponse) {
        // Fetch the bytes and return them in completion chunks as each chunk is in.
        std::uint32_t chunk = config_.completion_chunk_bytes ? config_.completion_chunk_bytes
                                                             : t.bytes;
        std::uint32_t sent = 0;
        Picos jitter = up_.read_jitter(reads_started_++);
        note_commit_wait(t.master, t.end);
        // A snoop hit replaces the memory latency of the read's first line; each further
        // modified line delays the chunk holding it and every later one (HostBridge).
        Picos first_line = up_.read_time(t.addr, 1);
        MemoryPath::Snoop snoop = snoop_read(t, t.addr, t.addr + t.bytes, t.start);
        up_.read_taken(t.addr, t.bytes, t.start);
        const std::uint64_t line = config_.cache_line_bytes;
        while (sent < t.bytes) {
            std::uint32_t n = std::min(chunk, t.bytes - sent);
            Picos ready = up_.read_start(t.end) + up_.read_time(t.addr, sent + n) + jitter;
            if (snoop.first) ready = ready - first_line + snoop.first;
            ready += snoop.further.until((t.addr + sent + n - 1) / line - t.addr / line);
            schedule({Pending::Completion, ready, 0, 0, t.addr + sent, n, t.master, t.tag, 0,
                      nullptr});
            sent += n;
        }
        unsigned completions = (t.bytes + chunk - 1) / chunk;
        splits_.push_back({t.master, t.tag, completions});
        return;
    }
    if (bus_.config().kind == BusKind::PciX) return;  // a split request retried: nothing taken
    DelayedRead* d = find_delayed(t);
    if (t.termination == Termination::Retry) {
        if (d && d->addr == t.addr) return;  // still fetching
        // Latch a new delayed request (offer() said whether there is room); a different address
        // of the same request replaces it.
        if (d) *d = fetch(t, t.addr, t.end, up_.read_jitter(reads_started_++));
        else if (!delayed_queue_full())
            delayed_.push_back(fetch(t, t.addr, t.end, up_.read_jitter(reads_started_++)));
        else
            return;
        taken(t, t.addr, prefetch_end(t.addr));
        return;
    }
    // A master that read a buffer to its end will want what follows: with prefetch_ahead the
    // bridge fetched it while the first buffer drained (double buffering).
    if (config_.prefetch_ahead && d && t.termination == Termination::Disconnect &&
        t.addr + t.bytes_done == d->end) {
        *d = fetch(t, d->end, t.start, up_.read_jitter(reads_started_++));
        taken(t, d->addr, d->end);
        return;
    }
    // A read served in wait states (read_response "wait") was never latched.
    if (!d && !config_.delayed_reads) taken(t, t.addr, t.addr + t.bytes_done);
    // Otherwise the delayed completion is used up; leftover prefetched data is dropped.
    if (d) delayed_.erase(delayed_.begin() + (d - delayed_.data()));
}

// A completion of a split read has crossed the bus; after its last one the read's slot is free.
void BridgeFace::completion_sent(int requester, std::uint64_t tag) {
    auto it = std::find_if(splits_.begin(), splits_.end(), [&](const SplitRead& r) {
        return r.requester == requester && r.tag == tag;
    });
    if (it == splits_.end())
        throw std::logic_error(std::string(name()) + ": completion of a split read it never took");
    if (--it->completions_left == 0) splits_.erase(it);
}

}  // namespace pcisim
