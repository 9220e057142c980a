// Transmit descriptor write-back (SDM 3.3.3.2, 13.4.42): a processed descriptor with RS is
// written back with DD once its packet has been committed, at once (TXDCTL.WTHRESH 0) or in
// bursts of WTHRESH, one write per contiguous run in the ring (which descriptors count is
// nic.writeback_batch, docs/e1000.md).  Assumption: a partial batch is also written when the
// queue has run empty, so software is never left waiting for the last few.  When a write has
// crossed the bus, DD is in host memory and TXDW is raised (delayed by TIDV/TADV for IDE).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_tx_packet.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

// The write-back's counters (since the last reset).
struct TxWriteBackStats {
    std::uint64_t writebacks = 0;  // descriptor write-back DMA writes
    std::uint64_t descriptors_written_back = 0;
};

class TxWriteBack {
public:
    TxWriteBack(std::string name, unsigned index, const E1000Params& params,
                const DescriptorCache& ring, DmaMemory& mem, InterruptLogic& irq);
    void attach(BusInterface* bus) { bus_ = bus; }

    // Packet `p` has been committed to the MAC: its descriptors are written back at once or
    // batched (WTHRESH); a write it waits for counts in p.writes_pending.
    void packet_committed(TxPacket& p, unsigned wthresh);
    // A context descriptor processed at the front of the ring (it belongs to no packet).
    void context_processed(const CachedDescriptor& d);
    // Descriptors batched and not yet written.
    bool batch_pending() const { return !batch_.empty(); }
    // The partial batch, when the queue has run empty.
    void flush_batch() { flush(nullptr); }
    // A write-back still crossing the bus.
    bool writing() const { return writes_in_flight_ != 0; }
    // CTRL.RST (with no write in flight): the batch is dropped.
    void reset() { batch_.clear(); }
    // The write `cookie` has crossed the bus; returns the packet whose last pending write it
    // was (to retire), or null.
    TxPacket* write_finished(std::uint64_t cookie);

    const TxWriteBackStats& stats() const { return stats_; }
    void reset_stats() { stats_ = TxWriteBackStats{}; }

private:
    // A write-back in flight; the slots are reused, so a packet's write allocates nothing.
    struct Write {
        std::uint64_t cookie = 0;  // 0: a free slot
        TxPacket* packet = nullptr;  // the packet waiting for it (DPP), or nullptr for batches
        std::vector<CachedDescriptor> descriptors;
    };
    void flush(TxPacket* owner);
    // One write of `count` descriptors of consecutive ring slots.
    void write(TxPacket* owner, const CachedDescriptor* run, std::size_t count);

    std::string name_;
    unsigned index_;
    const E1000Params& params_;
    const DescriptorCache& ring_;
    DmaMemory& mem_;
    InterruptLogic& irq_;
    BusInterface* bus_ = nullptr;
    std::vector<CachedDescriptor> batch_;  // processed, waiting for WTHRESH
    std::vector<Write> writes_;  // a handful in flight at most: found by a scan
    std::size_t writes_in_flight_ = 0;
    std::uint64_t next_cookie_ = 1;
    TxWriteBackStats stats_;
};

}  // namespace pcisim::e1000
