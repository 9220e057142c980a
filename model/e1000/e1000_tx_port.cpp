#include "e1000/e1000_tx_port.h"

#include <stdexcept>

#include "core/dma_memory.h"
#include "core/invariants.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

TxPort::TxPort(sc_core::sc_module_name name, unsigned index, const E1000Params& params,
               DmaMemory& mem, TxStats& stats, RxStats& rx_stats, InterruptSink* irq,
               const FrameObserver& observer, Eeprom& eeprom)
    : sc_module(name), index_(index), params_(params), mem_(mem), stats_(stats),
      fifo_(params.tx_fifo_bytes(params.pba_rx_kb)),
      cache_(params.descriptor_cache_entries, params.cache_line_bytes),
      mac_("mac", index, params, fifo_, stats, observer),
      irq_("interrupts", irq, stats),
      eeprom_(eeprom),
      phy_(ModelIdentity::of(params.model), params.link_mbps()),
      rx_(std::string(this->name()) + ".rx", index, params, mem, rx_stats, irq_, statistics_, filter_),
      control_(index, params, eeprom, phy_, irq_, [this] { reset(); },
               [this] { load_station_address(); }),
      pba_{params.pba_rx_kb},
      tspmt_(params.tspmt) {
    SC_HAS_PROCESS(TxPort);
    SC_METHOD(finish_packet);
    sensitive << finishing_done_;
    dont_initialize();
    map_registers();
    load_station_address();
    mac_.set_ipgt(tipg_.ipgt());
    mac_.on_frame_sent([this](std::vector<std::uint8_t>&& frame) {
        statistics_.frame_sent(frame.data(), static_cast<std::uint32_t>(frame.size()));
        spare_frames_.push_back(std::move(frame));
    });
    mac_.on_room_freed([this] { kick(); });
    // Frames already in the FIFO at time zero (nic.preload_*): the MAC sends them once
    // TCTL.EN is set, as if the FIFO pointers had been rewound over them.
    for (unsigned i = 0; i < params.preload_packets; ++i) {
        fifo_.reserve(params.preload_bytes);
        mac_.enqueue(std::vector<std::uint8_t>(params.preload_bytes, 0), FrameTimeline{});
    }
    next_seq_ = params.preload_packets;
}

void TxPort::kick() {
    if (bus_) bus_->kick();
}

