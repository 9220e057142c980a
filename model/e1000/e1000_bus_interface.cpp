#include "e1000/e1000_bus_interface.h"

#include <stdexcept>

namespace pcisim::e1000 {

BusInterface::BusInterface(BusPort& bus, int master_id, bool one_read_per_device)
    : bus_(bus), master_(master_id), one_read_per_device_(one_read_per_device) {}

void BusInterface::add_client(DmaClient* c) {
    clients_.push_back(c);
    reads_.emplace_back();
}

// Every port whose read slot is free is asked once, round-robin from the port after the one
// that issued last, so that when both want the bus master their reads queue in turn (with one
// read per device: the first port that wants one takes it, in the same turn order).  Tags are unique across the ports: on PCI-X the two functions' split requests
// differ in requester ID anyway (function number, PCI-X 2.0 2.10), and a unique tag is how this
// model tells their completions apart on the one bus master.
void BusInterface::kick() {
    std::size_t n = clients_.size();
    unsigned first = next_client_;
    for (std::size_t i = 0; i < n; ++i) {
        unsigned c = static_cast<unsigned>((first + i) % n);
        ReadSlot& slot = reads_[c];
        if (slot.busy) continue;
        if (one_read_per_device_ && reading_any()) return;
        ReadRequest r{};
        if (!clients_[c]->next_read(r)) continue;
        slot.busy = true;
        slot.read = r;
        slot.tag = next_tag_++;
        next_client_ = static_cast<unsigned>((c + 1) % n);
        bus_.read(master_, r.addr, r.bytes, slot.tag);
    }
}

bool BusInterface::reading_any() const {
    for (const ReadSlot& s : reads_)
        if (s.busy) return true;
    return false;
}

void BusInterface::write(unsigned client, std::uint64_t addr, std::uint32_t bytes,
                         std::uint64_t cookie) {
    std::uint64_t tag = next_tag_++;
    writes_.push_back({tag, client, cookie});
    bus_.write(master_, addr, bytes, tag);
}

void BusInterface::read_done(std::uint64_t tag, const DmaStats& s) {
    unsigned c = 0;
    while (c < reads_.size() && !(reads_[c].busy && reads_[c].tag == tag)) ++c;
    if (c == reads_.size()) throw std::logic_error("e1000: unexpected read completion");
    ReadSlot& slot = reads_[c];
    slot.busy = false;
    stats_.add(s);
    stats_.read_latency += s.latency;
    if (slot.read.kind == ReadKind::Descriptors) stats_.descriptor_fetch += s.finished - s.issued;
    clients_[c]->read_finished(slot.read, s);
    kick();
}

void BusInterface::write_done(std::uint64_t tag, const DmaStats& s) {
    std::size_t i = 0;
    while (i < writes_.size() && writes_[i].tag != tag) ++i;
    if (i == writes_.size()) throw std::logic_error("e1000: unexpected write completion");
    const PendingWrite w = writes_[i];
    writes_[i] = writes_.back();
    writes_.pop_back();
    stats_.add(s);
    clients_[w.client]->write_finished(w.cookie, s);
    kick();
}

}  // namespace pcisim::e1000
