// Event avoidance in the transmit engine (docs/architecture.md, "Events the NIC and the CPU do
// without"): a packet whose finishing nobody can see before its commit is committed when its
// data is in, with the commit time it would have had, and gets no event.  Contract: applies()
// is true only if the outcome is the same as finishing the packet through the engine's
// finishing event.  It has no counters of its own: the results of a run are the same with it and
// without it (tests/test_end_to_end.cpp compares them).
#pragma once

#include "e1000/e1000_mac_wire.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_tx_packet.h"

namespace pcisim::e1000 {

class CommitAhead {
public:
    CommitAhead(const E1000Params& params, MacWire& mac) : params_(params), mac_(mac) {}

    // The condition: the MAC takes frames ahead (its lazy wire), no descriptor of the packet is
    // written back or batched (RS clear, and with WTHRESH > 0 only RS descriptors batched and
    // no batch pending that its end could flush), and the next packet's fetch does not wait for
    // it (TXDMAC.DPP clear), so neither the bus nor the driver nor the DMA engine notices its
    // end.
    bool applies(const TxPacket& p, bool dpp, unsigned wthresh, bool batch_pending) const {
        if (!mac_.lazy() || dpp) return false;
        if (wthresh != 0 && (params_.writeback_batch_all || batch_pending)) return false;
        for (const auto& d : p.descriptors)
            if (d.desc.cmd & kCmdRs) return false;
        return true;
    }
    // Done now, as it will be at its commit time: the frame goes to the MAC ready from then on,
    // and the DMA engine is busy finishing until then.
    void commit(TxPacket& p, Picos begin) {
        engine_free_ = begin + params_.packet_processing_ps;
        p.committed = true;
        p.times.committed = engine_free_;
        mac_.enqueue(std::move(p.frame), p.times);
    }
    // The end of the last packet committed ahead: the engine is busy finishing until then.
    Picos engine_free() const { return engine_free_; }

private:
    const E1000Params& params_;
    MacWire& mac_;
    Picos engine_free_ = 0;
};

}  // namespace pcisim::e1000
