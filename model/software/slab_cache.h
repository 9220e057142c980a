// One kmem_cache of the 2.6-era SLAB allocator (mm/slab.c), as far as its cost shows: each CPU
// allocates from and frees into its own array of free objects (last in, first out: the hot one
// first); an empty array is refilled with `batchcount` objects from the cache's slab lists, a
// full one flushes its `batchcount` oldest objects back to them, and each such batch costs the
// CPU the slab lists' locking and bookkeeping (cpu.cycles.slab_batch).  enable_cpucache() sizes
// the arrays by object size: 120 objects up to 256 bytes, 54 up to 1 KiB, 24 up to a page, 8
// beyond; batchcount is half the limit.
#pragma once

#include <string>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace pcisim {

struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> slab_params();  // slab.*

class SlabCache {
public:
    // `grow` makes a new object (cache_grow: a fresh slab) and returns its id.
    SlabCache(std::uint32_t object_bytes, std::function<int()> grow);

    static unsigned array_limit(std::uint32_t object_bytes);
    unsigned limit() const { return limit_; }
    // An SMP kernel's shared array (2.6.9 do_tune_cpucache: batchcount * 8 objects for objects
    // up to a page), which a full CPU array flushes into and an empty one refills from before the
    // slab lists: "efficient object passing between cpus" when one CPU allocates and another
    // frees.  0 (a UP kernel): none.
    void use_shared_array(bool on) { shared_limit_ = on && object_bytes_ <= 4096 ? batch_ * 8 : 0; }
    unsigned batchcount() const { return batch_; }

    // `cpu` names the CPU whose array is used (any stable key, one per CPU).
    int allocate(const void* cpu);
    void free(int object, const void* cpu);

    struct Counters {
        std::uint64_t refills = 0, flushes = 0;  // batches moved to or from the slab lists
    };
    const Counters& counters() const { return counters_; }
    // Also counts every batch into `*total` (the pool's sum over its caches), from now on.
    void count_batches_into(std::uint64_t* total) { batch_total_ = total; }

private:
    std::uint32_t object_bytes_;
    unsigned limit_, batch_;
    unsigned shared_limit_ = 0;
    std::vector<int> shared_;  // the shared array, top = most recently flushed
    std::function<int()> grow_;
    std::vector<int>& array_of(const void* cpu);
    // Per CPU (a few: found by a look along the list), top = hottest.
    std::vector<std::pair<const void*, std::vector<int>>> arrays_;
    std::vector<int> lists_;                                    // free objects in the slabs
    Counters counters_;
    std::uint64_t* batch_total_ = nullptr;
};

}  // namespace pcisim
