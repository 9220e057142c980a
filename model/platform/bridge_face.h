// The face a host bridge or PCI bridge presents on the segment below it.
//
// As a target it claims every address not decoded by a device (host memory): posted writes are
// taken at once and handed up the MemoryPath; reads go up it behind them.  Conventional PCI reads are delayed transactions
// (PCI 3.0 3.3.3.3): the bridge fetches its prefetch buffer and retries the master until the
// first cache line is in; a retry after that gets the data as the lines arrive and a disconnect
// at the end of the buffer.  With read_response "wait" the bridge instead holds TRDY# when the
// first line will be there within the initial-latency limit (16 clocks, PCI 3.0 3.5.1.1).  PCI-X reads get a split response and the
// data comes back as split completions (PCI-X 2.0 2.10), in chunks of completion_chunk_bytes.
// Both queues are finite: the face holds at most delayed_request_limit delayed reads and
// split_transaction_limit split reads; a read beyond that is retried, not taken (see offer()).
//
// As a master it carries CPU register accesses down to the devices on the segment.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

#include "platform/memory_path.h"
#include "platform/pci_bus.h"
#include "config/param_spec.h"

namespace pcisim {

class ScenarioView;

struct FaceConfig {
    bool delayed_reads = true;          // false: wait states while within the latency limit
    std::uint32_t prefetch_bytes = 512; // conventional PCI: bytes fetched per delayed read
    bool prefetch_ahead = false;        // fetch the next buffer while the master drains one
    Devsel devsel = Devsel::Medium;
    unsigned initial_latency_limit_clocks = 16;
    std::uint32_t completion_chunk_bytes = 0;  // PCI-X: bytes per split completion; 0 = all
    unsigned delayed_request_limit = 0;    // conventional PCI: delayed reads held; 0 = no limit
    unsigned split_transaction_limit = 0;  // PCI-X: split reads not yet completed; 0 = no limit
    unsigned cache_line_bytes = 64;     // the host's: the unit the buffers hold

    // The face's keys under `prefix` ("host", "bridges.1"); the line size is the host's.
    static FaceConfig from(const ScenarioView& s, const std::string& prefix,
                           unsigned cache_line_bytes);
};

// Parameters every bridge face has, under `prefix` ("host", "bridges[]").
std::vector<ParamSpec> face_params(const std::string& prefix);

class BridgeFace : public sc_core::sc_module, public BusMaster, public BusTarget,
                   public MmioTarget {
public:
    SC_HAS_PROCESS(BridgeFace);
    BridgeFace(sc_core::sc_module_name name, const FaceConfig& config, PciBus& bus,
               MemoryPath& up);

    // CPU register accesses arriving at this face at `at` (>= now).
    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) override;
    void mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                   MmioClient* client, std::uint64_t tag) override;

    TargetOffer offer(const BusTransaction& t, Picos start) override;
    void complete(BusTransaction& t) override;
    void read_done(std::uint64_t tag, const DmaStats& stats, std::uint32_t dword) override;
    void write_done(std::uint64_t tag, const DmaStats& stats) override {}
    void completion_sent(int requester, std::uint64_t tag) override;

    int master_id() const { return master_id_; }

private:
    struct DelayedRead {  // a latched delayed read request (one per request of a master)
        int master = -1;
        std::uint64_t tag = 0;            // the master's request it was latched for
        std::uint64_t addr = 0, end = 0;  // buffer covers [addr, end)
        Picos first_ready = 0;            // the line holding addr is here
        Picos line_time = 0;              // each further line this much later ...
        ModifiedLines modified;           // ... unless a CPU cache holds it modified
    };
    struct LineTiming {
        Picos first, per_line;
        ModifiedLines modified;
    };
    // For a read of [addr, end), via the MemoryPath; `jitter` is the read's extra latency; the
    // CPU caches are snooped as of `snoop_at`, the start of the bus transaction that asked (so
    // the promise made while the transaction runs and the read latched at its end agree).
    LineTiming line_timing(const BusTransaction& t, std::uint64_t addr, std::uint64_t end,
                           Picos jitter, Picos snoop_at) const;
    // The snoop's answer for a read of `t` of [addr, end): asked of the caches once per
    // attempt and remembered, so that the promise made while the bus runs ahead and the read
    // latched at the attempt's end agree even when the CPU has since written or evicted a line.
    MemoryPath::Snoop snoop_read(const BusTransaction& t, std::uint64_t addr, std::uint64_t end,
                                 Picos snoop_at) const;
    // A delayed read asked for at `from`; `jitter` as above (0 for a read held in wait states).
    DelayedRead fetch(const BusTransaction& t, std::uint64_t addr, Picos from,
                      Picos jitter) const;
    // The read of `t` (from `addr` to the end of the buffer) is taken: the snooped lines are
    // written back.
    void taken(const BusTransaction& t, std::uint64_t addr, std::uint64_t end);
    void pace(TargetOffer& o, const DelayedRead& d) const;
    void note_commit_wait(int master, Picos from) const;
    struct Pending {  // something this face does later
        enum Kind { MmioWrite, MmioRead, Completion, MmioReturn } kind;
        Picos when;
        unsigned cpu;            // a register access: the CPU's number (else 0) ...
        std::uint64_t seq;       // ... and equal times in CPU order, then in arrival order
        std::uint64_t addr;
        std::uint32_t value;     // write data / read value / completion bytes
        int requester;
        std::uint64_t tag;
        Picos return_latency;
        MmioClient* client;
        bool operator>(const Pending& o) const {
            if (when != o.when) return when > o.when;
            return cpu != o.cpu ? cpu > o.cpu : seq > o.seq;
        }
    };
    void schedule(Pending p);
    bool hand_over_ahead() const;
    void on_pending();
    DelayedRead* find_delayed(const BusTransaction& t);
    // A read not latched yet finds the delayed-request queue full.
    bool delayed_queue_full() const;
    bool split_queue_full() const;
    // End of the buffer a delayed read at `addr` fills: prefetch_bytes from its cache line.
    std::uint64_t prefetch_end(std::uint64_t addr) const;

    FaceConfig config_;
    PciBus& bus_;
    MemoryPath& up_;
    int master_id_;
    std::vector<DelayedRead> delayed_;
    struct SplitRead {  // an accepted split read whose completions are not all sent
        int requester;
        std::uint64_t tag;
        unsigned completions_left;
    };
    std::vector<SplitRead> splits_;
    std::uint64_t reads_started_ = 0;  // delayed and split reads fetched, for read_jitter
    struct SnoopAnswer {  // per master: its latest attempt's snoop
        int master;
        std::uint64_t tag, addr, end;
        Picos start;
        MemoryPath::Snoop answer;
    };
    mutable std::vector<SnoopAnswer> snoop_answers_;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
    std::uint64_t seq_ = 0;
    struct ReadInFlight {
        std::uint64_t tag, client_tag;
        Picos return_latency;
        MmioClient* client;
    };
    std::vector<ReadInFlight> reads_;  // MMIO reads on the bus, by our tag
    std::uint64_t next_tag_ = 0;
    sc_core::sc_event pending_event_{"pending"};
};

}  // namespace pcisim
