// The CPUs' caches kept coherent: what a CPU's read or write of a line costs, given what the
// other CPUs' caches hold.  MESI on the Intel front-side-bus platforms, MOESI on the Athlon MP
// and the Opteron (cpu.cache.protocol).  A line the CPU holds is free; a line no other cache
// holds dirty comes from memory (cpu.cache.miss_ns); a line another cache holds modified or
// owned comes from that cache (cpu.cache.transfer_ns), which keeps a shared copy (MESI: written
// back; MOESI: Owned, still dirty) when the CPU reads it and drops it when the CPU writes it; a
// write to a line others share invalidates their copies (cpu.cache.invalidate_ns).
//
// With cpu.cache.shared every CPU uses one cache (Hyper-Threading siblings): nothing moves.
// Lines move between CPUs only here; the host bridge snoops the caches for DMA itself.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/line_use.h"
#include "core/pci_types.h"
#include "platform/cpu_cache.h"

namespace pcisim {

class CacheCoherence {
public:
    CacheCoherence(const CpuCacheConfig& config, unsigned cpus);
    // NUMA: a miss of memory on another node than the CPU's (CPU c on node c % nodes) costs
    // `hop` more; `node_of` says where an address lives.
    void use_numa(std::function<unsigned(std::uint64_t)> node_of, unsigned nodes, Picos hop) {
        node_of_ = std::move(node_of);
        nodes_ = nodes;
        hop_ = hop;
    }

    // CPU `cpu` reads or writes [addr, addr + bytes) at its time `at`: the CPU time it costs.
    Picos touch(unsigned cpu, std::uint64_t addr, std::uint32_t bytes, bool write, Picos at,
                LineUse use);

    // Per CPU, by what the lines hold.
    struct Counters {
        std::uint64_t misses = 0;      // lines that came from memory or another cache
        LineUseCounts transfers{};     // lines that came from another CPU's modified copy
        LineUseCounts invalidations{}; // writes that took the line from other CPUs' copies
        std::uint64_t remote_misses = 0;  // misses of another node's memory (NUMA)
    };
    const Counters& counters(unsigned cpu) const { return counters_.at(cpu); }
    void reset_counters();

    CpuCache& cache_of(unsigned cpu) { return *caches_[cache_index(cpu)]; }
    const CpuCache& cache_of(unsigned cpu) const { return *caches_[cache_index(cpu)]; }
    // Every cache once (the host bridge snoops them).
    const std::vector<std::unique_ptr<CpuCache>>& caches() const { return caches_; }
    const CpuCacheConfig& config() const { return config_; }

private:
    std::size_t cache_index(unsigned cpu) const { return config_.shared ? 0 : cpu; }
    Picos touch_line(unsigned cpu, std::uint64_t line, CpuCache::State held, bool write, Picos at,
                     LineUse use);
    void fill_sector(CpuCache& own, std::uint64_t line, Picos at);

    CpuCacheConfig config_;
    unsigned line_shift_ = 0;  // log2 of config_.line_bytes
    std::function<unsigned(std::uint64_t)> node_of_;
    unsigned nodes_ = 1;
    Picos hop_ = 0;
    std::vector<std::unique_ptr<CpuCache>> caches_;
    std::vector<Counters> counters_;
};

}  // namespace pcisim
