// The NIC's single bus master interface, shared by its ports (82546: two functions, one bus
// interface).  It allows one outstanding memory read (descriptor or data) at a time and offers
// the read slot to the ports round-robin; descriptor write-backs are posted writes and are
// issued at once.  Every request's DmaStats is added to the NIC's counters.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "e1000/e1000_stats.h"
#include "core/pci_types.h"

namespace pcisim::e1000 {

enum class ReadKind { Descriptors, Data };

struct ReadRequest {
    ReadKind kind;
    std::uint64_t addr;
    std::uint32_t bytes;
};

// A port's DMA engine as the bus interface sees it.
class DmaClient {
public:
    virtual ~DmaClient() = default;
    // The read slot is free: the read this port wants now, committing to it; false: none.
    virtual bool next_read(ReadRequest& out) = 0;
    virtual void read_finished(const ReadRequest& r, const DmaStats& s) = 0;
    virtual void write_finished(std::uint64_t cookie, const DmaStats& s) = 0;
};

class BusInterface {
public:
    BusInterface(BusPort& bus, int master_id, TxStats& stats);

    void add_client(DmaClient* c) { clients_.push_back(c); }
    // Something changed that may let a port read (tail write, FIFO room, packet retired).
    void kick();
    void write(unsigned client, std::uint64_t addr, std::uint32_t bytes, std::uint64_t cookie);

    // From the NIC's BusMaster interface.
    void read_done(std::uint64_t tag, const DmaStats& s);
    void write_done(std::uint64_t tag, const DmaStats& s);

private:
    struct PendingWrite {
        unsigned client;
        std::uint64_t cookie;
    };
    BusPort& bus_;
    int master_;
    TxStats& stats_;
    std::vector<DmaClient*> clients_;
    unsigned next_client_ = 0;  // round-robin start
    bool read_busy_ = false;
    unsigned read_client_ = 0;
    ReadRequest read_{};
    std::uint64_t read_tag_ = 0;
    std::uint64_t next_tag_ = 1;
    std::unordered_map<std::uint64_t, PendingWrite> writes_;
};

}  // namespace pcisim::e1000
