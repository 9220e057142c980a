#include "e1000/e1000_rx_port.h"

#include <algorithm>
#include <cstring>

#include <boost/crc.hpp>

#include "core/dma_memory.h"
#include "core/invariants.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

namespace {
// The data write of the frame at the FIFO's front; write-backs count up from 1.
constexpr std::uint64_t kDataCookie = RxPort::kCookieBit;
constexpr unsigned kSeqOffset = RxPort::kSeqOffset;
}  // namespace

RxPort::RxPort(std::string name, unsigned index, const E1000Params& params, DmaMemory& mem,
               InterruptLogic& irq, StatisticsRegisters& statistics, const ReceiveFilter& filter)
    : name_(std::move(name)), index_(index), params_(params), mem_(mem), irq_(irq),
      statistics_(statistics), filter_(filter),
      cache_(params.descriptor_cache_entries, params.cache_line_bytes),
      fifo_capacity_(params.pba_rx_kb * 1024) {}

void RxPort::kick() {
    if (bus_) bus_->kick();
}

// The receive registers (SDM 13.4.22-31, 13.7) in the port's register file (RDTR and RADV are
// the interrupt logic's).
void RxPort::map_registers(RegisterFile& r) {
    r.add(kRctl, "RCTL", [this] { return rctl_.value; }, [this](std::uint32_t v) {
        rctl_ = Rctl{v};
        irq_.set_receive_enabled(rctl_.en());
        kick();
    });
    r.add(kRdbal, "RDBAL", [this] { return static_cast<std::uint32_t>(cache_.base()); },
          [this](std::uint32_t v) { cache_.set_base_low(v); });
    r.add(kRdbah, "RDBAH", [this] { return static_cast<std::uint32_t>(cache_.base() >> 32); },
          [this](std::uint32_t v) { cache_.set_base_high(v); });
    r.add(kRdlen, "RDLEN", [this] { return cache_.length_bytes(); },
          [this](std::uint32_t v) { cache_.set_length_bytes(v); });
    r.add(kRdh, "RDH", [this] { return cache_.head(); }, [this](std::uint32_t v) { cache_.set_head(v); });
    r.add(kRdt, "RDT", [this] { return rdt_; }, [this](std::uint32_t v) {
        rdt_ = v;
        cache_.set_tail(v);
        pump();  // a frame waiting for a descriptor may go once the fetch is in
        kick();
    });
    r.add(kRxdctl, "RXDCTL", [this] { return rxdctl_.value; }, [this](std::uint32_t v) {
        rxdctl_ = Txdctl{v};
        kick();
    });
}

void RxPort::reset() {
    cache_ = DescriptorCache(params_.descriptor_cache_entries, params_.cache_line_bytes);
    rctl_ = Rctl{};
    rxdctl_ = Txdctl{kRxdctlReset};
    rdt_ = 0;
}

// Stage 1.  RNBC counts a frame that arrives with no descriptor anywhere (it may still be kept
// in the FIFO); MPC one the FIFO cannot take (SDM 13.7: "missed packets count", "receive no
// buffers count").
void RxPort::frame_arrived(std::uint32_t len, std::uint32_t seq) {
    if (!rctl_.en()) {  // the receiver is off: the MAC ignores the frame, no statistic counts it
        ++while_off_;
        return;
    }
    statistics_.frame_arrived(len);
    take(Frame{len, seq, {}});
}

void RxPort::frame_arrived(const std::uint8_t* frame, std::uint32_t len) {
    if (!rctl_.en()) {
        ++while_off_;
        return;
    }
    statistics_.frame_arrived(len);
    if (!filter_.accepts(frame, len, rctl_.value)) return;
    take(Frame{len, 0, std::vector<std::uint8_t>(frame, frame + len)});
}

