// The receive side of one 8254x port (SDM section 3.2 "Receive functionality"): the receive
// ring (RDBAL/RDBAH/RDLEN/RDH/RDT) and its on-chip descriptor cache, the RX share of the packet
// buffer (PBA.RXA), the receive DMA engine, and the receive statistics (MPC, RNBC, GPRC).
//
// A frame from the wire goes through these stages:
//   1. arrival: its last byte is in (store-and-forward); it takes RX FIFO room for its bytes and
//      CRC, or, when the FIFO has no room, it is missed (MPC, ICR.RXO), counted by cause;
//   2. descriptor: the DMA engine takes the next descriptor from the cache (fetched from host
//      memory between RDH and RDT: when the cache is empty, or prefetched below RXDCTL.PTHRESH
//      when at least HTHRESH wait in host memory);
//   3. data: one posted memory write of the frame to the descriptor's buffer; when it has
//      crossed the bus the FIFO room is free and RDH moves past the descriptor;
//   4. write-back: the descriptor with length, DD and EOP, as a posted write, once RXDCTL.WTHRESH
//      descriptors are done (WTHRESH 0 or 1: each at once; assumption as for transmit: a
//      partial batch is also written when the FIFO has run empty); then RXT0 after RDTR/RADV,
//      and RXDMT0 when the descriptors the NIC still holds fall to RCTL.RDMTS of the ring.
// Posted writes do not wait for host memory: the bus interface hands them on and the bridge
// above takes them, so each costs the bus only its own clocks; the engine writes one frame at a
// time.  Descriptor reads share the port's one outstanding read with the transmit engine.
#pragma once

#include "nic/nic.h"

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_receive_filter.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"
#include "e1000/e1000_statistics_registers.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

// The receive engine's counters (since the last reset).  Frames the wire delivers while RCTL.EN is
// clear are not counted (the receiver is off).  A frame that finds the RX FIFO full is missed
// (MPC), counted by why the FIFO was full: no receive descriptor was on chip or in host memory
// (the driver is behind), or there were descriptors and the DMA engine could not empty the FIFO
// fast enough (the bus is behind).
struct RxStats {
    std::uint64_t frames_arrived = 0;         // frames the MAC received (RCTL.EN set)
    std::uint64_t frames_delivered = 0;       // written to host memory and written back (DD)
    std::uint64_t bytes_delivered = 0;        // bytes those data writes carried
    std::uint64_t missed_no_descriptor = 0;   // MPC, with no descriptor available
    std::uint64_t missed_fifo_full = 0;       // MPC, with descriptors available
    std::uint64_t no_buffer_arrivals = 0;     // RNBC: arrived with no descriptor available
    std::uint64_t descriptor_fetches = 0;     // receive descriptor DMA reads
    std::uint64_t descriptors_fetched = 0;
    std::uint64_t data_writes = 0;            // packet data DMA writes (one per frame)
    std::uint64_t writebacks = 0;             // descriptor write-back DMA writes
    std::uint64_t descriptors_written_back = 0;
    std::uint64_t missed() const { return missed_no_descriptor + missed_fifo_full; }
};

class RxPort {
public:
    // Write cookies of the receive engine carry this bit (the port routes completions by it).
    static constexpr std::uint64_t kCookieBit = 1ull << 63;
    // Where a received frame's sequence number is in its payload (after Ethernet, IPv4 and UDP
    // headers, as pktgen places its own); the receive driver reads it there.
    static constexpr unsigned kSeqOffset = kFrameSeqOffset;

    RxPort(std::string name, unsigned index, const E1000Params& params, DmaMemory& mem,
           InterruptLogic& irq, StatisticsRegisters& statistics, const ReceiveFilter& filter);

    void attach(BusInterface* bus) { bus_ = bus; }
    void map_registers(RegisterFile& r);
    void set_rx_kb(unsigned kb) { fifo_capacity_ = kb * 1024; }  // PBA.RXA

