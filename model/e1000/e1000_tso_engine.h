// The 8254x's TCP/IP transmit offloads (8254x SDM 3.3.6-3.3.7 and 3.5 "TCP segmentation"):
// the context a TCP/IP context descriptor loads, checksum insertion for a packet of extended
// data descriptors (POPTS IXSM/TXSM), and the segmentation of one TSO packet (DCMD.TSE) into
// frames of at most MSS payload bytes, each with the packet's header replicated and its IP and
// TCP fields updated.  Only bytes and arithmetic live here; when the data is read and when a
// segment may leave is the DMA engine's (TsoTransmit, e1000_tso_transmit.h), which asks TsoSegmenter
// what to read next and hands it what arrived.
#pragma once

#include <cstdint>
#include <vector>

#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_regs.h"

namespace pcisim::e1000 {

// What the last context descriptor loaded (SDM 3.3.6); offsets count from the frame's first
// byte, an end of 0 means "to the end of the frame".
struct OffloadContext {
    unsigned ipcss = 0, ipcso = 0, ipcse = 0;
    unsigned tucss = 0, tucso = 0, tucse = 0;
    std::uint32_t paylen = 0;  // TSO: TCP payload bytes of the whole packet
    unsigned hdrlen = 0;       // TSO: header bytes replicated into every segment
    unsigned mss = 0;          // TSO: payload bytes per segment
    std::uint8_t tucmd = 0;
    bool tse() const { return tucmd & kCmdTse; }
    static OffloadContext from(const TxDescriptor& d);
};

// POPTS of a packet: read from its first data descriptor (SDM 3.3.7.2); 0 for legacy.
inline std::uint8_t packet_options(const TxDescriptor& first) {
    return is_extended(first) ? first.css : 0;
}
// Whether the packet starting with this descriptor is to be segmented (DCMD.TSE).
inline bool wants_segmentation(const TxDescriptor& first) {
    return is_extended(first) && descriptor_type(first) == kDtypData && (first.cmd & kCmdTse);
}

// A non-TSO packet: the checksums POPTS asks for over the context's ranges, each written to
// its offset (the sum covers the field as software left it: TXSM's seed, the pseudo-header).
void insert_checksums(std::uint8_t* frame, std::uint32_t len, const OffloadContext& c,
                      std::uint8_t popts);

class TsoSegmenter {
public:
    // Starts on the packet of `descriptors` (its data descriptors up to EOP).  Throws
    // std::runtime_error when the context cannot segment it (no MSS or header, or the buffers
    // do not hold HDRLEN + PAYLEN bytes).
    void begin(const OffloadContext& c, std::uint8_t popts,
               const std::vector<CachedDescriptor>& descriptors);
    bool active() const { return active_; }
    bool all_requested() const { return requested_ == total_; }
    unsigned segments() const { return segments_; }
    unsigned completed() const { return complete_; }  // segments whose data has all arrived
    // Segment k on the wire: the header and its share of the payload.
    std::uint32_t frame_bytes(unsigned k) const;

    // FIFO room reserved, in order: segment reserved() gets `frame` (frame_bytes() long) next.
    unsigned reserved() const { return static_cast<unsigned>(frames_.size()); }
    void reserve_next(std::uint8_t* frame) { frames_.push_back(frame); }

    // The next read: from the first byte not yet asked for, the rest of its descriptor's buffer
    // (`whole_descriptor`) or of its segment, cut where the reserved segments end (`bytes` 0:
    // nothing until more room).  `wanted` is the length without that cut, `last_segment` the
    // segment its last byte falls in.
    struct Fetch {
        std::uint64_t addr = 0;
        std::uint32_t bytes = 0, wanted = 0;
        unsigned last_segment = 0;
    };
    Fetch plan(bool whole_descriptor) const;
    void requested(std::uint32_t bytes) { requested_ += bytes; }

    // The read asked for last arrived with these bytes: into the header and the segments.
    void arrived(const std::uint8_t* bytes, std::uint32_t n);
    // A descriptor all of whose data has arrived, with the segment its last byte went to, in
    // ring order; false when there is none (yet).
    bool next_processed(CachedDescriptor& d, unsigned& segment);
    // A segment all of whose data has arrived, its header written and its fields updated (SDM
    // 3.5), in order; false when there is none (yet).  After the last the segmenter is idle.
    bool next_complete(unsigned& segment);

private:
    std::uint32_t segment_end(unsigned k) const;  // stream offset after segment k's last byte
    unsigned segment_of(std::uint32_t pos) const;
    void finish_segment(unsigned k);

    OffloadContext c_;
    std::uint8_t popts_ = 0;
    bool active_ = false;
    std::vector<CachedDescriptor> buffers_;
    std::vector<std::uint32_t> buffer_end_;  // stream offset after each buffer's last byte
    std::uint32_t total_ = 0, requested_ = 0, arrived_ = 0;
    unsigned segments_ = 0, processed_ = 0, complete_ = 0;
    std::vector<std::uint8_t> header_;
    std::vector<std::uint8_t*> frames_;  // by segment, once reserved
};

}  // namespace pcisim::e1000