// The port's registers (SDM 13.4), with what a read returns and what a write does.
void TxPort::map_registers() {
    RegisterFile& r = registers_;
    control_.map_registers(r);
    r.add(kIcr, "ICR", [this] { return irq_.read_icr(); },
          [this](std::uint32_t v) { irq_.clear(v); },  // 1s clear causes
          [this] { return irq_.icr(); });
    r.add(kItr, "ITR", [this] { return irq_.itr(); }, [this](std::uint32_t v) { irq_.set_itr(Itr{v}); });
    r.add(kIcs, "ICS", nullptr, [this](std::uint32_t v) { irq_.raise(v); });
    r.add(kIms, "IMS", [this] { return irq_.ims(); }, [this](std::uint32_t v) { irq_.set_mask(v); });
    r.add(kImc, "IMC", nullptr, [this](std::uint32_t v) { irq_.clear_mask(v); });
    r.add(kTctl, "TCTL", [this] { return tctl_.value; }, [this](std::uint32_t v) {
        tctl_ = Tctl{v};
        mac_.set_enabled(tctl_.en());
        kick();
    });
    r.add(kTipg, "TIPG", [this] { return tipg_.value; }, [this](std::uint32_t v) {
        tipg_ = Tipg{v};
        mac_.set_ipgt(tipg_.ipgt());
    });
    r.add(kPba, "PBA", [this] { return pba_.value; }, [this](std::uint32_t v) {
        pba_ = Pba{v};
        fifo_.set_capacity(params_.tx_fifo_bytes(pba_.rx_kb()));
        rx_.set_rx_kb(pba_.rx_kb());
    });
    r.add(kTxdmac, "TXDMAC", [this] { return txdmac_.value; }, [this](std::uint32_t v) {
        txdmac_ = Txdmac{v};
        kick();
    });
    r.add(kTdbal, "TDBAL", [this] { return static_cast<std::uint32_t>(cache_.base()); },
          [this](std::uint32_t v) { cache_.set_base_low(v); });
    r.add(kTdbah, "TDBAH", [this] { return static_cast<std::uint32_t>(cache_.base() >> 32); },
          [this](std::uint32_t v) { cache_.set_base_high(v); });
    r.add(kTdlen, "TDLEN", [this] { return cache_.length_bytes(); },
          [this](std::uint32_t v) { cache_.set_length_bytes(v); });
    r.add(kTdh, "TDH", [this] { return cache_.head(); }, [this](std::uint32_t v) { cache_.set_head(v); });
    r.add(kTdt, "TDT", [this] { return tdt_; }, [this](std::uint32_t v) {
        check_tail_move(v);
        stamp_handed_over(v);
        tdt_ = v;
        cache_.set_tail(v);
        kick();
    });
    r.add(kTidv, "TIDV", [this] { return irq_.tidv(); },
          [this](std::uint32_t v) { irq_.set_tidv(InterruptDelay{v}); });
    r.add(kTxdctl, "TXDCTL", [this] { return txdctl_.value; }, [this](std::uint32_t v) {
        txdctl_ = Txdctl{v};
        kick();
    });
    r.add(kTspmt, "TSPMT", [this] { return tspmt_; }, [this](std::uint32_t v) { tspmt_ = v; });
    r.add(kTadv, "TADV", [this] { return irq_.tadv(); },
          [this](std::uint32_t v) { irq_.set_tadv(InterruptDelay{v}); });
    rx_.map_registers(r);
    statistics_.map_registers(r, [this] { mac_.catch_up(); });
    filter_.map_registers(r);
}

// An 82546's second function answers to the EEPROM's address with its last bit flipped (as the
// Linux driver computes it, e1000_read_mac_addr).
void TxPort::load_station_address() {
    MacAddress station = eeprom_.mac();
    if (index_ == 1) station[5] ^= 1;
    filter_.reset(station);
}

void TxPort::reset() {
    mac_.catch_up();
    if (fifo_.used() != 0 || cache_.fetching() != 0 || !writebacks_.empty() || tso_.active() ||
        !rx_.idle())
        throw std::runtime_error(std::string(name()) +
                                 ": CTRL.RST while the port still has DMA or frames in flight "
                                 "(dropping them is not modelled); disable TCTL and RCTL and "
                                 "wait for them first, as the Linux driver does (e1000_reset_hw)");
    control_.reset();
    irq_.reset();
    cache_ = DescriptorCache(params_.descriptor_cache_entries, params_.cache_line_bytes);
    tctl_ = Tctl{};
    mac_.set_enabled(false);
    tipg_ = Tipg{8};
    mac_.set_ipgt(tipg_.ipgt());
    txdctl_ = Txdctl{};
    txdmac_ = Txdmac{};
    pba_ = Pba{params_.pba_rx_kb};
    fifo_.set_capacity(params_.tx_fifo_bytes(pba_.rx_kb()));
    tspmt_ = params_.tspmt;
    tdt_ = 0;
    batch_.clear();
    statistics_.clear();
    rx_.reset();
    rx_.set_rx_kb(pba_.rx_kb());
}