void RxPort::take(Frame f) {
    const std::uint32_t len = f.len, seq = f.seq;
    ++arrived_;
    ++stats_.frames_arrived;
    bool no_descriptor = !descriptor_available();
    if (no_descriptor) ++stats_.no_buffer_arrivals, statistics_.no_buffer();
    std::uint32_t bytes = len + 4;  // the FIFO holds the frame with its CRC
    if (fifo_used_ + bytes > fifo_capacity_) {
        ++missed_;
        statistics_.frame_missed();
        if (no_descriptor) ++stats_.missed_no_descriptor;
        else ++stats_.missed_fifo_full;
        trace::emit(no_descriptor ? TraceStep::RxMissNoDescriptor : TraceStep::RxMissFifoFull,
                    TracePhase::Instant, name_.c_str(), now_ps(), index_, seq, len);
        irq_.raise(kIcrRxo);
        return;
    }
    statistics_.frame_accepted(f.bytes.empty() ? nullptr : f.bytes.data(), len);
    fifo_used_ += bytes;
    fifo_peak_ = std::max(fifo_peak_, fifo_used_);
    fifo_.push_back(std::move(f));
    trace::emit(TraceStep::RxFifo, TracePhase::Begin, name_.c_str(), now_ps(), index_, seq, len);
    pump();
    kick();
}

// The fetch rule of SDM 3.2.4 / 13.4.30: fetch when the cache has run empty; prefetch while
// fewer than PTHRESH are on chip and at least HTHRESH wait in host memory (GRAN: thresholds in
// descriptors or cache lines).  Never past RDT, at most the cache's room.
bool RxPort::fetch_wanted() const {
    if (!rctl_.en() || cache_.slots() == 0 || cache_.fetching() > 0) return false;
    if (cache_.cached() >= cache_.capacity() || cache_.waiting_in_host() == 0) return false;
    if (cache_.cached() == 0) return true;
    unsigned unit = rxdctl_.gran_descriptors() ? 1 : params_.cache_line_bytes / kDescriptorBytes;
    return cache_.cached() < rxdctl_.pthresh() * unit &&
           cache_.waiting_in_host() >= std::max(1u, rxdctl_.hthresh() * unit);
}

bool RxPort::next_read(ReadRequest& out) {
    if (!fetch_wanted()) return false;
    fetch_ = cache_.plan_fetch();
    cache_.fetch_issued(fetch_);
    out = {ReadKind::RxDescriptors, fetch_.addr, fetch_.count * kDescriptorBytes};
    trace::emit(TraceStep::DescriptorFetch, TracePhase::Begin, name_.c_str(), now_ps(), index_, -1,
                out.bytes);
    ++stats_.descriptor_fetches;
    stats_.descriptors_fetched += fetch_.count;
    return true;
}

void RxPort::read_finished(const ReadRequest& r) {
    trace::emit(TraceStep::DescriptorFetch, TracePhase::End, name_.c_str(), now_ps(), index_, -1,
                r.bytes);
    cache_.fetch_arrived(fetch_, mem_);
    pump();
}

// Stages 2 and 3: the front frame goes to the next descriptor's buffer in one posted write.
void RxPort::pump() {
    if (writing_ || fifo_.empty() || cache_.cached() == 0 || !bus_) return;
    writing_slot_ = cache_.pop();
    writing_ = true;
    ++stats_.data_writes;
    const Frame& f = fifo_.front();
    trace::emit(TraceStep::RxFifo, TracePhase::End, name_.c_str(), now_ps(), index_, f.seq, f.len);
    trace::emit(TraceStep::RxDataWrite, TracePhase::Begin, name_.c_str(), now_ps(), index_, f.seq,
                host_bytes(f));
    bus_->write(index_, writing_slot_.desc.buffer_addr, host_bytes(fifo_.front()), kDataCookie);
}

