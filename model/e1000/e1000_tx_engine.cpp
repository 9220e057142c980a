#include "e1000/e1000_tx_engine.h"

#include <stdexcept>

#include "core/dma_memory.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

TxEngine::TxEngine(std::string name, unsigned index, const E1000Params& params, DmaMemory& mem,
                   TxFifo& fifo, MacWire& mac, InterruptLogic& irq,
                   StatisticsRegisters& statistics)
    : name_(std::move(name)), index_(index), params_(params), mem_(mem), fifo_(fifo), mac_(mac),
      statistics_(statistics),
      ring_(name_, index, params, irq, [this] { kick(); }),
      packets_(params.preload_packets),
      room_(name_, index, mac),
      writeback_(name_, index, params, ring_.cache(), mem, irq),
      tso_(name_, index, params, mem, ring_, fifo, mac, room_, packets_),
      ahead_(params, mac) {}

void TxEngine::kick() {
    if (bus_) bus_->kick();
}

void TxEngine::map_registers(RegisterFile& r) {
    r.add(kTctl, "TCTL", [this] { return tctl_.value; }, [this](std::uint32_t v) {
        tctl_ = Tctl{v};
        mac_.set_enabled(tctl_.en());
        kick();
    });
    r.add(kTxdmac, "TXDMAC", [this] { return txdmac_.value; }, [this](std::uint32_t v) {
        txdmac_ = Txdmac{v};
        kick();
    });
    r.add(kTxdctl, "TXDCTL", [this] { return txdctl_.value; }, [this](std::uint32_t v) {
        txdctl_ = Txdctl{v};
        kick();
    });
    ring_.map_registers(r);
    tso_.map_registers(r);
}

void TxEngine::reset() {
    tctl_ = Tctl{};
    mac_.set_enabled(false);
    txdctl_ = Txdctl{};
    txdmac_ = Txdmac{};
    ring_.reset();
    writeback_.reset();
    tso_.reset();
}

bool TxEngine::next_read(ReadRequest& out) {
    if (!tctl_.en() || ring_.cache().slots() == 0) return false;
    auto data = [&] {
        if (data_read(out)) return true;
        if (!tso_.next_read(out)) return false;
        ++stats_.data_reads;
        return true;
    };
    if (data()) return true;
    if (start_packet() && data()) return true;
    return ring_.next_fetch(out, txdctl_);
}

// The next buffer read of the packet being fetched; zero-length buffers need no read.
bool TxEngine::data_read(ReadRequest& out) {
    while (fetching_) {
        TxPacket& p = *fetching_;
        const TxDescriptor& d = p.descriptors[p.next_buffer].desc;
        std::uint32_t length = data_length(d);
        if (length != 0) {
            out = {ReadKind::Data, d.buffer_addr, length};
            ++stats_.data_reads;
            trace::emit(TraceStep::DataRead, TracePhase::Begin, name_.c_str(), now_ps(), index_,
                        p.seq, length);
            return true;
        }
        buffer_processed();
    }
    return false;
}

bool TxEngine::start_packet() {
    if (fetching_ || tso_.active()) return false;
    take_contexts();
    if (txdmac_.dpp() && !packets_.in_flight().empty()) return false;
    DescriptorCache& cache = ring_.cache();
    unsigned n = cache.complete_packet_descriptors();
    if (n == 0) return false;
    if (wants_segmentation(cache.peek(0).desc)) {
        tso_.begin(n, context_, now_ps());
        statistics_.tso_context_sent();
        return true;
    }
    std::uint32_t bytes = 0;
    for (unsigned i = 0; i < n; ++i) bytes += data_length(cache.peek(i).desc);
    if (bytes > fifo_.capacity())
        throw std::runtime_error("e1000: a " + std::to_string(bytes) +
                                 " B packet can never fit the " +
                                 std::to_string(fifo_.capacity()) + " B transmit FIFO");
    Picos now = now_ps();
    mac_.catch_up();  // a lazily kept wire: the frames that have left give their room back
    if (!fifo_.has_room(bytes)) {
        room_.wait(now, bytes, packets_.next_seq());
        return false;
    }
    Picos engine_ready = room_.found(now, bytes, packets_.next_seq());
    fifo_.reserve(bytes);
    TxPacket& p = packets_.start(bytes);
    for (unsigned i = 0; i < n; ++i) p.descriptors.push_back(cache.pop());
    p.popts = packet_options(p.descriptors.front().desc);
    ring_.stamp(p.times, p.descriptors.back().index);
    p.times.engine_ready = engine_ready;
    p.times.data_started = now;
    fetching_ = &p;
    return true;
}