// Software hands the NIC descriptors up to (not including) TDT; moving TDT past TDH would
// hand over descriptors the NIC still owns: a ring overrun.
void TxPort::check_tail_move(std::uint32_t value) const {
    unsigned n = cache_.slots();
    if (n == 0) return;
    unsigned added = (value % n + n - tdt_ % n) % n;
    unsigned free = (cache_.head() + n - tdt_ % n - 1) % n;
    if (added > free)
        throw InvariantViolation(name(), "TX ring overrun: TDT written " + std::to_string(value) +
                                             " moves " + std::to_string(added) +
                                             " descriptors past TDT " + std::to_string(tdt_) +
                                             " with only " + std::to_string(free) +
                                             " free before TDH " +
                                             std::to_string(cache_.head()) + " (ring of " +
                                             std::to_string(n) + ")");
}

// One stamp per ring slot (TDLEN may have changed since the last).
void TxPort::size_ring_stamps() {
    unsigned n = cache_.slots();
    if (handed_over_at_.size() != n) handed_over_at_.assign(n, 0), fetched_at_.assign(n, 0);
}

// The descriptors from the old tail up to `new_tail` are software's no more from now on.
void TxPort::stamp_handed_over(std::uint32_t new_tail) {
    unsigned n = cache_.slots();
    if (n == 0) return;
    size_ring_stamps();
    Picos now = now_ps();
    for (unsigned slot = tdt_ % n; slot != new_tail % n; slot = (slot + 1) % n)
        handed_over_at_[slot] = now;
}

// A fetch never wraps past the ring end (DescriptorCache::plan_fetch).
void TxPort::stamp_fetched(const DescriptorFetch& f) {
    size_ring_stamps();
    Picos now = now_ps();
    for (unsigned i = 0; i < f.count; ++i) fetched_at_[f.first + i] = now;
}

// The engines take turns at the port's one read: the one that did not read last goes first.
bool TxPort::next_read(ReadRequest& out) {
    if (rx_reads_first_ && rx_.next_read(out)) {
        rx_reads_first_ = false;
        return true;
    }
    if (tx_read(out)) {
        rx_reads_first_ = true;
        return true;
    }
    return rx_.next_read(out);
}

bool TxPort::tx_read(ReadRequest& out) {
    if (!tctl_.en() || cache_.slots() == 0) return false;
    if (data_read(out) || tso_read(out)) return true;
    if (start_packet() && (data_read(out) || tso_read(out))) return true;
    if (!cache_.fetch_wanted(txdctl_)) return false;
    fetch_ = cache_.plan_fetch();
    cache_.fetch_issued(fetch_);
    out = {ReadKind::Descriptors, fetch_.addr, fetch_.count * kDescriptorBytes};
    ++stats_.descriptor_fetches;
    stats_.descriptors_fetched += fetch_.count;
    trace::emit(TraceStep::DescriptorFetch, TracePhase::Begin, name(), now_ps(), index_, -1, out.bytes);
    return true;
}

// The next buffer read of the packet being fetched; zero-length buffers need no read.
bool TxPort::data_read(ReadRequest& out) {
    while (fetching_) {
        Packet& p = *fetching_;
        const TxDescriptor& d = p.descriptors[p.next_buffer].desc;
        std::uint32_t length = data_length(d);
        if (length != 0) {
            out = {ReadKind::Data, d.buffer_addr, length};
            ++stats_.data_reads;
            trace::emit(TraceStep::DataRead, TracePhase::Begin, name(), now_ps(), index_, p.seq, length);
            return true;
        }
        buffer_processed();
    }
    return false;
}

