#include "e1000/e1000_tso_engine.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/inet_checksum.h"

namespace pcisim::e1000 {

namespace {

using inet::fold;
using inet::get16;
using inet::get32;
using inet::ones_sum;
using inet::put16;
using inet::put32;

// The checksum over frame[start, end] (end 0: to the frame's end) plus `extra`, at `at`.
void insert(std::uint8_t* frame, std::uint32_t len, unsigned start, unsigned end, unsigned at,
            std::uint32_t extra, const char* which) {
    std::uint32_t last = end ? std::min<std::uint32_t>(end, len - 1) : len - 1;
    if (start > last || at + 2 > len)
        throw std::runtime_error(std::string("e1000: the context's ") + which +
                                 " checksum offsets (start " + std::to_string(start) +
                                 ", at " + std::to_string(at) + ") lie outside a " +
                                 std::to_string(len) + " B frame");
    std::uint16_t sum = fold(ones_sum(frame + start, last - start + 1, extra));
    put16(frame + at, static_cast<std::uint16_t>(~sum));
}

constexpr std::uint8_t kTcpFin = 0x01, kTcpPsh = 0x08;

}  // namespace

OffloadContext OffloadContext::from(const TxDescriptor& d) {
    TxContextDescriptor x;
    std::memcpy(&x, &d, sizeof x);
    OffloadContext c;
    c.ipcss = x.ipcss, c.ipcso = x.ipcso, c.ipcse = x.ipcse;
    c.tucss = x.tucss, c.tucso = x.tucso, c.tucse = x.tucse;
    c.paylen = x.paylen_dtyp_tucmd & 0xFFFFFu;
    c.tucmd = static_cast<std::uint8_t>(x.paylen_dtyp_tucmd >> 24);
    c.hdrlen = x.hdrlen;
    c.mss = x.mss;
    return c;
}

void insert_checksums(std::uint8_t* frame, std::uint32_t len, const OffloadContext& c,
                      std::uint8_t popts) {
    if (popts & kPoptsIxsm) insert(frame, len, c.ipcss, c.ipcse, c.ipcso, 0, "IP");
    if (popts & kPoptsTxsm) insert(frame, len, c.tucss, c.tucse, c.tucso, 0, "TCP/UDP");
}

void TsoSegmenter::begin(const OffloadContext& c, std::uint8_t popts,
                         const std::vector<CachedDescriptor>& descriptors) {
    c_ = c;
    popts_ = popts;
    buffers_.clear();
    buffer_end_.clear();
    std::uint32_t bytes = 0;
    for (const CachedDescriptor& d : descriptors) {
        bytes += data_length(d.desc);
        buffers_.push_back(d);
        buffer_end_.push_back(bytes);
    }
    if (!c.tse() || c.mss == 0 || c.hdrlen == 0 || c.paylen == 0 || c.tucss + 18 > c.hdrlen ||
        c.ipcss + 20 > c.hdrlen || bytes != c.hdrlen + c.paylen)
        throw std::runtime_error(
            "e1000: a TSO packet of " + std::to_string(bytes) + " B in " +
            std::to_string(descriptors.size()) + " descriptors does not match its context (TSE " +
            std::to_string(c.tse()) + ", HDRLEN " + std::to_string(c.hdrlen) + ", PAYLEN " +
            std::to_string(c.paylen) + ", MSS " + std::to_string(c.mss) + ", TUCSS " +
            std::to_string(c.tucss) + "); expected HDRLEN + PAYLEN bytes with the TCP header "
            "inside HDRLEN and MSS > 0");
    total_ = bytes;
    requested_ = arrived_ = 0;
    segments_ = (c.paylen + c.mss - 1) / c.mss;
    processed_ = complete_ = 0;
    header_.assign(c.hdrlen, 0);
    frames_.clear();
    active_ = true;
}

std::uint32_t TsoSegmenter::frame_bytes(unsigned k) const {
    return c_.hdrlen + std::min(c_.mss, c_.paylen - k * c_.mss);
}

std::uint32_t TsoSegmenter::segment_end(unsigned k) const {
    return c_.hdrlen + std::min(c_.paylen, (k + 1) * c_.mss);
}

unsigned TsoSegmenter::segment_of(std::uint32_t pos) const {
    return pos < c_.hdrlen ? 0 : (pos - c_.hdrlen) / c_.mss;
}

TsoSegmenter::Fetch TsoSegmenter::plan(bool whole_descriptor) const {
    Fetch f;
    if (requested_ == total_) return f;
    std::size_t i = 0;
    while (buffer_end_[i] <= requested_) ++i;  // zero-length buffers are skipped
    std::uint32_t buffer_start = buffer_end_[i] - data_length(buffers_[i].desc);
    std::uint32_t end = buffer_end_[i];
    if (!whole_descriptor) end = std::min(end, segment_end(segment_of(requested_)));
    f.addr = buffers_[i].desc.buffer_addr + (requested_ - buffer_start);
    f.wanted = end - requested_;
    f.last_segment = segment_of(end - 1);
    std::uint32_t room_end = frames_.empty() ? 0 : segment_end(reserved() - 1);
    f.bytes = room_end > requested_ ? std::min(end, room_end) - requested_ : 0;
    return f;
}

void TsoSegmenter::arrived(const std::uint8_t* bytes, std::uint32_t n) {
    while (n) {
        std::uint32_t pos = arrived_, run;
        if (pos < c_.hdrlen) {
            run = std::min(n, c_.hdrlen - pos);
            std::memcpy(header_.data() + pos, bytes, run);
        } else {
            unsigned k = segment_of(pos);
            run = std::min(n, segment_end(k) - pos);
            std::memcpy(frames_.at(k) + c_.hdrlen + (pos - c_.hdrlen - k * c_.mss), bytes, run);
        }
        arrived_ += run, bytes += run, n -= run;
    }
}

bool TsoSegmenter::next_processed(CachedDescriptor& d, unsigned& segment) {
    if (processed_ == buffers_.size() || buffer_end_[processed_] > arrived_) return false;
    d = buffers_[processed_];
    std::uint32_t end = buffer_end_[processed_++];
    segment = end == 0 ? 0 : segment_of(end - 1);
    return true;
}

bool TsoSegmenter::next_complete(unsigned& segment) {
    if (complete_ == segments_ || segment_end(complete_) > arrived_) return false;
    // A descriptor is processed before the segment its data ends in is complete.
    if (processed_ < buffers_.size() && buffer_end_[processed_] <= segment_end(complete_))
        return false;
    segment = complete_;
    finish_segment(complete_++);
    if (complete_ == segments_) active_ = false;
    return true;
}

// SDM 3.5 "TCP segmentation" (header updating): every segment carries the header with the IP
// total length and identification (+1 per segment), the TCP sequence number (+MSS per segment)
// and, on all but the last, PSH and FIN cleared; then the checksums: IP over the IP header, TCP
// over the segment with the segment's TCP length added to the pseudo-header sum software seeded.
void TsoSegmenter::finish_segment(unsigned k) {
    std::uint8_t* f = frames_[k];
    const std::uint32_t len = frame_bytes(k);
    std::memcpy(f, header_.data(), c_.hdrlen);
    if (c_.tucmd & kTucmdIp) {
        put16(f + c_.ipcss + 2, len - c_.ipcss);
        put16(f + c_.ipcss + 4, (get16(f + c_.ipcss + 4) + k) & 0xFFFF);
    }
    if (c_.tucmd & kTucmdTcp) {
        put32(f + c_.tucss + 4, get32(f + c_.tucss + 4) + k * c_.mss);
        if (k + 1 < segments_) f[c_.tucss + 13] &= static_cast<std::uint8_t>(~(kTcpFin | kTcpPsh));
    }
    if (popts_ & kPoptsIxsm) insert(f, len, c_.ipcss, c_.ipcse, c_.ipcso, 0, "IP");
    if (popts_ & kPoptsTxsm) insert(f, len, c_.tucss, c_.tucse, c_.tucso, len - c_.tucss, "TCP");
}

}  // namespace pcisim::e1000
