#include "platform/cpu_cache.h"

#include <algorithm>
#include <stdexcept>

#include "core/sim_time.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"

namespace pcisim {

std::vector<ParamSpec> cpu_cache_params() {
    return {
        integer("cpu.cache.kib", "KiB", 0, 0, 65536,
                "Size of the CPU cache the software's data lives in (the last level, e.g. the "
                "Athlon MP's 256 KiB L2); 0 = no cache model (touching memory costs nothing "
                "beyond the cycles, DMA reads never hit a modified line)."),
        integer("cpu.cache.ways", "ways", 16, 1, 256,
                "Associativity of cpu.cache (LRU within a set); the sets are kib * 1024 / "
                "(ways * host.cache_line_bytes), a power of two."),
        boolean("cpu.cache.shared", false,
                "One cache shared by all CPUs (false: one private cache per CPU)."),
        number("cpu.cache.miss_ns", "ns", 0, 0, 5000,
               "CPU time for each cache line the software touches that is not in cpu.cache "
               "(a load or a write-allocate from memory), on top of the code's cycles."),
        choice("cpu.cache.protocol", "mesi", {"mesi", "moesi"},
               "How the CPUs' caches keep lines coherent: mesi (Intel front-side bus: a line "
               "another CPU reads from a modified copy is written back and both keep it shared) "
               "or moesi (AMD: the modified copy becomes Owned and stays dirty, answering for "
               "the line until it is written back)."),
        number("cpu.cache.transfer_ns", "ns", 0, 0, 5000,
               "CPU time for a line another CPU's cache holds modified (or owned): the "
               "cache-to-cache transfer (HITM# and implicit write-back on the FSB, a probe "
               "response with data over HyperTransport), instead of cpu.cache.miss_ns."),
        one_of_integers("cpu.cache.sector_bytes", "bytes", 0, {0, 64, 128, 256},
                        "A miss from memory fills the whole sector of this many bytes (the "
                        "Pentium 4's L2 fetches the two 64-byte lines of a 128-byte sector; "
                        "Intel optimization manual, table 1-1); 0: one line."),
        number("cpu.cache.invalidate_ns", "ns", 0, 0, 5000,
               "CPU time for writing a line other CPUs' caches hold a copy of: the request for "
               "ownership that invalidates their copies (a bus invalidate, or probes and their "
               "responses)."),
    };
}

CpuCacheConfig CpuCacheConfig::from(const ScenarioView& s) {
    CpuCacheConfig c;
    c.bytes = static_cast<std::uint64_t>(s.integer("cpu.cache.kib")) * 1024;
    c.line_bytes = static_cast<unsigned>(s.integer("host.cache_line_bytes"));
    c.ways = static_cast<unsigned>(s.integer("cpu.cache.ways"));
    c.shared = s.boolean("cpu.cache.shared");
    c.miss_ps = ns_to_ps(s.number("cpu.cache.miss_ns"));
    c.protocol = s.text("cpu.cache.protocol") == "moesi" ? CpuCacheConfig::Protocol::Moesi
                                                          : CpuCacheConfig::Protocol::Mesi;
    c.transfer_ps = ns_to_ps(s.number("cpu.cache.transfer_ns"));
    c.invalidate_ps = ns_to_ps(s.number("cpu.cache.invalidate_ns"));
    c.sector_bytes = static_cast<unsigned>(s.integer("cpu.cache.sector_bytes"));
    return c;
}

unsigned CpuCache::line_shift(unsigned line_bytes) {
    unsigned shift = 0;
    while ((1u << shift) < line_bytes) ++shift;
    if ((1u << shift) != line_bytes)
        throw std::invalid_argument("cache line of " + std::to_string(line_bytes) +
                                    " bytes: expected a power of two");
    return shift;
}

CpuCache::CpuCache(const CpuCacheConfig& config)
    : config_(config),
      sets_(static_cast<unsigned>(config.bytes / (std::uint64_t{config.ways} * config.line_bytes))),
      line_shift_(line_shift(config.line_bytes)) {
    if (sets_ == 0 || (sets_ & (sets_ - 1)) != 0 ||
        std::uint64_t{sets_} * config.ways * config.line_bytes != config.bytes)
        throw std::invalid_argument(
            "cpu.cache.kib: " + std::to_string(config.bytes / 1024) + " KiB in " +
            std::to_string(config.ways) + " ways of " + std::to_string(config.line_bytes) +
            "-byte lines; expected a power-of-two number of sets (kib * 1024 / (ways * line))");
    tags_.assign(std::size_t{sets_} * config.ways, kNoLine);
    ways_used_.assign(sets_, 0);
    last_found_.assign(sets_, 0);
    lines_.resize(std::size_t{sets_} * config.ways);
}

CpuCache::State CpuCache::state(std::uint64_t n) const {
    const Line* l = find(n);
    return l ? l->state() : State::Invalid;
}

void CpuCache::fill(std::uint64_t n, State state, Picos at) {
    const std::size_t set_index = n & (sets_ - 1), first = set_index * config_.ways;
    Line* set = &lines_[first];
    // The victim: the first way with the least order, which is the first free way (an
    // invalid way's is 0) or else the least recently used.  Without a branch on each way's
    // value: which way wins is random, and mispredicted branches cost more than the scan.
    unsigned way = 0;
    std::uint64_t least = set[0].order;
    for (unsigned w = 1; w < config_.ways; ++w) {
        const bool less = set[w].order < least;
        least = less ? set[w].order : least;
        way = less ? w : way;
    }
    Line* victim = &set[way];
    // A modified victim is written back on its way out (no timing: the write buffer hides it).
    if (victim->state() != State::Invalid && dirty(*victim)) ++counters_.evictions_modified;
    tags_[first + way] = n;
    ways_used_[set_index] = std::max<std::uint16_t>(ways_used_[set_index], way + 1);
    *victim = Line{state == State::Modified ? at : kNever, kNever, 0};
    victim->set_state(state);
    victim->used(++use_clock_);
}

void CpuCache::share(std::uint64_t n, Picos at) {
    Line* l = find(n);
    if (!l) return;
    if (dirty(*l) && config_.protocol == CpuCacheConfig::Protocol::Mesi) {
        l->modified_until = at;  // the implicit write-back of the transfer
        l->set_state(State::Shared);
    } else {
        l->set_state(dirty(*l) ? State::Owned : State::Shared);
    }
}

void CpuCache::drop(std::uint64_t n) {
    if (Line* l = find(n)) clear(*l);
}

bool CpuCache::modified_at(std::uint64_t addr, Picos at) const {
    const Line* l = find(addr >> line_shift_);
    return l && modified(*l, at);
}

void CpuCache::written_back(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    if (bytes == 0) return;
    const std::uint64_t first = addr >> line_shift_, last = (addr + bytes - 1) >> line_shift_;
    for (std::uint64_t n = first; n <= last; ++n) {
        Line* l = find(n);
        if (l && modified(*l, at) && l->modified_until == kNever) {
            l->modified_until = at;
            l->set_state(l->state() == State::Owned ? State::Shared : State::Exclusive);
            ++counters_.snoop_hits;
        }
    }
}

void CpuCache::invalidate(std::uint64_t addr, std::uint32_t bytes) {
    if (bytes == 0) return;
    const std::uint64_t first = addr >> line_shift_, last = (addr + bytes - 1) >> line_shift_;
    for (std::uint64_t n = first; n <= last; ++n)
        if (Line* l = find(n)) clear(*l);
}

}  // namespace pcisim
