// The NIC's bus master interface, shared by its ports (82546: two LAN functions behind one
// bus interface, SDM 12.2).  Each port's DMA engine has at most one outstanding memory read
// (descriptor or data; SDM 4.3.2.1: "allows one outstanding memory read command at any
// time", per LAN function by default), so a two-port part can have two reads in flight, one
// per port; with `one_read_per_device` the ports share that one read.
// When the interface is asked to look for work it offers the ports round-robin, so neither
// port's read keeps going first; descriptor write-backs are posted writes and are issued at
// once.  Every request's DmaStats is added to the NIC's counters.  A port's receive engine
// shares its read slot (it reads only descriptors) and posts its packet data and write-backs
// here too, through the port's DmaClient (e1000_port.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/pci_types.h"

namespace pcisim::e1000 {

enum class ReadKind { Descriptors, Data, RxDescriptors };

struct ReadRequest {
    ReadKind kind;
    std::uint64_t addr;
    std::uint32_t bytes;
};

// The bus outcome of the NIC's own requests (sums of their DmaStats, since the last reset).
struct BusStats {
    std::uint64_t transactions = 0, retries = 0, disconnects = 0, preemptions = 0;
    Picos arbitration = 0;       // all NIC requests
    Picos overhead = 0;
    Picos data_phases = 0;       // all NIC requests
    Picos read_latency = 0;      // descriptor and data reads
    Picos descriptor_fetch = 0;  // transmit descriptor reads, issue to last byte

    void add(const DmaStats& s) {
        transactions += s.transactions;
        retries += s.retries;
        disconnects += s.disconnects;
        preemptions += s.preemptions;
        arbitration += s.arbitration;
        overhead += s.overhead;
        data_phases += s.data;
    }
};

// A port's DMA engine as the bus interface sees it.
class DmaClient {
public:
    virtual ~DmaClient() = default;
    // This port's read slot is free: the read it wants now, committing to it; false: none.
    virtual bool next_read(ReadRequest& out) = 0;
    virtual void read_finished(const ReadRequest& r, const DmaStats& s) = 0;
    virtual void write_finished(std::uint64_t cookie, const DmaStats& s) = 0;
};

class BusInterface {
public:
    BusInterface(BusPort& bus, int master_id, bool one_read_per_device = false);

    void add_client(DmaClient* c);
    // Something changed that may let a port read (tail write, FIFO room, packet retired).
    void kick();
    void write(unsigned client, std::uint64_t addr, std::uint32_t bytes, std::uint64_t cookie);

    // Whether `client`'s one read is in flight (tests).
    bool reading(unsigned client) const { return reads_.at(client).busy; }
    bool reading_any() const;
    const BusStats& stats() const { return stats_; }
    void reset_stats() { stats_ = BusStats{}; }

    // From the NIC's BusMaster interface.
    void read_done(std::uint64_t tag, const DmaStats& s);
    void write_done(std::uint64_t tag, const DmaStats& s);

private:
    struct PendingWrite {
        std::uint64_t tag;
        unsigned client;
        std::uint64_t cookie;
    };
    struct ReadSlot {  // one per port: its outstanding read, if any
        bool busy = false;
        ReadRequest read{};
        std::uint64_t tag = 0;
    };
    BusPort& bus_;
    int master_;
    BusStats stats_;
    bool one_read_per_device_;
    std::vector<DmaClient*> clients_;
    std::vector<ReadSlot> reads_;  // by client
    unsigned next_client_ = 0;     // round-robin start
    std::uint64_t next_tag_ = 1;
    std::vector<PendingWrite> writes_;  // in flight: a handful, found by a scan (no allocation)
};

}  // namespace pcisim::e1000