void RxPort::write_finished(std::uint64_t cookie) {
    if (cookie == kDataCookie) {
        // The frame's bytes are in host memory: its own with their CRC, or its payload pattern
        // with its number.
        Frame f = std::move(fifo_.front());
        fifo_.pop_front();
        std::uint32_t bytes = host_bytes(f);
        trace::emit(TraceStep::RxDataWrite, TracePhase::End, name_.c_str(), now_ps(), index_, f.seq,
                    bytes);
        if (!f.bytes.empty()) {
            frame_bytes_ = f.bytes;
            boost::crc_32_type crc;  // the Ethernet FCS, least significant byte first
            crc.process_bytes(f.bytes.data(), f.bytes.size());
            for (unsigned i = 0; i < 4; ++i)
                frame_bytes_.push_back(static_cast<std::uint8_t>(crc.checksum() >> (8 * i)));
            frame_bytes_.resize(bytes);
        } else {
            frame_bytes_.assign(bytes, 0);
            if (bytes >= kSeqOffset + sizeof f.seq) std::memcpy(&frame_bytes_[kSeqOffset], &f.seq, sizeof f.seq);
        }
        mem_.write(writing_slot_.desc.buffer_addr, frame_bytes_.data(), bytes);
        stats_.bytes_delivered += bytes;
        fifo_used_ -= f.len + 4;
        cache_.descriptor_processed();  // RDH moves past it
        done_.push_back({writing_slot_, static_cast<std::uint16_t>(bytes)});
        writing_ = false;
        if (done_.size() >= std::max(1u, rxdctl_.wthresh()) || fifo_.empty()) flush_writebacks();
        pump();
        kick();
        return;
    }
    // Stage 4 done: DD is visible to software.
    auto it = writebacks_.find(cookie);
    if (it == writebacks_.end()) throw InvariantViolation(name_, "unexpected receive write-back");
    for (const Done& d : it->second) {
        RxDescriptor w{};
        w.buffer_addr = d.slot.desc.buffer_addr;
        w.length = d.length;
        w.status = kRxStaDd | kRxStaEop;
        mem_.write(cache_.slot_addr(d.slot.index), &w, kDescriptorBytes);
    }
    std::size_t n = it->second.size();
    // Write-backs cross the bus in the order they were posted: Begin and End pair up in order.
    trace::emit(TraceStep::WriteBack, TracePhase::End, name_.c_str(), now_ps(), index_);
    written_back_pending_ -= static_cast<unsigned>(n);
    writebacks_.erase(it);
    delivered_ += n;
    stats_.frames_delivered += n;
    ++stats_.writebacks;
    stats_.descriptors_written_back += n;
    irq_.raise_delayed_rxt0();
    check_threshold();
}

// One posted write per run of consecutive ring slots.
void RxPort::flush_writebacks() {
    std::size_t first = 0;
    for (std::size_t i = 1; i <= done_.size(); ++i) {
        if (i < done_.size() && done_[i].slot.index == done_[i - 1].slot.index + 1) continue;
        std::vector<Done> run(done_.begin() + static_cast<std::ptrdiff_t>(first),
                              done_.begin() + static_cast<std::ptrdiff_t>(i));
        std::uint64_t cookie = kCookieBit | next_cookie_++;
        auto bytes = static_cast<std::uint32_t>(run.size() * kDescriptorBytes);
        std::uint64_t addr = cache_.slot_addr(run.front().slot.index);
        written_back_pending_ += static_cast<unsigned>(run.size());
        writebacks_[cookie] = std::move(run);
        trace::emit(TraceStep::WriteBack, TracePhase::Begin, name_.c_str(), now_ps(), index_, -1,
                    bytes);
        bus_->write(index_, addr, bytes, cookie);
        first = i;
    }
    done_.clear();
}

// RXDMT0 (SDM 13.4.22 RDMTS): the descriptors the NIC still holds for coming frames (between
// RDH and RDT) have fallen to 1/2, 1/4 or 1/8 of the ring.
void RxPort::check_threshold() {
    unsigned n = cache_.slots();
    if (n == 0) return;
    unsigned held = (rdt_ % n + n - cache_.head()) % n;
    if (held <= n >> (rctl_.rdmts() + 1)) irq_.raise(kIcrRxdmt0);
}

}  // namespace pcisim::e1000
