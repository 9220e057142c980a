// A host CPU's cache as the software's data sees it: set-associative, LRU, write-back, each line
// in a coherence state (MESI or MOESI, platform/cache_coherence.h moves lines between CPUs).  It
// holds what pktgen and the driver touch (skb heads and buffers, descriptors, the driver's ring
// state).  The host bridge snoops it for each DMA read: a line modified here (M, or O under
// MOESI) is supplied by the cache (a snoop hit, host.snoop_hit_ns) and is clean afterwards
// (the bridge writes it to memory as it forwards it); a DMA write invalidates the lines it covers.
//
// Time order: the CPU runs ahead of the kernel's time, the bridge asks at the kernel's time.  So
// a line remembers since when it is modified (the CPU time of the write that dirtied it) and
// until when (the read that wrote it back): a read asked for at `at` finds it modified only if
// the CPU wrote it by then, and a repeated question about the same read gets the same answer.
#pragma once

#include <string>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/pci_types.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> cpu_cache_params();  // cpu.cache.*

// cpu.cache.* (cpu_params() lists them); bytes == 0: no cache model (touches cost nothing).
struct CpuCacheConfig {
    enum class Protocol { Mesi, Moesi };
    std::uint64_t bytes = 0;
    unsigned line_bytes = 64;   // the host's cache line
    unsigned ways = 16;
    bool shared = false;        // one cache for all CPUs (else one each)
    Picos miss_ps = 0;          // CPU time per line missed (from memory)
    // Between CPUs (platform/cache_coherence.h): the protocol, a line another CPU holds
    // modified (cache to cache), and a write to a line other CPUs hold (their copies invalidated).
    Protocol protocol = Protocol::Mesi;
    Picos transfer_ps = 0;
    Picos invalidate_ps = 0;
    // A miss from memory brings the whole sector (the Pentium 4's L2: two 64-byte lines);
    // the line size or 0 when sectors are lines.
    unsigned sector_bytes = 0;
    bool enabled() const { return bytes != 0; }
    static CpuCacheConfig from(const ScenarioView& s);
};

class CpuCache {
public:
    // I: not here; S: a clean copy others may share; E: the only copy, clean; O (MOESI): a
    // dirty copy others share, this cache answers for it; M: the only copy, dirty.
    enum class State : std::uint8_t { Invalid, Shared, Exclusive, Owned, Modified };

    explicit CpuCache(const CpuCacheConfig& config);
    // log2 of a line size (lines are found by a shift); throws unless a power of two.
    static unsigned line_shift(unsigned line_bytes);

    // The host bridge's snoop for a DMA read asked for at `at`: is the line holding addr
    // modified here then?
    bool modified_at(std::uint64_t addr, Picos at) const;
    // A DMA read asked for at `at` took [addr, addr+bytes): the lines modified then are
    // written back (clean from then on).
    void written_back(std::uint64_t addr, std::uint32_t bytes, Picos at);
    // A DMA write of [addr, addr+bytes): the cache drops those lines.
    void invalidate(std::uint64_t addr, std::uint32_t bytes);

    // What the coherence domain asks and changes, by line number (addr / line_bytes).
    State state(std::uint64_t line_number) const;
    // The CPU uses the line if it holds it (LRU order; a write makes it M, dirty since `at`):
    // its state before, or Invalid (and nothing done) when it does not hold it.
    // Inline: the common case of every touch.
    State use_if_held(std::uint64_t line_number, bool write, Picos at) {
        Line* l = find(line_number);
        if (!l) return State::Invalid;
        const State before = l->state();
        l->used(++use_clock_);
        if (!write) return before;
        // A write dirties a clean line from now on; a line already modified stays so since then.
        if (!dirty(*l)) {
            l->modified_since = at;
            l->modified_until = kNever;
        }
        l->set_state(State::Modified);
        return before;
    }
    // The line comes in (the set's LRU victim goes out) in `state`, dirty since `at` if M.
    void fill(std::uint64_t line_number, State state, Picos at);
    // Another CPU read the line: M becomes S (MESI: written back by the transfer, at `at`) or O
    // (MOESI: still dirty, this cache answers for it); E becomes S.
    void share(std::uint64_t line_number, Picos at);
    // Another CPU writes the line: this copy goes.
    void drop(std::uint64_t line_number);

