#include "e1000/e1000_tx_ring.h"

#include "core/dma_memory.h"
#include "core/invariants.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

TxRing::TxRing(std::string name, unsigned index, const E1000Params& params, InterruptLogic& irq,
               std::function<void()> kick)
    : name_(std::move(name)), index_(index), params_(params), irq_(irq), kick_(std::move(kick)),
      cache_(params.descriptor_cache_entries, params.cache_line_bytes) {}

void TxRing::map_registers(RegisterFile& r) {
    r.add(kTdbal, "TDBAL", [this] { return static_cast<std::uint32_t>(cache_.base()); },
          [this](std::uint32_t v) { cache_.set_base_low(v); });
    r.add(kTdbah, "TDBAH", [this] { return static_cast<std::uint32_t>(cache_.base() >> 32); },
          [this](std::uint32_t v) { cache_.set_base_high(v); });
    r.add(kTdlen, "TDLEN", [this] { return cache_.length_bytes(); },
          [this](std::uint32_t v) { cache_.set_length_bytes(v); });
    r.add(kTdh, "TDH", [this] { return cache_.head(); }, [this](std::uint32_t v) { cache_.set_head(v); });
    r.add(kTdt, "TDT", [this] { return tdt_; }, [this](std::uint32_t v) {
        check_tail_move(v);
        stamp_handed_over(v);
        tdt_ = v;
        cache_.set_tail(v);
        kick_();
    });
}

// Software hands the NIC descriptors up to (not including) TDT; moving TDT past TDH would
// hand over descriptors the NIC still owns: a ring overrun.
void TxRing::check_tail_move(std::uint32_t value) const {
    unsigned n = cache_.slots();
    if (n == 0) return;
    unsigned added = (value % n + n - tdt_ % n) % n;
    unsigned free = (cache_.head() + n - tdt_ % n - 1) % n;
    if (added > free)
        throw InvariantViolation(name_, "TX ring overrun: TDT written " + std::to_string(value) +
                                            " moves " + std::to_string(added) +
                                            " descriptors past TDT " + std::to_string(tdt_) +
                                            " with only " + std::to_string(free) +
                                            " free before TDH " +
                                            std::to_string(cache_.head()) + " (ring of " +
                                            std::to_string(n) + ")");
}

// One stamp per ring slot (TDLEN may have changed since the last).
void TxRing::size_stamps() {
    unsigned n = cache_.slots();
    if (handed_over_at_.size() != n) handed_over_at_.assign(n, 0), fetched_at_.assign(n, 0);
}

// The descriptors from the old tail up to `new_tail` are software's no more from now on.
void TxRing::stamp_handed_over(std::uint32_t new_tail) {
    unsigned n = cache_.slots();
    if (n == 0) return;
    size_stamps();
    Picos now = now_ps();
    for (unsigned slot = tdt_ % n; slot != new_tail % n; slot = (slot + 1) % n)
        handed_over_at_[slot] = now;
}

bool TxRing::next_fetch(ReadRequest& out, Txdctl txdctl) {
    if (!cache_.fetch_wanted(txdctl)) return false;
    fetch_ = cache_.plan_fetch();
    cache_.fetch_issued(fetch_);
    out = {ReadKind::Descriptors, fetch_.addr, fetch_.count * kDescriptorBytes};
    ++stats_.descriptor_fetches;
    stats_.descriptors_fetched += fetch_.count;
    trace::emit(TraceStep::DescriptorFetch, TracePhase::Begin, name_.c_str(), now_ps(), index_, -1, out.bytes);
    return true;
}

// A fetch never wraps past the ring end (DescriptorCache::plan_fetch).
void TxRing::fetch_arrived(const ReadRequest& r, const DmaMemory& mem) {
    cache_.fetch_arrived(fetch_, mem);
    size_stamps();
    Picos now = now_ps();
    for (unsigned i = 0; i < fetch_.count; ++i) fetched_at_[fetch_.first + i] = now;
    trace::emit(TraceStep::DescriptorFetch, TracePhase::End, name_.c_str(), now, index_, -1, r.bytes);
}

}  // namespace pcisim::e1000
