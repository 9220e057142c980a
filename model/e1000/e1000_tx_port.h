// One port of an 8254x: its registers, descriptor cache, TX DMA engine, FIFO, MAC and interrupt
// logic, and its receive side (RxPort, e1000_rx_port.h), which shares the registers, the
// interrupt logic and the port's one outstanding read: when both engines want to read, they take
// turns.  The DMA engine moves one packet at a time through these stages:
//   1. descriptors: the packet's descriptors (up to EOP) are in the descriptor cache;
//   2. FIFO room: its data is fetched only when the FIFO can take all of it (room reserved);
//   3. data: one bus read per descriptor buffer, in order; TDH moves past each descriptor as
//      its data arrives (descriptor processed);
//   4. finishing: nic.packet_processing_ns of engine time, then the frame is committed to the
//      MAC and the RS descriptors are written back with DD (SDM 3.3.3.2: DD reports that the
//      descriptor has been processed, i.e. its data is in the FIFO; not that it was sent).
// TXDMAC.DPP = 1 (reset): stage 2 of the next packet waits until the current packet is
// finished, including its write-back.  DPP = 0: it may start as soon as the current packet's
// data is in (stage 4 of one packet overlaps stages 2-3 of the next).
// Offloads (e1000_tso_engine.h): a context descriptor is taken from the cache as it reaches the
// front (it carries no data) and loads the offload context.  A TSO packet (DCMD.TSE) goes
// through stages 2-4 once per segment: each segment is a packet of its own from FIFO room on,
// its room (frame + TSPBP) reserved before a read brings its data, and reads ask for as much of
// a descriptor as the reserved segments can take (nic.tso_fetch), at least TSPMT.TSMT bytes
// unless they end a buffer or the FIFO holds nothing else to send.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "e1000/e1000_bus_interface.h"
#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_device_control.h"
#include "e1000/e1000_frame_timeline.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_mac_wire.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_phy.h"
#include "e1000/e1000_receive_filter.h"
#include "e1000/e1000_register_file.h"
#include "e1000/e1000_regs.h"
#include "e1000/e1000_rx_port.h"
#include "e1000/e1000_stats.h"
#include "e1000/e1000_statistics.h"
#include "e1000/e1000_tx_fifo.h"
#include "e1000/e1000_tso_engine.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

class TxPort : public sc_core::sc_module, public DmaClient {
public:
    // `eeprom` is the part's, shared by its ports.
    TxPort(sc_core::sc_module_name name, unsigned index, const E1000Params& params,
           DmaMemory& mem, TxStats& stats, RxStats& rx_stats, InterruptSink* irq,
           const FrameObserver& observer, Eeprom& eeprom);

    void attach(BusInterface* bus) {
        bus_ = bus;
        rx_.attach(bus);
    }
    std::uint32_t read_register(std::uint32_t offset) { return registers_.read(offset); }
    void write_register(std::uint32_t offset, std::uint32_t value) {
        registers_.write(offset, value);
    }
    const RegisterFile& registers() const { return registers_; }
    std::uint32_t peek_register(std::uint32_t offset) const { return registers_.peek(offset); }

    bool next_read(ReadRequest& out) override;
    void read_finished(const ReadRequest& r, const DmaStats& s) override;
    void write_finished(std::uint64_t cookie, const DmaStats& s) override;

    std::uint64_t frames_sent() const { return mac_.frames_sent(); }
    double wire_limit_pps(std::size_t frame_bytes) const { return mac_.wire_limit_pps(frame_bytes); }
    // The wire kept lazily (MacWire::set_lazy): catch_up() before reading counters or the FIFO.
    void set_lazy_wire(bool on) { mac_.set_lazy(on); }
    void catch_up() { mac_.catch_up(); }
    const TxFifo& fifo() const { return fifo_; }
    unsigned tdh() const { return cache_.head(); }
    unsigned tdt() const { return tdt_; }
    // A context descriptor or a TSO packet seen since time zero.
    bool offloads_used() const { return offloads_used_; }
    RxPort& rx() { return rx_; }
    const RxPort& rx() const { return rx_; }
    const Phy& phy() const { return phy_; }
    const StatisticsRegisters& statistics() const { return statistics_; }

private:
    struct Packet {
        std::vector<CachedDescriptor> descriptors;
        std::vector<std::uint8_t> frame;
        unsigned next_buffer = 0;  // next descriptor whose data is to be read
        std::uint32_t filled = 0;  // frame bytes arrived
        bool data_done = false;
        std::uint8_t popts = 0;    // checksums to insert (extended descriptors, not TSO)
        bool committed = false;
        unsigned writes_pending = 0;
        std::int64_t seq = 0;      // frame number in MAC order (traces)
        FrameTimeline times;       // up to `committed`; the MAC adds the wire stamps
    };
    struct WriteBack {
        Packet* packet;  // the packet waiting for it (DPP), or nullptr for WTHRESH batches
        std::vector<CachedDescriptor> descriptors;
    };

