#include "platform/cpu_cache.h"

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
    };
}

CpuCacheConfig CpuCacheConfig::from(const ScenarioView& s) {
    CpuCacheConfig c;
    c.bytes = static_cast<std::uint64_t>(s.integer("cpu.cache.kib")) * 1024;
    c.line_bytes = static_cast<unsigned>(s.integer("host.cache_line_bytes"));
    c.ways = static_cast<unsigned>(s.integer("cpu.cache.ways"));
    c.shared = s.boolean("cpu.cache.shared");
    c.miss_ps = ns_to_ps(s.number("cpu.cache.miss_ns"));
    return c;
}

CpuCache::CpuCache(const CpuCacheConfig& config)
    : config_(config),
      sets_(static_cast<unsigned>(config.bytes / (std::uint64_t{config.ways} * config.line_bytes))) {
    if (sets_ == 0 || (sets_ & (sets_ - 1)) != 0 ||
        std::uint64_t{sets_} * config.ways * config.line_bytes != config.bytes)
        throw std::invalid_argument(
            "cpu.cache.kib: " + std::to_string(config.bytes / 1024) + " KiB in " +
            std::to_string(config.ways) + " ways of " + std::to_string(config.line_bytes) +
            "-byte lines; expected a power-of-two number of sets (kib * 1024 / (ways * line))");
    lines_.resize(std::size_t{sets_} * config.ways);
}

CpuCache::Line* CpuCache::find(std::uint64_t n) {
    Line* set = &lines_[(n & (sets_ - 1)) * config_.ways];
    for (unsigned w = 0; w < config_.ways; ++w)
        if (set[w].valid && set[w].tag == n) return &set[w];
    return nullptr;
}

const CpuCache::Line* CpuCache::find(std::uint64_t n) const {
    return const_cast<CpuCache*>(this)->find(n);
}

CpuCache::Line& CpuCache::fill(std::uint64_t n) {
    Line* set = &lines_[(n & (sets_ - 1)) * config_.ways];
    Line* victim = &set[0];
    for (unsigned w = 0; w < config_.ways && victim->valid; ++w)
        if (!set[w].valid || set[w].last_use < victim->last_use) victim = &set[w];
    // A modified victim is written back on its way out (no timing: the write buffer hides it).
    if (victim->valid && victim->modified_until == kNever && victim->modified_since != kNever)
        ++counters_.evictions_modified;
    *victim = Line{};
    victim->tag = n;
    victim->valid = true;
    return *victim;
}

unsigned CpuCache::touch(std::uint64_t addr, std::uint32_t bytes, bool write, Picos at) {
    if (bytes == 0) return 0;
    unsigned missed = 0;
    const std::uint64_t first = addr / config_.line_bytes, last = (addr + bytes - 1) / config_.line_bytes;
    for (std::uint64_t n = first; n <= last; ++n) {
        Line* l = find(n);
        if (l) {
            ++counters_.hits;
        } else {
            ++counters_.misses;
            ++missed;
            l = &fill(n);
        }
        l->last_use = ++use_clock_;
        // A write dirties a clean line from now on; a line already modified stays so since then.
        if (write && !(l->modified_since != kNever && l->modified_until == kNever)) {
            l->modified_since = at;
            l->modified_until = kNever;
        }
    }
    return missed;
}

bool CpuCache::modified_at(std::uint64_t addr, Picos at) const {
    const Line* l = find(addr / config_.line_bytes);
    return l && modified(*l, at);
}

void CpuCache::written_back(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    if (bytes == 0) return;
    const std::uint64_t first = addr / config_.line_bytes, last = (addr + bytes - 1) / config_.line_bytes;
    for (std::uint64_t n = first; n <= last; ++n) {
        Line* l = find(n);
        if (l && modified(*l, at) && l->modified_until == kNever) {
            l->modified_until = at;
            ++counters_.snoop_hits;
        }
    }
}

void CpuCache::invalidate(std::uint64_t addr, std::uint32_t bytes) {
    if (bytes == 0) return;
    const std::uint64_t first = addr / config_.line_bytes, last = (addr + bytes - 1) / config_.line_bytes;
    for (std::uint64_t n = first; n <= last; ++n)
        if (Line* l = find(n)) *l = Line{};
}

}  // namespace pcisim
