// A host CPU's cache as the software's data sees it: set-associative, LRU, write-back.  It holds
// what pktgen and the driver touch (skb heads and buffers, descriptors, the driver's ring
// state); a touch that misses costs the CPU a memory access (cpu.cache.miss_ns per line).  The
// host bridge snoops it for each DMA read: a line modified here is supplied by the cache (a
// snoop hit, host.snoop_hit_ns) and is clean afterwards (implicit write-back); a DMA write
// invalidates the lines it covers.
//
// Time order: the CPU runs ahead of the kernel's time, the bridge asks at the kernel's time.  So
// a line remembers since when it is modified (the CPU time of the write that dirtied it) and
// until when (the read that wrote it back): a read asked for at `at` finds it modified only if
// the CPU wrote it by then, and a repeated question about the same read gets the same answer.
#pragma once

#include <string>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/pci_types.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> cpu_cache_params();  // cpu.cache.*

// cpu.cache.* (cpu_params() lists them); bytes == 0: no cache model (touches cost nothing).
struct CpuCacheConfig {
    std::uint64_t bytes = 0;
    unsigned line_bytes = 64;   // the host's cache line
    unsigned ways = 16;
    bool shared = false;        // one cache for all CPUs (else one each)
    Picos miss_ps = 0;          // CPU time per line missed
    bool enabled() const { return bytes != 0; }
    static CpuCacheConfig from(const ScenarioView& s);
};

class CpuCache {
public:
    explicit CpuCache(const CpuCacheConfig& config);

    // The CPU reads or writes [addr, addr+bytes) at CPU time `at`; returns the lines it missed.
    unsigned touch(std::uint64_t addr, std::uint32_t bytes, bool write, Picos at);
    // The host bridge's snoop for a DMA read asked for at `at`: is the line holding addr
    // modified here then?
    bool modified_at(std::uint64_t addr, Picos at) const;
    // A DMA read asked for at `at` took [addr, addr+bytes): the lines modified then are
    // written back (clean from then on).
    void written_back(std::uint64_t addr, std::uint32_t bytes, Picos at);
    // A DMA write of [addr, addr+bytes): the cache drops those lines.
    void invalidate(std::uint64_t addr, std::uint32_t bytes);

    struct Counters {
        std::uint64_t hits = 0, misses = 0, evictions_modified = 0, snoop_hits = 0;
    };
    const Counters& counters() const { return counters_; }
    void reset_counters() { counters_ = Counters{}; }
    const CpuCacheConfig& config() const { return config_; }

private:
    static constexpr Picos kNever = std::numeric_limits<Picos>::max();
    struct Line {
        std::uint64_t tag = 0;         // line number (addr / line_bytes)
        bool valid = false;
        Picos modified_since = kNever; // CPU time of the write that dirtied it
        Picos modified_until = kNever; // the DMA read that wrote it back
        std::uint64_t last_use = 0;    // LRU order
    };
    Line* find(std::uint64_t line_number);
    const Line* find(std::uint64_t line_number) const;
    Line& fill(std::uint64_t line_number);  // the set's LRU victim, replaced
    bool modified(const Line& l, Picos at) const {
        return l.modified_since <= at && at <= l.modified_until;
    }

    CpuCacheConfig config_;
    unsigned sets_;
    std::vector<Line> lines_;  // sets_ x ways
    std::uint64_t use_clock_ = 0;
    Counters counters_;
};

}  // namespace pcisim
