#include "e1000/e1000_bus_interface.h"

#include <stdexcept>

namespace pcisim::e1000 {

BusInterface::BusInterface(BusPort& bus, int master_id, TxStats& stats)
    : bus_(bus), master_(master_id), stats_(stats) {}

void BusInterface::kick() {
    if (read_busy_) return;
    for (std::size_t i = 0; i < clients_.size(); ++i) {
        unsigned c = static_cast<unsigned>((next_client_ + i) % clients_.size());
        ReadRequest r{};
        if (!clients_[c]->next_read(r)) continue;
        read_busy_ = true;
        read_client_ = c;
        read_ = r;
        read_tag_ = next_tag_++;
        next_client_ = (c + 1) % clients_.size();
        bus_.read(master_, r.addr, r.bytes, read_tag_);
        return;
    }
}

void BusInterface::write(unsigned client, std::uint64_t addr, std::uint32_t bytes,
                         std::uint64_t cookie) {
    std::uint64_t tag = next_tag_++;
    writes_[tag] = {client, cookie};
    bus_.write(master_, addr, bytes, tag);
}

void BusInterface::read_done(std::uint64_t tag, const DmaStats& s) {
    if (!read_busy_ || tag != read_tag_) throw std::logic_error("e1000: unexpected read completion");
    read_busy_ = false;
    stats_.add_bus(s);
    stats_.read_latency += s.latency;
    if (read_.kind == ReadKind::Descriptors) stats_.descriptor_fetch += s.finished - s.issued;
    clients_[read_client_]->read_finished(read_, s);
    kick();
}

void BusInterface::write_done(std::uint64_t tag, const DmaStats& s) {
    auto it = writes_.find(tag);
    if (it == writes_.end()) throw std::logic_error("e1000: unexpected write completion");
    PendingWrite w = it->second;
    writes_.erase(it);
    stats_.add_bus(s);
    clients_[w.client]->write_finished(w.cookie, s);
    kick();
}

}  // namespace pcisim::e1000