    void map_registers();
    // CTRL.RST: the transmit and receive engines, the interrupt logic, the statistics and the
    // address filters back to their reset state (the PHY and the EEPROM keep theirs).  Throws
    // when the port still has DMA or frames in flight: dropping them is not modelled.
    void reset();
    void load_station_address();  // RA[0] from the EEPROM (reset, CTRL_EXT.EE_RST)
    bool tx_read(ReadRequest& out);  // the transmit engine's next read, if any
    void check_tail_move(std::uint32_t value) const;
    void size_ring_stamps();
    void stamp_handed_over(std::uint32_t new_tail);
    void stamp_fetched(const DescriptorFetch& f);
    bool start_packet();
    std::unique_ptr<Packet> new_packet(std::uint32_t frame_bytes);
    bool data_read(ReadRequest& out);
    void buffer_processed();
    void take_contexts();              // context descriptors at the front of the cache
    void start_segmentation(unsigned descriptors, Picos engine_ready);
    bool tso_read(ReadRequest& out);   // the next read of the packet being segmented
    void tso_data_arrived(const ReadRequest& r);
    void reserve_segment(Picos engine_ready);
    // Stage 2 waits for `bytes` of FIFO room; the MAC says when some is freed.
    void wait_for_room(Picos now, std::uint32_t bytes);
    // Room found: when the engine turned to the packet (the wait's start if it waited).
    Picos room_found(Picos now, std::uint32_t bytes);
    void data_finished();
    void schedule_finishing();
    void finish_packet();  // SC_METHOD on finishing_done_
    // Event avoidance (docs/architecture.md, "Events the NIC and the CPU do without"): a packet
    // whose finishing nobody can see before its commit (finishes_unseen) is committed when its
    // data is in, with the commit time it would have had (commit_ahead), and gets no event.
    // Contract: true only if the outcome is the same as finishing it through finish_packet().
    bool finishes_unseen(const Packet& p) const;
    void commit_ahead(Packet& p, Picos begin);
    void write_back(Packet* p, std::vector<CachedDescriptor> run);
    void flush_batch(Packet* owner);
    bool idle() const;
    void retire(Packet* p);
    void kick();

    unsigned index_;
    const E1000Params& params_;
    DmaMemory& mem_;
    TxStats& stats_;
    BusInterface* bus_ = nullptr;

    TxFifo fifo_;
    DescriptorCache cache_;
    MacWire mac_;
    InterruptLogic irq_;
    Eeprom& eeprom_;
    Phy phy_;
    StatisticsRegisters statistics_;
    ReceiveFilter filter_;
    RxPort rx_;
    DeviceControl control_;
    bool rx_reads_first_ = false;  // whose turn it is when both engines want to read

    RegisterFile registers_;
    // Registers held here (the others live in the part they control: the descriptor cache, the
    // interrupt logic, the device control block).  Reset values: TIPG.IPGT 8 (see
    // docs/e1000.md), TXDMAC.DPP 1.
    Tctl tctl_;
    Tipg tipg_{8};
    Txdctl txdctl_;
    Txdmac txdmac_;
    Pba pba_;
    std::uint32_t tspmt_;  // TSMT 15:0, TSPBP 31:16
    std::uint32_t tdt_ = 0;
    // By ring slot: when the tail write that handed the descriptor over reached the NIC, and
    // when the descriptor arrived in the cache (a packet's FrameTimeline takes its EOP's).
    std::vector<Picos> handed_over_at_, fetched_at_;

    std::deque<std::unique_ptr<Packet>> in_flight_;  // data fetch started, not yet retired
    // Retired packets and sent frames' buffers, reused so that the hot path does not allocate.
    std::vector<std::unique_ptr<Packet>> spare_packets_;
    std::vector<std::vector<std::uint8_t>> spare_frames_;
    Packet* fetching_ = nullptr;                     // the packet whose data is being read
    OffloadContext context_;                         // from the last context descriptor
    TsoSegmenter tso_;                               // the TSO packet being fetched
    std::vector<Packet*> tso_segments_;              // its segments, once room is reserved
    FrameTimeline tso_times_;                        // its descriptors' stamps
    std::vector<std::uint8_t> tso_read_buffer_;
    bool offloads_used_ = false;
    Packet* finishing_ = nullptr;                    // the packet in stage 4
    sc_core::sc_event finishing_done_{"finishing_done"};
    Picos engine_free_ = 0;  // end of the last packet committed ahead (commit_ahead)
    bool waiting_for_fifo_ = false;
    Picos fifo_wait_since_ = 0;
    DescriptorFetch fetch_{};
    std::vector<CachedDescriptor> batch_;  // processed, waiting for WTHRESH
    std::unordered_map<std::uint64_t, WriteBack> writebacks_;
    std::uint64_t next_cookie_ = 1;
    std::int64_t next_seq_ = 0;  // packets started so far, preloaded frames included
};

}  // namespace pcisim::e1000
