#include "e1000/e1000_tx_writeback.h"

#include <stdexcept>

#include "core/dma_memory.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

TxWriteBack::TxWriteBack(std::string name, unsigned index, const E1000Params& params,
                         const DescriptorCache& ring, DmaMemory& mem, InterruptLogic& irq)
    : name_(std::move(name)), index_(index), params_(params), ring_(ring), mem_(mem), irq_(irq) {}

void TxWriteBack::packet_committed(TxPacket& p, unsigned wthresh) {
    if (wthresh == 0) {
        for (const auto& d : p.descriptors)
            if (d.desc.cmd & kCmdRs) write(&p, &d, 1);
        return;
    }
    for (const auto& d : p.descriptors)
        if (params_.writeback_batch_all || (d.desc.cmd & kCmdRs)) batch_.push_back(d);
    // The packet that fills the batch owns its write, as it would its own at WTHRESH 0.
    if (batch_.size() >= wthresh) flush(&p);
}

void TxWriteBack::context_processed(const CachedDescriptor& d) {
    if (d.desc.cmd & kCmdRs) write(nullptr, &d, 1);
}

void TxWriteBack::flush(TxPacket* owner) {
    // One write per run of consecutive ring slots.
    std::size_t start = 0;
    for (std::size_t i = 1; i <= batch_.size(); ++i) {
        if (i < batch_.size() && batch_[i].index == batch_[i - 1].index + 1) continue;
        write(owner, &batch_[start], i - start);
        start = i;
    }
    batch_.clear();
}

void TxWriteBack::write(TxPacket* p, const CachedDescriptor* run, std::size_t count) {
    if (count == 0 || params_.drop_writebacks) return;  // fault injection: DD never reaches the driver
    std::uint64_t cookie = next_cookie_++;
    std::uint64_t addr = ring_.slot_addr(run[0].index);
    auto bytes = static_cast<std::uint32_t>(count * kDescriptorBytes);
    if (p) ++p->writes_pending;
    std::size_t slot = 0;
    while (slot < writes_.size() && writes_[slot].cookie != 0) ++slot;
    if (slot == writes_.size()) writes_.emplace_back();
    Write& w = writes_[slot];
    w.cookie = cookie;
    w.packet = p;
    w.descriptors.assign(run, run + count);
    ++writes_in_flight_;
    trace::emit(TraceStep::WriteBack, TracePhase::Begin, name_.c_str(), now_ps(), index_,
                p ? p->seq : -1, bytes);
    bus_->write(index_, addr, bytes, cookie);
}

TxPacket* TxWriteBack::write_finished(std::uint64_t cookie) {
    std::size_t slot = 0;
    while (slot < writes_.size() && writes_[slot].cookie != cookie) ++slot;
    if (slot == writes_.size()) throw std::logic_error(name_ + ": unexpected write-back completion");
    Write& wb = writes_[slot];
    // DD becomes visible in host memory when the write has crossed the bus.  The write carries
    // each descriptor as fetched with DD set (16 bytes each, as it moves on the bus); software
    // does not touch a descriptor it has handed over, so that is the descriptor in memory plus
    // DD, and the write needs no read of host memory.
    bool report = false, at_once = false;
    for (const auto& d : wb.descriptors) {
        TxDescriptor done = d.desc;
        done.status |= kStaDd;
        mem_.write(ring_.slot_addr(d.index), &done, kDescriptorBytes);
        if (d.desc.cmd & kCmdRs) {
            report = true;
            at_once = at_once || !(d.desc.cmd & kCmdIde);
        }
    }
    ++stats_.writebacks;
    trace::emit(TraceStep::WriteBack, TracePhase::End, name_.c_str(), now_ps(), index_,
                wb.packet ? wb.packet->seq : -1,
                static_cast<std::uint32_t>(wb.descriptors.size() * kDescriptorBytes));
    stats_.descriptors_written_back += wb.descriptors.size();
    TxPacket* const packet = wb.packet;
    wb.cookie = 0;  // the slot is free again (its vector keeps its room)
    --writes_in_flight_;
    if (report) {
        if (at_once) irq_.raise(kIcrTxdw);
        else irq_.raise_delayed_txdw();
    }
    if (packet && --packet->writes_pending == 0) return packet;
    return nullptr;
}

}  // namespace pcisim::e1000
