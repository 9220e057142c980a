#include "platform/cache_coherence.h"

namespace pcisim {

using State = CpuCache::State;

CacheCoherence::CacheCoherence(const CpuCacheConfig& config, unsigned cpus)
    : config_(config), line_shift_(CpuCache::line_shift(config.line_bytes)), counters_(cpus) {
    const unsigned caches = config.shared ? 1 : cpus;
    for (unsigned c = 0; c < caches; ++c) caches_.push_back(std::make_unique<CpuCache>(config));
}

void CacheCoherence::reset_counters() {
    for (Counters& c : counters_) c = Counters{};
    for (auto& cache : caches_) cache->reset_counters();
}

Picos CacheCoherence::touch(unsigned cpu, std::uint64_t addr, std::uint32_t bytes, bool write,
                            Picos at, LineUse use) {
    if (bytes == 0) return 0;
    const std::uint64_t first = addr >> line_shift_;
    const std::uint64_t last = (addr + bytes - 1) >> line_shift_;
    CpuCache& own = cache_of(cpu);
    Picos cost = 0;
    for (std::uint64_t n = first; n <= last; ++n) {
        // The common case, a line this cache holds and may use as it is (a read, or a write to
        // a line no other cache may hold), without touch_line's bookkeeping.
        const State held = own.use_if_held(n, write, at);
        if (held == State::Modified || held == State::Exclusive ||
            (!write && held != State::Invalid)) {
            ++own.counters().hits;
            continue;
        }
        cost += touch_line(cpu, n, held, write, at, use);
    }
    return cost;
}

// A miss from memory fetches the rest of the line's sector too, into this cache only where no
// cache holds those lines (the sector read is a plain memory read of them).
void CacheCoherence::fill_sector(CpuCache& own, std::uint64_t line, Picos at) {
    const unsigned lines = config_.sector_bytes / config_.line_bytes;
    if (lines <= 1) return;
    const std::uint64_t first = line / lines * lines;
    for (std::uint64_t n = first; n < first + lines; ++n) {
        if (n == line) continue;
        bool held = false;
        for (auto& c : caches_) held = held || c->state(n) != State::Invalid;
        if (!held) own.fill(n, State::Exclusive, at);
    }
}

// `held`: the line's state in the CPU's cache before this use (which use_if_held made).
Picos CacheCoherence::touch_line(unsigned cpu, std::uint64_t line, State held, bool write,
                                 Picos at, LineUse use) {
    CpuCache& own = cache_of(cpu);
    // The other caches' copies: whether any, and whether one of them is dirty.
    bool others = false;
    bool dirty_elsewhere = false;
    auto survey = [&] {
        for (auto& c : caches_) {
            if (c.get() == &own) continue;
            const State s = c->state(line);
            if (s == State::Invalid) continue;
            others = true;
            dirty_elsewhere = dirty_elsewhere || s == State::Modified || s == State::Owned;
        }
    };
    if (held != State::Invalid) {
        ++own.counters().hits;
        // A write to a line others may share (S, or O under MOESI) takes it from them.
        if (write && (held == State::Shared || held == State::Owned)) survey();
        if (!others) return 0;
        for (auto& c : caches_)
            if (c.get() != &own) c->drop(line);
        ++counters_[cpu].invalidations[static_cast<std::size_t>(use)];
        return config_.invalidate_ps;
    }
    ++own.counters().misses;
    ++counters_[cpu].misses;
    survey();
    Picos cost = config_.miss_ps;
    if (dirty_elsewhere) {
        cost = config_.transfer_ps;
        ++counters_[cpu].transfers[static_cast<std::size_t>(use)];
    } else {
        fill_sector(own, line, at);
        if (nodes_ > 1 && node_of_(line * config_.line_bytes) != cpu % nodes_) {
            cost += hop_;
            ++counters_[cpu].remote_misses;
        }
    }
    if (write) {
        // Read for ownership: the other copies go (a dirty one came with the transfer).
        if (others) {
            for (auto& c : caches_)
                if (c.get() != &own) c->drop(line);
            ++counters_[cpu].invalidations[static_cast<std::size_t>(use)];
        }
        own.fill(line, State::Modified, at);
        return cost;
    }
    for (auto& c : caches_)
        if (c.get() != &own) c->share(line, at);
    own.fill(line, others ? State::Shared : State::Exclusive, at);
    return cost;
}

}  // namespace pcisim
