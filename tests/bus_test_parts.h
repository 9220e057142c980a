// Small masters and targets for pinning bus timing in tests.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "platform/memory_path.h"
#include "platform/pci_bus.h"
#include "core/sim_time.h"

namespace pcisim::test {

// Records every completion; optionally issues requests at given times.
struct RecordingMaster : sc_core::sc_module, BusMaster {
    struct Done { std::uint64_t tag; Picos when; DmaStats stats; std::uint32_t dword; bool read; };
    std::vector<Done> done;
    BusPort& bus;
    int id;
    SC_HAS_PROCESS(RecordingMaster);
    RecordingMaster(sc_core::sc_module_name n, BusPort& b, MasterConfig c = {})
        : sc_core::sc_module(n), bus(b) {
        c.name = name();
        id = bus.attach_master(this, c);
    }
    void read_done(std::uint64_t tag, const DmaStats& s, std::uint32_t dword) override {
        done.push_back({tag, now_ps(), s, dword, true});
    }
    void write_done(std::uint64_t tag, const DmaStats& s) override {
        done.push_back({tag, now_ps(), s, 0, false});
    }
};

// A target that always answers with the same offer and remembers what it saw.
struct FixedTarget : BusTarget {
    TargetOffer answer;
    std::vector<BusTransaction> seen;
    std::uint32_t read_value = 0;
    TargetOffer offer(const BusTransaction&, Picos) override { return answer; }
    void complete(BusTransaction& t) override {
        if (t.command == BusCommand::MemRead) t.dword = read_value;
        seen.push_back(t);
    }
};

// Host memory that answers every read after a fixed time and commits writes at once.
struct FixedLatencyMemory : MemoryPath {
    Picos latency;
    explicit FixedLatencyMemory(Picos l) : latency(l) {}
    Picos read_time(std::uint64_t, std::uint32_t) const override { return latency; }
    void posted_write(std::uint64_t, std::uint32_t, Picos) override {}
    Picos read_start(Picos at) const override { return at; }
    Picos read_jitter(std::uint64_t) const override { return 0; }
};

// Collects every transaction the bus finishes.
struct TransactionLog {
    std::vector<BusTransaction> all;
    static void record(void* self, const BusTransaction& t) {
        static_cast<TransactionLog*>(self)->all.push_back(t);
    }
    void attach(PciBus& bus) { bus.set_transaction_observer(&TransactionLog::record, this); }
};

// Runs `fn` at simulated time `at` (for requests that arrive mid-transaction).
struct At : sc_core::sc_module {
    std::function<void()> fn;
    sc_core::sc_event ev;
    SC_HAS_PROCESS(At);
    At(sc_core::sc_module_name n, Picos at, std::function<void()> f)
        : sc_core::sc_module(n), fn(std::move(f)) {
        SC_METHOD(fire);
        sensitive << ev;
        dont_initialize();
        ev.notify(ps(at));
    }
    void fire() { fn(); }
};

inline BusConfig bus_config(BusKind kind, unsigned width, double mhz) {
    BusConfig c;
    c.kind = kind;
    c.width_bits = width;
    c.clock_mhz = mhz;
    return c;
}

// A segment whose first MiB a FixedTarget claims with this DEVSEL timing.
struct BusWithTarget {
    PciBus bus;
    FixedTarget target;
    BusWithTarget(BusKind kind, unsigned width, double mhz, Devsel devsel = Devsel::Fast)
        : bus("bus", bus_config(kind, width, mhz)) {
        target.answer.devsel = devsel;
        bus.attach_target(&target, 0, 1 << 20);
    }
};

}  // namespace pcisim::test