bool TxPort::start_packet() {
    if (fetching_ || tso_.active()) return false;
    take_contexts();
    if (txdmac_.dpp() && !in_flight_.empty()) return false;
    unsigned n = cache_.complete_packet_descriptors();
    if (n == 0) return false;
    if (wants_segmentation(cache_.peek(0).desc)) {
        start_segmentation(n, now_ps());
        return true;
    }
    std::uint32_t bytes = 0;
    for (unsigned i = 0; i < n; ++i) bytes += data_length(cache_.peek(i).desc);
    if (bytes > fifo_.capacity())
        throw std::runtime_error("e1000: a " + std::to_string(bytes) +
                                 " B packet can never fit the " +
                                 std::to_string(fifo_.capacity()) + " B transmit FIFO");
    Picos now = now_ps();
    mac_.catch_up();  // a lazily kept wire: the frames that have left give their room back
    if (!fifo_.has_room(bytes)) {
        wait_for_room(now, bytes);
        return false;
    }
    Picos engine_ready = room_found(now, bytes);
    fifo_.reserve(bytes);
    std::unique_ptr<Packet> p = new_packet(bytes);
    for (unsigned i = 0; i < n; ++i) p->descriptors.push_back(cache_.pop());
    p->popts = packet_options(p->descriptors.front().desc);
    p->seq = next_seq_++;
    unsigned eop = p->descriptors.back().index;
    p->times.tail_written = handed_over_at_[eop];
    p->times.descriptors_fetched = fetched_at_[eop];
    p->times.engine_ready = engine_ready;
    p->times.data_started = now;
    fetching_ = p.get();
    in_flight_.push_back(std::move(p));
    return true;
}

void TxPort::wait_for_room(Picos now, std::uint32_t bytes) {
    mac_.wait_for_room();
    if (!waiting_for_fifo_) {
        waiting_for_fifo_ = true, fifo_wait_since_ = now;
        trace::emit(TraceStep::FifoWait, TracePhase::Begin, name(), now, index_, next_seq_, bytes);
    }
}

Picos TxPort::room_found(Picos now, std::uint32_t bytes) {
    if (!waiting_for_fifo_) return now;
    stats_.fifo_wait += now - fifo_wait_since_;
    waiting_for_fifo_ = false;
    trace::emit(TraceStep::FifoWait, TracePhase::End, name(), now, index_, next_seq_, bytes);
    return fifo_wait_since_;
}

// A context descriptor carries no data: it loads the offload context for the packets after
// it (SDM 3.3.6) and is processed (TDH moves past it) as soon as it is at the front.
void TxPort::take_contexts() {
    while (cache_.cached() > 0 && is_context(cache_.peek(0).desc)) {
        CachedDescriptor d = cache_.pop();
        context_ = OffloadContext::from(d.desc);
        ++stats_.context_descriptors;
        offloads_used_ = true;
        cache_.descriptor_processed();
        if (cache_.head() == cache_.tail()) irq_.raise(kIcrTxqe);
        if (d.desc.cmd & kCmdRs) write_back(nullptr, {d});
    }
}

// The TSO packet of the first `descriptors` in the cache: its segments are reserved and read by
// tso_read() from here on.
void TxPort::start_segmentation(unsigned descriptors, Picos now) {
    std::vector<CachedDescriptor> run;
    for (unsigned i = 0; i < descriptors; ++i) run.push_back(cache_.pop());
    tso_.begin(context_, packet_options(run.front().desc), run);
    statistics_.tso_context_sent();
    const std::uint32_t room = tso_.frame_bytes(0) + (tspmt_ >> 16);
    if (room > fifo_.capacity())
        throw std::runtime_error("e1000: a " + std::to_string(tso_.frame_bytes(0)) +
                                 " B TSO segment with TSPMT.TSPBP " +
                                 std::to_string(tspmt_ >> 16) + " B can never fit the " +
                                 std::to_string(fifo_.capacity()) + " B transmit FIFO");
    unsigned eop = run.back().index;
    tso_times_ = FrameTimeline{};
    tso_times_.tail_written = handed_over_at_[eop];
    tso_times_.descriptors_fetched = fetched_at_[eop];
    tso_times_.engine_ready = now;
    tso_segments_.clear();
    ++stats_.tso_packets;
    offloads_used_ = true;
}