    // A frame of `len` bytes (no FCS) whose last byte has just arrived; `seq` is written into
    // its payload so that software can tell frames apart.  Its bytes are not modelled: it is
    // taken as addressed to the station (the filters pass it).
    void frame_arrived(std::uint32_t len, std::uint32_t seq);
    // A frame with its bytes (no FCS): the address filters decide whether it is received, and
    // host memory gets its bytes and, unless RCTL.SECRC, its CRC.
    void frame_arrived(const std::uint8_t* frame, std::uint32_t len);
    // CTRL.RST: the ring, RCTL, RXDCTL and the FIFO's bookkeeping to their reset values.
    void reset();
    bool idle() const {
        return fifo_.empty() && !writing_ && writebacks_.empty() && done_.empty() && cache_.fetching() == 0;
    }

    // The port's read slot is free: a descriptor fetch if one is due.
    bool next_read(ReadRequest& out);
    void read_finished(const ReadRequest& r);
    void write_finished(std::uint64_t cookie);

    bool enabled() const { return rctl_.en(); }
    unsigned rdh() const { return cache_.head(); }
    unsigned rdt() const { return rdt_; }
    std::uint32_t fifo_used() const { return fifo_used_; }
    std::uint32_t fifo_capacity() const { return fifo_capacity_; }
    std::uint32_t fifo_peak() const { return fifo_peak_; }
    // Since time zero (not reset with the stats): frames arrived while enabled, delivered
    // (written back), missed, and those in between (in the FIFO or being written).
    std::uint64_t frames_arrived() const { return arrived_; }
    std::uint64_t frames_delivered() const { return delivered_; }
    std::uint64_t frames_missed() const { return missed_; }
    const RxStats& stats() const { return stats_; }
    void reset_stats() { stats_ = RxStats{}; }
    std::uint64_t frames_in_nic() const { return fifo_.size() + done_.size() + written_back_pending_; }
    // Frames whose last byte came while the receiver was off (RCTL.EN clear, SDM 13.4.22: before
    // the driver turned it on), which the MAC ignores and no statistic register counts; the
    // run's conservation check counts them.
    std::uint64_t frames_while_off() const { return while_off_; }

private:
    struct Frame {
        std::uint32_t len;
        std::uint32_t seq;
        std::vector<std::uint8_t> bytes;  // empty: not modelled (the payload pattern with seq)
    };
    struct Done {  // a descriptor whose frame is in host memory
        CachedDescriptor slot;
        std::uint16_t length;
    };

    bool descriptor_available() const { return cache_.cached() + cache_.waiting_in_host() > 0; }
    bool fetch_wanted() const;
    std::uint32_t host_bytes(const Frame& f) const { return f.len + (rctl_.secrc() ? 0 : 4); }
    void take(Frame f);  // stage 1 for a frame the filters passed
    void pump();  // start the next frame's data write when it can
    void flush_writebacks();
    void check_threshold();
    void kick();

    std::string name_;
    unsigned index_;
    const E1000Params& params_;
    DmaMemory& mem_;
    RxStats stats_;
    InterruptLogic& irq_;
    StatisticsRegisters& statistics_;
    const ReceiveFilter& filter_;
    BusInterface* bus_ = nullptr;

    DescriptorCache cache_;
    Rctl rctl_;
    Txdctl rxdctl_{kRxdctlReset};
    std::uint32_t rdt_ = 0;

    std::deque<Frame> fifo_;  // frames received, not yet written to the host
    std::uint32_t fifo_used_ = 0, fifo_capacity_ = 0, fifo_peak_ = 0;
    bool writing_ = false;          // the front frame's data write is on its way
    CachedDescriptor writing_slot_{};
    std::vector<Done> done_;        // data in host memory, waiting for the write-back
    std::unordered_map<std::uint64_t, std::vector<Done>> writebacks_;  // by cookie
    unsigned written_back_pending_ = 0;  // frames in writebacks_
    std::uint64_t next_cookie_ = 1;
    DescriptorFetch fetch_{};
    std::vector<std::uint8_t> frame_bytes_;  // what a data write carries (the payload pattern)
    std::uint64_t arrived_ = 0, delivered_ = 0, missed_ = 0, while_off_ = 0;
};

}  // namespace pcisim::e1000
