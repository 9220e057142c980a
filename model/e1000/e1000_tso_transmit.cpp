#include "e1000/e1000_tso_transmit.h"

#include <algorithm>
#include <stdexcept>

#include "core/dma_memory.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

TsoTransmit::TsoTransmit(std::string name, unsigned index, const E1000Params& params,
                         DmaMemory& mem, TxRing& ring, TxFifo& fifo, MacWire& mac, FifoRoom& room,
                         TxPackets& packets)
    : name_(std::move(name)), index_(index), params_(params), mem_(mem), ring_(ring), fifo_(fifo),
      mac_(mac), room_(room), packets_(packets), tspmt_(params.tspmt) {}

void TsoTransmit::map_registers(RegisterFile& r) {
    r.add(kTspmt, "TSPMT", [this] { return tspmt_; }, [this](std::uint32_t v) { tspmt_ = v; });
}

void TsoTransmit::begin(unsigned descriptors, const OffloadContext& context, Picos engine_ready) {
    DescriptorCache& cache = ring_.cache();
    std::vector<CachedDescriptor> run;
    for (unsigned i = 0; i < descriptors; ++i) run.push_back(cache.pop());
    tso_.begin(context, packet_options(run.front().desc), run);
    const std::uint32_t room = tso_.frame_bytes(0) + (tspmt_ >> 16);
    if (room > fifo_.capacity())
        throw std::runtime_error("e1000: a " + std::to_string(tso_.frame_bytes(0)) +
                                 " B TSO segment with TSPMT.TSPBP " +
                                 std::to_string(tspmt_ >> 16) + " B can never fit the " +
                                 std::to_string(fifo_.capacity()) + " B transmit FIFO");
    times_ = FrameTimeline{};
    ring_.stamp(times_, run.back().index);
    times_.engine_ready = engine_ready;
    segments_.clear();
    ++stats_.tso_packets;
    used_ = true;
}

// Segment `reserved()` of the TSO packet gets its FIFO room and becomes a packet of its own.
void TsoTransmit::reserve_segment(Picos engine_ready) {
    std::uint32_t bytes = tso_.frame_bytes(tso_.reserved());
    fifo_.reserve(bytes);
    TxPacket& p = packets_.start(bytes);
    p.times = times_;
    p.times.engine_ready = std::max(engine_ready, times_.engine_ready);
    p.times.data_started = now_ps();
    tso_.reserve_next(p.frame.data());
    segments_.push_back(&p);
}

// Room for each segment the read reaches (its frame plus TSPBP free) is reserved in order while
// the FIFO has it, and the read is cut where the reserved segments end.  A read shorter than
// TSMT (and than what it wanted) waits for more room while frames that will leave hold FIFO
// room.
bool TsoTransmit::next_read(ReadRequest& out) {
    if (!tso_.active() || tso_.all_requested()) return false;
    const bool whole = params_.tso_fetch_whole_descriptor;
    const std::uint32_t tsmt = tspmt_ & 0xFFFFu, padding = tspmt_ >> 16;
    Picos now = now_ps();
    mac_.catch_up();
    TsoSegmenter::Fetch f = tso_.plan(whole);
    while (tso_.reserved() <= f.last_segment && tso_.reserved() < tso_.segments() &&
           fifo_.has_room(tso_.frame_bytes(tso_.reserved()) + padding)) {
        reserve_segment(room_.found(now, tso_.frame_bytes(tso_.reserved()), packets_.next_seq()));
        f = tso_.plan(whole);
    }
    if (f.bytes < std::min(tsmt, f.wanted)) {
        std::uint32_t filling = 0;  // room of reserved segments still waiting for data
        for (unsigned k = tso_.completed(); k < tso_.reserved(); ++k) filling += tso_.frame_bytes(k);
        if (fifo_.used() > filling || f.bytes == 0) {
            room_.wait(now, tso_.frame_bytes(std::min(tso_.reserved(), tso_.segments() - 1)),
                       packets_.next_seq());
            return false;
        }
    }
    tso_.requested(f.bytes);
    out = {ReadKind::Data, f.addr, f.bytes};
    trace::emit(TraceStep::DataRead, TracePhase::Begin, name_.c_str(), now, index_,
                packets_.next_seq() - 1, f.bytes);
    return true;
}

// Each descriptor is written back with the segment its data ends in.
bool TsoTransmit::data_arrived(const ReadRequest& r) {
    read_buffer_.resize(r.bytes);
    mem_.read(r.addr, read_buffer_.data(), r.bytes);
    tso_.arrived(read_buffer_.data(), r.bytes);
    trace::emit(TraceStep::DataRead, TracePhase::End, name_.c_str(), now_ps(), index_,
                packets_.next_seq() - 1, r.bytes);
    CachedDescriptor d;
    unsigned k;
    while (tso_.next_processed(d, k)) {
        segments_[k]->descriptors.push_back(d);
        ring_.processed();
    }
    bool complete = false;
    while (tso_.next_complete(k)) {
        segments_[k]->data_done = true;
        segments_[k]->times.data_in = now_ps();
        ++stats_.tso_segments;
        complete = true;
    }
    if (!tso_.active()) segments_.clear();
    return complete;
}

}  // namespace pcisim::e1000