// Segment `reserved()` of the TSO packet gets its FIFO room and becomes a packet of its own.
void TxPort::reserve_segment(Picos engine_ready) {
    std::uint32_t bytes = tso_.frame_bytes(tso_.reserved());
    fifo_.reserve(bytes);
    std::unique_ptr<Packet> p = new_packet(bytes);
    p->seq = next_seq_++;
    p->times = tso_times_;
    p->times.engine_ready = std::max(engine_ready, tso_times_.engine_ready);
    p->times.data_started = now_ps();
    tso_.reserve_next(p->frame.data());
    tso_segments_.push_back(p.get());
    in_flight_.push_back(std::move(p));
}

// The TSO packet's next read (SDM 3.5, and TSPMT 13.4.45): room for each segment the read
// reaches (its frame plus TSPBP free) is reserved in order while the FIFO has it, and the read
// is cut where the reserved segments end.  A read shorter than TSMT (and than what it wanted)
// waits for more room while frames that will leave hold FIFO room.
bool TxPort::tso_read(ReadRequest& out) {
    if (!tso_.active() || tso_.all_requested()) return false;
    const bool whole = params_.tso_fetch_whole_descriptor;
    const std::uint32_t tsmt = tspmt_ & 0xFFFFu, padding = tspmt_ >> 16;
    Picos now = now_ps();
    mac_.catch_up();
    TsoSegmenter::Fetch f = tso_.plan(whole);
    while (tso_.reserved() <= f.last_segment && tso_.reserved() < tso_.segments() &&
           fifo_.has_room(tso_.frame_bytes(tso_.reserved()) + padding)) {
        reserve_segment(room_found(now, tso_.frame_bytes(tso_.reserved())));
        f = tso_.plan(whole);
    }
    if (f.bytes < std::min(tsmt, f.wanted)) {
        std::uint32_t filling = 0;  // room of reserved segments still waiting for data
        for (unsigned k = tso_.completed(); k < tso_.reserved(); ++k) filling += tso_.frame_bytes(k);
        if (fifo_.used() > filling || f.bytes == 0) {
            wait_for_room(now, tso_.frame_bytes(std::min(tso_.reserved(), tso_.segments() - 1)));
            return false;
        }
    }
    tso_.requested(f.bytes);
    out = {ReadKind::Data, f.addr, f.bytes};
    ++stats_.data_reads;
    trace::emit(TraceStep::DataRead, TracePhase::Begin, name(), now, index_, next_seq_ - 1, f.bytes);
    return true;
}

// A TSO read's bytes: into the header and the segments; descriptors whose data is all in are
// processed (and written back with the segment their data ends in), complete segments go on
// to finishing.
void TxPort::tso_data_arrived(const ReadRequest& r) {
    tso_read_buffer_.resize(r.bytes);
    mem_.read(r.addr, tso_read_buffer_.data(), r.bytes);
    tso_.arrived(tso_read_buffer_.data(), r.bytes);
    trace::emit(TraceStep::DataRead, TracePhase::End, name(), now_ps(), index_, next_seq_ - 1, r.bytes);
    CachedDescriptor d;
    unsigned k;
    while (tso_.next_processed(d, k)) {
        tso_segments_[k]->descriptors.push_back(d);
        cache_.descriptor_processed();
        if (cache_.head() == cache_.tail()) irq_.raise(kIcrTxqe);
    }
    bool complete = false;
    while (tso_.next_complete(k)) {
        tso_segments_[k]->data_done = true;
        tso_segments_[k]->times.data_in = now_ps();
        ++stats_.tso_segments;
        complete = true;
    }
    if (!tso_.active()) tso_segments_.clear();
    if (complete) schedule_finishing();
}

// A packet in its initial state with a zeroed frame buffer, from the spares when there are any.
std::unique_ptr<TxPort::Packet> TxPort::new_packet(std::uint32_t frame_bytes) {
    std::unique_ptr<Packet> p;
    if (spare_packets_.empty()) {
        p = std::make_unique<Packet>();
    } else {
        p = std::move(spare_packets_.back());
        spare_packets_.pop_back();
        std::vector<CachedDescriptor> descriptors = std::move(p->descriptors);
        *p = Packet{};
        p->descriptors = std::move(descriptors);
        p->descriptors.clear();
    }
    if (!spare_frames_.empty()) {
        p->frame = std::move(spare_frames_.back());
        spare_frames_.pop_back();
    }
    p->frame.assign(frame_bytes, 0);
    return p;
}

