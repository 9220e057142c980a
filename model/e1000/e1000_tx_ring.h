// The transmit descriptor ring as the NIC holds it (SDM 3.3.1, 13.4.38-42): TDBAL, TDBAH, TDLEN,
// TDH and TDT, the on-chip descriptor cache and its fetches, and, per ring slot, when the tail
// write that handed the descriptor over reached the NIC and when the descriptor arrived in the
// cache (a packet's FrameTimeline takes its EOP descriptor's).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_descriptor_cache.h"
#include "nic/frame_timeline.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

// The ring's counters (since the last reset).
struct TxRingStats {
    std::uint64_t descriptor_fetches = 0;  // descriptor DMA reads
    std::uint64_t descriptors_fetched = 0;
};

class TxRing {
public:
    // `name` names the port in traces and errors; `kick` tells the bus interface that a read
    // may be due (a tail write).
    TxRing(std::string name, unsigned index, const E1000Params& params, InterruptLogic& irq,
           std::function<void()> kick);

    void map_registers(RegisterFile& r);
    DescriptorCache& cache() { return cache_; }
    const DescriptorCache& cache() const { return cache_; }
    unsigned tdt() const { return tdt_; }

    // The descriptor fetch due now (TXDCTL's thresholds), if any, committing to it.
    bool next_fetch(ReadRequest& out, Txdctl txdctl);
    void fetch_arrived(const ReadRequest& r, const DmaMemory& mem);
    // The descriptor at the front has been processed: TDH moves past it, and TXQE is raised
    // when the queue has run empty (SDM 13.4.17).
    void processed() {
        cache_.descriptor_processed();
        if (cache_.head() == cache_.tail()) irq_.raise(kIcrTxqe);
    }
    // The stamps of the packet whose EOP descriptor is in `eop`.
    void stamp(FrameTimeline& t, unsigned eop) const {
        t.tail_written = handed_over_at_[eop];
        t.descriptors_fetched = fetched_at_[eop];
    }

    // CTRL.RST: an empty cache, no ring (TDBAL..TDT 0).
    void reset() {
        cache_ = DescriptorCache(params_.descriptor_cache_entries, params_.cache_line_bytes);
        tdt_ = 0;
    }

    const TxRingStats& stats() const { return stats_; }
    void reset_stats() { stats_ = TxRingStats{}; }

private:
    void check_tail_move(std::uint32_t value) const;
    void size_stamps();
    void stamp_handed_over(std::uint32_t new_tail);

    std::string name_;
    unsigned index_;
    const E1000Params& params_;
    InterruptLogic& irq_;
    std::function<void()> kick_;
    DescriptorCache cache_;
    std::uint32_t tdt_ = 0;
    DescriptorFetch fetch_{};
    std::vector<Picos> handed_over_at_, fetched_at_;  // by ring slot
    TxRingStats stats_;
};

}  // namespace pcisim::e1000
