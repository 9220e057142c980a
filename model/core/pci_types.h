// What moves on a PCI/PCI-X segment, and the two roles a device can play there.
//
// Our own small interface instead of TLM-2.0 sockets: a PCI transaction's duration depends on
// the arbiter, on other masters' requests arriving while it runs (latency-timer preemption) and
// on the target's answer (retry, split, disconnect), so the bus computes the whole transaction
// in clocks and only asks the target for its answer.  See docs/architecture.md.
#pragma once

#include <bitset>
#include <cstdint>
#include <string>

namespace pcisim {

// Simulated time inside the bus maths: integer picoseconds (the SystemC resolution we set).
using Picos = std::uint64_t;
constexpr Picos kPicosPerNs = 1000;
constexpr Picos kPicosPerUs = 1000000;
constexpr Picos kNever = ~Picos{0};  // a time that never comes (no event pending)

enum class BusKind { Pci, PciX };

enum class BusCommand {
    MemRead,          // PCI Memory Read Multiple / PCI-X Memory Read Block
    MemWrite,         // posted
    SplitCompletion,  // PCI-X: completer returning read data to the requester
};

// How a transaction ended (PCI 3.0 section 3.3.3; PCI-X 2.0 section 2.10).
enum class Termination {
    Completed,      // every byte asked for was transferred
    Retry,          // target signalled STOP# before any data (delayed read not ready)
    Disconnect,     // target stopped after some data (buffer end, PCI-X ADB)
    LatencyTimer,   // master stopped: latency timer expired and GNT# was taken away
    SplitResponse,  // PCI-X target took the request and will complete it later
};

const char* to_string(Termination t);

// DEVSEL# timing (PCI "fast/medium/slow"; PCI-X decode A/B/C): clocks after the address phase
// (PCI) or attribute phase (PCI-X) at which the target claims the transaction.
enum class Devsel : std::uint8_t { Fast = 1, Medium = 2, Slow = 3 };

// One bus transaction as the bus runs it.
struct BusTransaction {
    BusCommand command = BusCommand::MemRead;
    int master = -1;               // master id on this segment
    std::uint64_t addr = 0;
    std::uint32_t bytes = 0;       // bytes the master wants in this transaction
    std::uint32_t dword = 0;       // register value of a single-dword MMIO access
    std::uint64_t tag = 0;         // the master's tag of the request this transaction serves
    // Outcome, filled in by the bus:
    Termination termination = Termination::Completed;
    std::uint32_t bytes_done = 0;
    Picos start = 0;               // first clock of the address phase
    Picos end = 0;                 // first clock the bus is free again
    // For waveform views and explain:
    Picos request = 0;             // REQ# asserted for this transaction (== start: parked)
    Picos devsel = 0;              // first clock of DEVSEL# (the target's claim)
    Picos data_start = 0;          // first data clock (Retry/Split: the clock STOP# is signalled)
    int requester = -1;            // split completion: the master that receives the data
};

// Coherent DMA: the lines after the first of a read that a CPU cache holds modified.  Each is
// supplied by the snoop hit's implicit write-back, one line at a time in order, so it comes
// `delay` later than the memory stream would bring it, and every line after it waits behind it
// (HostBridge::snoop_read).  Line i (counted from the read's first, i >= 1: the first line's
// snoop hit is in its own latency) is bit i - 1 of `lines`; a read covers at most 4096 bytes (a
// delayed read's buffer, host.prefetch_bytes, and a PCI-X byte count), 129 lines of 32 bytes,
// so 128 bits hold every further line exactly.
struct ModifiedLines {
    static constexpr unsigned kMaxLines = 4096 / 32 + 1;
    std::bitset<kMaxLines - 1> lines;
    Picos delay = 0;
    bool any() const { return lines.any(); }
    bool holds(std::uint64_t i) const { return i >= 1 && i < kMaxLines && lines[i - 1]; }
    void set(std::uint64_t i) { lines.set(i - 1); }
    // How much later than the memory stream line i (counted from the read's first) is here:
    // `delay` for each modified line 1..i (the bits below i, shifted to the top, counted).
    Picos until(std::uint64_t i) const {
        if (i == 0 || lines.none()) return 0;
        if (i >= kMaxLines) return lines.count() * delay;
        return (lines << (kMaxLines - 1 - i)).count() * delay;
    }
    bool operator==(const ModifiedLines& o) const { return lines == o.lines && delay == o.delay; }
    bool operator!=(const ModifiedLines& o) const { return !(*this == o); }
};

// A target's answer to a transaction starting at `start` (it must not change its state: the
// transaction may still be cut short; `complete` reports what really happened).
struct TargetOffer {
    enum Kind : std::uint8_t { Data, Retry, Split } kind = Data;
    Devsel devsel = Devsel::Medium;
    unsigned initial_wait_clocks = 0;  // wait states before the first data phase
    // The data (of a Retry: of the repeat it promises, Promise::then_known).
    std::uint32_t max_bytes = 0;       // target disconnects after this many bytes; 0: no limit
    // Data streaming in from memory: the cache line holding the transaction's first byte is at
    // the target at first_line_ready, each further line line_time later; a data phase waits
    // for the line of its last byte.  0, 0: everything is there.
    unsigned line_bytes = 64;
    Picos first_line_ready = 0;
    Picos line_time = 0;
    ModifiedLines modified;  // further lines that come later (coherent DMA)
    // Retry only: what the target promises about the repeats of this transaction: the
    // run-ahead's contract (BusRunAhead, model/platform/bus_run_ahead.h).  A promise changes no
    // timing; it lets the bus run the repeats ahead instead of simulating each one.
    struct Promise {
        // The same Retry, and no change of the target's state in `complete`, to every repeat
        // of this transaction starting before this time; 0: no promise.
        Picos retry_until = 0;
        // Retry of a read the target takes only when this attempt ends (a new delayed read): its
        // data will be there this long after that end, with the same promise; 0: unknown.
        Picos ready_after_end = 0;
        // True if the target can say what the first repeat at or after the promised time gets:
        // data whose first line is there at that time, as max_bytes, line_bytes, line_time and
        // modified above say (devsel too).  A Retry moves no data, so those fields are free to
        // carry the promise's.
        bool then_known = false;
    } promise;
};
// Every offer is built from scratch (default members, then the target's answer): up to 80
// bytes GCC zeroes it with a few vector stores, beyond that with `rep stos`, which cost about 6 %
// of a run's time when the promise carried a second copy of the data fields (seen in perf).
static_assert(sizeof(TargetOffer) <= 80, "TargetOffer grew past 80 bytes: see the comment");

// Per logical request (one read or write a master asked for, however many transactions it
// took): where its time went.  Sums over all of the request's transactions.
struct DmaStats {
    Picos arbitration = 0;   // REQ# asserted until FRAME#
    Picos overhead = 0;      // address/attribute/decode clocks and turnaround
    Picos latency = 0;       // waiting for read data: retries and back-off, split wait
    Picos data = 0;          // data phases, including target wait states
    unsigned transactions = 0;
    unsigned retries = 0;
    unsigned disconnects = 0;
    unsigned preemptions = 0;  // latency timer expiries
    Picos issued = 0;        // when the master asked
    Picos finished = 0;      // when the last byte arrived (read) or crossed the bus (write)
};

// Anything that starts transactions on a segment.
class BusMaster {
public:
    virtual ~BusMaster() = default;
    // Every byte of read `tag` has arrived.  `dword` carries the value of a register read.
    virtual void read_done(std::uint64_t tag, const DmaStats& stats, std::uint32_t dword) = 0;
    // Posted write `tag` has crossed the bus.
    virtual void write_done(std::uint64_t tag, const DmaStats& stats) = 0;
    // PCI-X completer: a split completion of `requester`'s read `tag` has crossed the bus.
    virtual void completion_sent(int /*requester*/, std::uint64_t /*tag*/) {}
};

// Anything that claims transactions on a segment.
class BusTarget {
public:
    virtual ~BusTarget() = default;
    virtual TargetOffer offer(const BusTransaction& t, Picos start) = 0;
    // The transaction is over (see t.termination, t.bytes_done).  For a register read the
    // target puts the value in t.dword.
    virtual void complete(BusTransaction& t) = 0;
};

// How a master is set up on its segment (its configuration-space registers).
struct MasterConfig {
    std::string name;
    unsigned width_bits = 0;            // the master's data path; 0: the bus width
    unsigned latency_timer_clocks = 0;  // 0: the bus default
    unsigned mmrbc_bytes = 512;         // PCI-X maximum memory read byte count
    unsigned max_outstanding_splits = 1;
};

// The master side of a segment as a device sees it (PciBus implements it; tests may fake it).
class BusPort {
public:
    virtual ~BusPort() = default;
    virtual int attach_master(BusMaster* master, const MasterConfig& config) = 0;
    // Positive decode of [base, base+size) to `target` (a device's memory BAR).
    virtual void attach_target(BusTarget* target, std::uint64_t base, std::uint64_t size) = 0;
    // Logical requests; completions come back through the master's BusMaster interface.
    virtual void read(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) = 0;
    virtual void write(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
                       std::uint32_t dword = 0) = 0;
};

// Level-sensitive interrupt line (INTA#) from a device to the CPU.
class InterruptSink {
public:
    virtual ~InterruptSink() = default;
    virtual void set_interrupt(bool asserted) = 0;
    // The device's promise, or its withdrawal: the line stays deasserted until software writes
    // the device's interrupt registers (nothing it can raise is unmasked).
    virtual void set_line_quiet(bool) {}
};

}  // namespace pcisim