void TxPort::read_finished(const ReadRequest& r, const DmaStats&) {
    if (r.kind == ReadKind::RxDescriptors) return rx_.read_finished(r);
    if (r.kind == ReadKind::Descriptors) {
        cache_.fetch_arrived(fetch_, mem_);
        stamp_fetched(fetch_);
        trace::emit(TraceStep::DescriptorFetch, TracePhase::End, name(), now_ps(), index_, -1, r.bytes);
        return;
    }
    if (!fetching_) return tso_data_arrived(r);
    // Data moves at the instant its last byte arrives.
    Packet& p = *fetching_;
    mem_.read(r.addr, p.frame.data() + p.filled, r.bytes);
    p.filled += r.bytes;
    trace::emit(TraceStep::DataRead, TracePhase::End, name(), now_ps(), index_, p.seq, r.bytes);
    buffer_processed();
}

void TxPort::buffer_processed() {
    Packet& p = *fetching_;
    ++p.next_buffer;
    cache_.descriptor_processed();
    if (cache_.head() == cache_.tail()) irq_.raise(kIcrTxqe);  // SDM 13.4.17: queue empty
    if (p.next_buffer == p.descriptors.size()) data_finished();
}

void TxPort::data_finished() {
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

void TxPort::schedule_finishing() {
    if (finishing_) return;
    Picos now = now_ps();
    for (auto it = in_flight_.begin(); it != in_flight_.end();) {
        Packet* p = it->get();
        if (p->committed) {
            ++it;
            continue;
        }
        if (!p->data_done) return;  // packets finish in order
        Picos begin = std::max(now, engine_free_);
        if (finishes_unseen(*p)) {
            commit_ahead(*p, begin);
            spare_packets_.push_back(std::move(*it));
            it = in_flight_.erase(it);
            continue;
        }
        finishing_ = p;
        finishing_done_.notify(ps(begin + params_.packet_processing_ps - now));
        trace::emit(TraceStep::Processing, TracePhase::Begin, name(), begin, index_, p->seq);
        return;
    }
}

// The shortcut's condition (see the header): the MAC takes frames ahead (its lazy wire), no
// descriptor of the packet is written back or batched (RS clear, and with WTHRESH > 0 only RS
// descriptors batched and no batch pending that its end could flush), and the next packet's
// fetch does not wait for it (TXDMAC.DPP clear), so neither the bus nor the driver nor the DMA
// engine notices its end.
bool TxPort::finishes_unseen(const Packet& p) const {
    if (!mac_.lazy() || txdmac_.dpp()) return false;
    if (txdctl_.wthresh() != 0 && (params_.writeback_batch_all || !batch_.empty())) return false;
    for (const auto& d : p.descriptors)
        if (d.desc.cmd & kCmdRs) return false;
    return true;
}

// Done now, as it will be at its commit time: the frame goes to the MAC ready from then on, and
// the DMA engine is busy finishing until then.
void TxPort::commit_ahead(Packet& p, Picos begin) {
    engine_free_ = begin + params_.packet_processing_ps;
    p.committed = true;
    p.times.committed = engine_free_;
    mac_.enqueue(std::move(p.frame), p.times);
}

void TxPort::finish_packet() {
    Packet* p = finishing_;
    finishing_ = nullptr;
    p->committed = true;
    trace::emit(TraceStep::Processing, TracePhase::End, name(), now_ps(), index_, p->seq);
    p->times.committed = now_ps();
    mac_.enqueue(std::move(p->frame), p->times);
    unsigned wthresh = txdctl_.wthresh();
    if (wthresh == 0) {
        for (const auto& d : p->descriptors)
            if (d.desc.cmd & kCmdRs) write_back(p, {d});
    } else {
        for (const auto& d : p->descriptors)
            if (params_.writeback_batch_all || (d.desc.cmd & kCmdRs)) batch_.push_back(d);
        // The packet that fills the batch owns its write, as it would its own at WTHRESH 0.
        if (batch_.size() >= wthresh) flush_batch(p);
    }
    if (p->writes_pending == 0) retire(p);
    if (!batch_.empty() && idle()) flush_batch(nullptr);
    schedule_finishing();
    kick();
}

// WTHRESH > 0 (SDM 13.4.42): processed descriptors are written back in bursts, one write per
// contiguous run in the ring.  Which descriptors count is nic.writeback_batch (docs/e1000.md).
// Assumption: a partial batch is also written when the queue has run empty, so software is
// never left waiting for the last few.
void TxPort::flush_batch(Packet* owner) {
    std::vector<CachedDescriptor> run;
    for (const auto& d : batch_) {
        if (!run.empty() && d.index != run.back().index + 1) write_back(owner, std::move(run)), run.clear();
        run.push_back(d);
    }
    if (!run.empty()) write_back(owner, std::move(run));
    batch_.clear();
}

void TxPort::write_back(Packet* p, std::vector<CachedDescriptor> run) {
    if (params_.drop_writebacks) return;  // fault injection: DD never reaches the driver
    std::uint64_t cookie = next_cookie_++;
    std::uint64_t addr = cache_.slot_addr(run.front().index);
    auto bytes = static_cast<std::uint32_t>(run.size() * kDescriptorBytes);
    if (p) ++p->writes_pending;
    writebacks_[cookie] = {p, std::move(run)};
    trace::emit(TraceStep::WriteBack, TracePhase::Begin, name(), now_ps(), index_, p ? p->seq : -1, bytes);
    bus_->write(index_, addr, bytes, cookie);
}

void TxPort::write_finished(std::uint64_t cookie, const DmaStats&) {
    if (cookie & RxPort::kCookieBit) return rx_.write_finished(cookie);
    auto it = writebacks_.find(cookie);
    WriteBack wb = std::move(it->second);
    writebacks_.erase(it);
    // DD becomes visible in host memory when the write has crossed the bus.  The write carries
    // each descriptor as fetched with DD set (16 bytes each, as it moves on the bus); software
    // does not touch a descriptor it has handed over, so that is the descriptor in memory plus
    // DD, and the write needs no read of host memory.
    bool report = false, at_once = false;
    for (const auto& d : wb.descriptors) {
        TxDescriptor done = d.desc;
        done.status |= kStaDd;
        mem_.write(cache_.slot_addr(d.index), &done, kDescriptorBytes);
        if (d.desc.cmd & kCmdRs) {
            report = true;
            at_once = at_once || !(d.desc.cmd & kCmdIde);
        }
    }
    ++stats_.writebacks;
    trace::emit(TraceStep::WriteBack, TracePhase::End, name(), now_ps(), index_,
                wb.packet ? wb.packet->seq : -1,
                static_cast<std::uint32_t>(wb.descriptors.size() * kDescriptorBytes));
    stats_.descriptors_written_back += wb.descriptors.size();
    if (report) {
        if (at_once) irq_.raise(kIcrTxdw);
        else irq_.raise_delayed_txdw();
    }
    if (wb.packet && --wb.packet->writes_pending == 0) retire(wb.packet);
}

bool TxPort::idle() const {
    if (tso_.active()) return false;  // segments still to come
    for (const auto& p : in_flight_)
        if (!p->committed) return false;
    return cache_.cached() == 0 && cache_.waiting_in_host() == 0;
}

void TxPort::retire(Packet* p) {
    for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it) {
        if (it->get() == p) {
            spare_packets_.push_back(std::move(*it));
            in_flight_.erase(it);
            break;
        }
    }
    kick();
}

}  // namespace pcisim::e1000