    struct Counters {
        std::uint64_t hits = 0, misses = 0, evictions_modified = 0, snoop_hits = 0;
    };
    const Counters& counters() const { return counters_; }
    Counters& counters() { return counters_; }
    void reset_counters() { counters_ = Counters{}; }
    const CpuCacheConfig& config() const { return config_; }

private:
    static constexpr Picos kNever = std::numeric_limits<Picos>::max();
    // No line: the tag of an invalid way (line numbers are addresses shifted right, never this).
    static constexpr std::uint64_t kNoLine = std::numeric_limits<std::uint64_t>::max();
    // A way's state; its line number is in tags_ (the lookup scans only the tags).  24 bytes,
    // the state packed with the LRU order: the arrays are written whole at construction and
    // their pages were a sixth of a freshly forked sweep worker's page faults.
    struct Line {
        Picos modified_since = kNever; // CPU time of the write that dirtied it
        Picos modified_until = kNever; // the DMA read (or MESI transfer) that wrote it back
        // The LRU order (use_clock_, from 1) above the state's low 8 bits: 0 exactly while
        // invalid, so the least in a set is the first free way, else the least recently used.
        // (56 bits of order: 7e16 touches, centuries of simulation.)
        std::uint64_t order = 0;
        State state() const { return static_cast<State>(order & 0xff); }
        void set_state(State s) {
            order = (order & ~std::uint64_t{0xff}) | static_cast<std::uint8_t>(s);
        }
        void used(std::uint64_t clock) { order = clock << 8 | (order & 0xff); }
    };
    static_assert(sizeof(Line) == 24, "a line's state and order share one word");
    // Inline: every touch and every snooped line looks up its line.  The way the set's last
    // lookup found is tried first: touches come back to the line they just used, and the scan
    // it saves exits wherever in the set a line happens to sit, which a branch predictor
    // cannot learn.
    Line* find(std::uint64_t line_number) {
        const std::size_t set = line_number & (sets_ - 1), first = set * config_.ways;
        const std::uint64_t* tag = &tags_[first];
        const unsigned hint = last_found_[set];
        if (tag[hint] == line_number) return &lines_[first + hint];
        for (unsigned w = 0, used = ways_used_[set]; w < used; ++w)
            if (tag[w] == line_number) {
                last_found_[set] = static_cast<std::uint16_t>(w);
                return &lines_[first + w];
            }
        return nullptr;
    }
    const Line* find(std::uint64_t line_number) const {
        return const_cast<CpuCache*>(this)->find(line_number);
    }
    void clear(Line& line) {
        tags_[static_cast<std::size_t>(&line - lines_.data())] = kNoLine;
        line = Line{};
    }
    bool modified(const Line& l, Picos at) const {
        return l.modified_since <= at && at <= l.modified_until;
    }
    // Dirty from now on: M or O and not yet written back.
    static bool dirty(const Line& l) {
        return l.modified_since != kNever && l.modified_until == kNever;
    }

    CpuCacheConfig config_;
    unsigned sets_;
    unsigned line_shift_ = 0;            // log2 of config_.line_bytes
    std::vector<std::uint64_t> tags_;    // sets_ x ways: the line number held, or kNoLine
    // Per set, the ways a lookup scans: one past the highest way ever filled (a fill takes the
    // first free way, so a set's lines sit at its front and an empty set costs no compare).
    std::vector<std::uint16_t> ways_used_;
    // Per set, the way find() last found a line in: where it looks first (a hint, not state).
    mutable std::vector<std::uint16_t> last_found_;
    std::vector<Line> lines_;            // sets_ x ways
    std::uint64_t use_clock_ = 0;
    Counters counters_;
};

}  // namespace pcisim
