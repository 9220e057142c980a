// The transmit engine's TSO path (SDM 3.5, TSPMT 13.4.45): a TSO packet (DCMD.TSE) goes
// through the engine's stages 2-4 once per segment.  Each segment is a packet of its own from
// FIFO room on, its room (frame + TSPMT.TSPBP) reserved before a read brings its data, and reads
// ask for as much of a descriptor as the reserved segments can take (nic.tso_fetch), at least
// TSPMT.TSMT bytes unless they end a buffer or the FIFO holds nothing else to send.  The
// segmentation itself (headers, sequence numbers, checksums) is TsoSegmenter's
// (e1000_tso_engine.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_fifo_room.h"
#include "e1000/e1000_mac_wire.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_tso_engine.h"
#include "e1000/e1000_tx_fifo.h"
#include "e1000/e1000_tx_packet.h"
#include "e1000/e1000_tx_ring.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

// The TSO path's counters (since the last reset).
struct TsoStats {
    std::uint64_t tso_packets = 0;   // TSO packets started
    std::uint64_t tso_segments = 0;  // the frames they were cut into, counted when their data is in
};

class TsoTransmit {
public:
    TsoTransmit(std::string name, unsigned index, const E1000Params& params, DmaMemory& mem,
                TxRing& ring, TxFifo& fifo, MacWire& mac, FifoRoom& room, TxPackets& packets);

    void map_registers(RegisterFile& r);  // TSPMT
    // A TSO packet is being segmented (its segments still to be read or finished).
    bool active() const { return tso_.active(); }
    // The TSO packet of the first `descriptors` in the ring's cache, with the offload context
    // in force; the engine turned to it at `engine_ready`.
    void begin(unsigned descriptors, const OffloadContext& context, Picos engine_ready);
    // Its next read, if one is due now.
    bool next_read(ReadRequest& out);
    // A read's bytes: into the header and the segments; descriptors whose data is all in are
    // processed, complete segments may go on to finishing (returns whether one did).
    bool data_arrived(const ReadRequest& r);
    void reset() { tspmt_ = params_.tspmt; }  // CTRL.RST: TSPMT's reset value
    // A TSO packet seen since time zero.
    bool used() const { return used_; }

    const TsoStats& stats() const { return stats_; }
    void reset_stats() { stats_ = TsoStats{}; }

private:
    void reserve_segment(Picos engine_ready);

    std::string name_;
    unsigned index_;
    const E1000Params& params_;
    DmaMemory& mem_;
    TxRing& ring_;
    TxFifo& fifo_;
    MacWire& mac_;
    FifoRoom& room_;
    TxPackets& packets_;
    std::uint32_t tspmt_;  // TSMT 15:0, TSPBP 31:16
    TsoSegmenter tso_;                     // the TSO packet being fetched
    std::vector<TxPacket*> segments_;      // its segments, once room is reserved
    FrameTimeline times_;                  // its descriptors' stamps
    std::vector<std::uint8_t> read_buffer_;
    bool used_ = false;
    TsoStats stats_;
};

}  // namespace pcisim::e1000
