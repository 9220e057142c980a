// The transmit DMA engine of one 8254x port (SDM 3.3, 3.4).  It moves one packet at a time
// through these stages:
//   1. descriptors: the packet's descriptors (up to EOP) are in the descriptor cache (TxRing);
//   2. FIFO room: its data is fetched only when the FIFO can take all of it (room reserved,
//      FifoRoom);
//   3. data: one bus read per descriptor buffer, in order; TDH moves past each descriptor as
//      its data arrives (descriptor processed);
//   4. finishing: nic.packet_processing_ns of engine time, then the frame is committed to the
//      MAC and the RS descriptors are written back with DD (TxWriteBack; SDM 3.3.3.2: DD
//      reports that the descriptor has been processed, i.e. its data is in the FIFO; not that
//      it was sent).
// TXDMAC.DPP = 1 (reset): stage 2 of the next packet waits until the current packet is
// finished, including its write-back.  DPP = 0: it may start as soon as the current packet's
// data is in (stage 4 of one packet overlaps stages 2-3 of the next).
// Offloads (e1000_tso_engine.h): a context descriptor is taken from the cache as it reaches the
// front (it carries no data) and loads the offload context; a TSO packet goes through the TSO
// path (TsoTransmit, e1000_tso_transmit.h).  A packet whose finishing nobody can see is
// committed ahead (CommitAhead, e1000_commit_ahead.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_commit_ahead.h"
#include "e1000/e1000_fifo_room.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_mac_wire.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"
#include "e1000/e1000_statistics_registers.h"
#include "e1000/e1000_tso_engine.h"
#include "e1000/e1000_tso_transmit.h"
#include "e1000/e1000_tx_fifo.h"
#include "e1000/e1000_tx_packet.h"
#include "e1000/e1000_tx_ring.h"
#include "e1000/e1000_tx_writeback.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

// The engine's own counters (since the last reset); its parts keep theirs.
struct TxEngineStats {
    std::uint64_t data_reads = 0;           // packet data DMA reads (one per buffer, or TSO read)
    std::uint64_t context_descriptors = 0;  // TCP/IP context descriptors taken
    std::uint64_t checksum_packets = 0;     // non-TSO packets whose checksums the NIC inserted
};

class TxEngine {
public:
    // `name` names the port in traces; the engine's finishing event is made in the port's
    // scope, and the port runs finish_packet() on it.
    TxEngine(std::string name, unsigned index, const E1000Params& params, DmaMemory& mem,
             TxFifo& fifo, MacWire& mac, InterruptLogic& irq, StatisticsRegisters& statistics);

    void attach(BusInterface* bus) {
        bus_ = bus;
        writeback_.attach(bus);
    }
    // TCTL, TXDMAC, TXDCTL, and the ring's and the TSO path's registers.
    void map_registers(RegisterFile& r);

    bool next_read(ReadRequest& out);
    void read_finished(const ReadRequest& r);
    void write_finished(std::uint64_t cookie);
    sc_core::sc_event& finishing_done() { return finishing_done_; }
    void finish_packet();  // stage 4's end, on finishing_done()
    // A sent frame's buffer, for a later packet.
    void frame_sent(std::vector<std::uint8_t>&& frame) { packets_.recycle_frame(std::move(frame)); }
    void kick();
    // DMA in flight: a descriptor fetch, a write-back or a TSO packet not yet all read.
    bool busy() const { return ring_.cache().fetching() != 0 || writeback_.writing() || tso_.active(); }
    // CTRL.RST (when not busy): TCTL, TXDMAC, TXDCTL, the ring and TSPMT to their reset values.
    void reset();

    unsigned tdh() const { return ring_.cache().head(); }
    unsigned tdt() const { return ring_.tdt(); }
    // A context descriptor or a TSO packet seen since time zero.
    bool offloads_used() const { return contexts_used_ || tso_.used(); }

    const TxEngineStats& stats() const { return stats_; }
    const TxRingStats& ring_stats() const { return ring_.stats(); }
    const TxWriteBackStats& writeback_stats() const { return writeback_.stats(); }
    const TsoStats& tso_stats() const { return tso_.stats(); }
    Picos fifo_wait() const { return room_.waited(); }
    void reset_stats();

private:
    bool start_packet();
    bool data_read(ReadRequest& out);
    void buffer_processed();
    void take_contexts();  // context descriptors at the front of the cache
    void data_finished();
    void schedule_finishing();
    bool idle() const;
    void retire(TxPacket* p);

    std::string name_;
    unsigned index_;
    const E1000Params& params_;
    DmaMemory& mem_;
    TxFifo& fifo_;
    MacWire& mac_;
    StatisticsRegisters& statistics_;
    BusInterface* bus_ = nullptr;

    // Registers held here (the ring's and TSPMT live in their parts).  Reset: TXDMAC.DPP 1.
    Tctl tctl_;
    Txdctl txdctl_;
    Txdmac txdmac_;

    TxRing ring_;
    TxPackets packets_;
    FifoRoom room_;
    TxWriteBack writeback_;
    TsoTransmit tso_;
    CommitAhead ahead_;
    TxPacket* fetching_ = nullptr;   // the packet whose data is being read
    TxPacket* finishing_ = nullptr;  // the packet in stage 4
    OffloadContext context_;         // from the last context descriptor
    bool contexts_used_ = false;
    sc_core::sc_event finishing_done_{"finishing_done"};
    TxEngineStats stats_;
};

}  // namespace pcisim::e1000
