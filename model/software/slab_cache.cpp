#include "software/slab_cache.h"

#include <algorithm>

#include "config/scenario_view.h"
#include "config/param_spec.h"

namespace pcisim {

std::vector<ParamSpec> slab_params() {
    return {
        number("cpu.cycles.slab_batch", "cycles", 0, 0, 1e6,
               "Moving one batch of objects between a CPU's slab array and the slab lists "
               "(refill on allocation from an empty array, flush on freeing into a full one): "
               "the cache's lock and the slab bookkeeping of the 2.6 SLAB allocator."),
    };
}

// mm/slab.c, enable_cpucache() of 2.6.9: the per-CPU array limit by object size.
unsigned SlabCache::array_limit(std::uint32_t object_bytes) {
    if (object_bytes <= 256) return 120;
    if (object_bytes <= 1024) return 54;
    if (object_bytes <= 4096) return 24;
    return 8;
}

SlabCache::SlabCache(std::uint32_t object_bytes, std::function<int()> grow)
    : object_bytes_(object_bytes),
      limit_(array_limit(object_bytes)),
      batch_((limit_ + 1) / 2),
      grow_(std::move(grow)) {}

std::vector<int>& SlabCache::array_of(const void* cpu) {
    for (auto& [owner, array] : arrays_)
        if (owner == cpu) return array;
    arrays_.emplace_back(cpu, std::vector<int>{});
    return arrays_.back().second;
}

int SlabCache::allocate(const void* cpu) {
    std::vector<int>& array = array_of(cpu);
    if (array.empty()) {
        // cache_alloc_refill: a batch from the shared array (SMP), else from the slab lists,
        // growing the cache when they are empty.
        ++counters_.refills;
        if (batch_total_) ++*batch_total_;
        if (!shared_.empty()) {
            const std::size_t n = std::min<std::size_t>(batch_, shared_.size());
            array.insert(array.end(), shared_.end() - static_cast<std::ptrdiff_t>(n), shared_.end());
            shared_.resize(shared_.size() - n);
            int object = array.back();
            array.pop_back();
            return object;
        }
        for (unsigned n = 0; n < batch_; ++n) {
            if (lists_.empty()) {
                array.push_back(grow_());
            } else {
                array.push_back(lists_.back());
                lists_.pop_back();
            }
        }
        // The refill's objects in the order the CPU will take them: the first taken on top.
        std::reverse(array.begin(), array.end());
    }
    int object = array.back();
    array.pop_back();
    return object;
}

void SlabCache::free(int object, const void* cpu) {
    std::vector<int>& array = array_of(cpu);
    if (array.size() >= limit_) {
        // cache_flusharray: the oldest batchcount objects go to the shared array while it has
        // room (SMP), else back to the slab lists.
        ++counters_.flushes;
        if (batch_total_) ++*batch_total_;
        if (shared_.size() + batch_ <= shared_limit_)
            shared_.insert(shared_.end(), array.begin(), array.begin() + batch_);
        else
            lists_.insert(lists_.end(), array.begin(), array.begin() + batch_);
        array.erase(array.begin(), array.begin() + batch_);
    }
    array.push_back(object);
}

}  // namespace pcisim