// A context descriptor carries no data: it loads the offload context for the packets after
// it (SDM 3.3.6) and is processed (TDH moves past it) as soon as it is at the front.
void TxEngine::take_contexts() {
    DescriptorCache& cache = ring_.cache();
    while (cache.cached() > 0 && is_context(cache.peek(0).desc)) {
        CachedDescriptor d = cache.pop();
        context_ = OffloadContext::from(d.desc);
        ++stats_.context_descriptors;
        contexts_used_ = true;
        ring_.processed();
        writeback_.context_processed(d);
    }
}

void TxEngine::read_finished(const ReadRequest& r) {
    if (r.kind == ReadKind::Descriptors) return ring_.fetch_arrived(r, mem_);
    if (!fetching_) {
        if (tso_.data_arrived(r)) schedule_finishing();
        return;
    }
    // Data moves at the instant its last byte arrives.
    TxPacket& p = *fetching_;
    mem_.read(r.addr, p.frame.data() + p.filled, r.bytes);
    p.filled += r.bytes;
    trace::emit(TraceStep::DataRead, TracePhase::End, name_.c_str(), now_ps(), index_, p.seq, r.bytes);
    buffer_processed();
}

void TxEngine::buffer_processed() {
    TxPacket& p = *fetching_;
    ++p.next_buffer;
    ring_.processed();
    if (p.next_buffer == p.descriptors.size()) data_finished();
}

void TxEngine::data_finished() {
    if (fetching_->popts) {
        insert_checksums(fetching_->frame.data(), static_cast<std::uint32_t>(fetching_->frame.size()),
                         context_, fetching_->popts);
        ++stats_.checksum_packets;
    }
    fetching_->data_done = true;
    fetching_->times.data_in = now_ps();
    fetching_ = nullptr;
    schedule_finishing();
}

void TxEngine::schedule_finishing() {
    if (finishing_) return;
    Picos now = now_ps();
    auto& in_flight = packets_.in_flight();
    for (auto it = in_flight.begin(); it != in_flight.end();) {
        TxPacket* p = it->get();
        if (p->committed) {
            ++it;
            continue;
        }
        if (!p->data_done) return;  // packets finish in order
        Picos begin = std::max(now, ahead_.engine_free());
        if (ahead_.applies(*p, txdmac_.dpp(), txdctl_.wthresh(), writeback_.batch_pending())) {
            ahead_.commit(*p, begin);
            it = packets_.retire(it);
            continue;
        }
        finishing_ = p;
        finishing_done_.notify(ps(begin + params_.packet_processing_ps - now));
        trace::emit(TraceStep::Processing, TracePhase::Begin, name_.c_str(), begin, index_, p->seq);
        return;
    }
}

void TxEngine::finish_packet() {
    TxPacket* p = finishing_;
    finishing_ = nullptr;
    p->committed = true;
    trace::emit(TraceStep::Processing, TracePhase::End, name_.c_str(), now_ps(), index_, p->seq);
    p->times.committed = now_ps();
    mac_.enqueue(std::move(p->frame), p->times);
    writeback_.packet_committed(*p, txdctl_.wthresh());
    if (p->writes_pending == 0) retire(p);
    if (writeback_.batch_pending() && idle()) writeback_.flush_batch();
    schedule_finishing();
    kick();
}

void TxEngine::write_finished(std::uint64_t cookie) {
    if (TxPacket* done = writeback_.write_finished(cookie)) retire(done);
}

bool TxEngine::idle() const {
    if (tso_.active()) return false;  // segments still to come
    for (const auto& p : packets_.in_flight())
        if (!p->committed) return false;
    const DescriptorCache& cache = ring_.cache();
    return cache.cached() == 0 && cache.waiting_in_host() == 0;
}

void TxEngine::retire(TxPacket* p) {
    packets_.retire(p);
    kick();
}

void TxEngine::reset_stats() {
    stats_ = TxEngineStats{};
    ring_.reset_stats();
    room_.reset_stats();
    writeback_.reset_stats();
    tso_.reset_stats();
}

}  // namespace pcisim::e1000
