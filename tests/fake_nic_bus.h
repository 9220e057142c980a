// A bus for testing the e1000 alone (tests/test_e1000.cpp, test_e1000_rx.cpp): DMA reads and
// writes complete after fixed delays and are logged; register accesses are handed to the NIC's
// BAR directly, as a bus would complete them.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include <systemc>

#include "core/pci_types.h"
#include "core/sim_time.h"

namespace pcisim::test {

struct FakeBusTiming {
    Picos read_delay = ns_to_ps(600);
    Picos read_per_byte = ns_to_ps(7.5);
    Picos write_delay = ns_to_ps(200);
    // false: each write completes write_delay after it is issued; true: in order, each
    // write_delay after the one before (one engine, one bus).
    bool writes_in_order = false;
};

class FakeBus : public sc_core::sc_module, public BusPort {
public:
    struct Access {
        bool read;
        std::uint64_t addr;
        std::uint32_t bytes;
        Picos issued;
    };
    Picos read_delay, read_per_byte, write_delay;
    bool writes_in_order;
    std::vector<Access> log;
    std::function<void(const Access&)> on_access;
    unsigned outstanding_reads = 0, max_outstanding_reads = 0;
    // Reads in flight by port, as port_of tells a read's port from its address.
    std::function<unsigned(std::uint64_t addr)> port_of = [](std::uint64_t) { return 0u; };
    unsigned port_reads[2] = {0, 0}, max_port_reads[2] = {0, 0};
    MasterConfig master_config;

    explicit FakeBus(sc_core::sc_module_name n, const FakeBusTiming& t = FakeBusTiming{})
        : sc_module(n),
          read_delay(t.read_delay),
          read_per_byte(t.read_per_byte),
          write_delay(t.write_delay),
          writes_in_order(t.writes_in_order) {
        SC_HAS_PROCESS(FakeBus);
        SC_METHOD(fire);
        sensitive << wake_;
        dont_initialize();
    }
    int attach_master(BusMaster* m, const MasterConfig& c) override {
        master_ = m;
        master_config = c;
        return 0;
    }
    void attach_target(BusTarget* t, std::uint64_t base, std::uint64_t size) override {
        target_ = t, base_ = base, size_ = size;
    }
    void read(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) override {
        record({true, addr, bytes, now_ps()});
        max_outstanding_reads = std::max(max_outstanding_reads, ++outstanding_reads);
        unsigned port = port_of(addr);
        max_port_reads[port] = std::max(max_port_reads[port], ++port_reads[port]);
        schedule(now_ps() + read_delay + bytes * read_per_byte, {true, tag, port});
    }
    void write(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
               std::uint32_t) override {
        record({false, addr, bytes, now_ps()});
        Picos done = now_ps() + write_delay;
        if (writes_in_order) done = last_write_ = std::max(last_write_, now_ps()) + write_delay;
        schedule(done, {false, tag, 0});
    }
    void mmio_write(std::uint32_t offset, std::uint32_t v) {
        BusTransaction t;
        t.command = BusCommand::MemWrite;
        t.addr = base_ + offset;
        t.bytes = t.bytes_done = 4;
        t.dword = v;
        target_->complete(t);
    }
    std::uint32_t mmio_read(std::uint32_t offset) {
        BusTransaction t;
        t.command = BusCommand::MemRead;
        t.addr = base_ + offset;
        t.bytes = t.bytes_done = 4;
        target_->complete(t);
        return t.dword;
    }
    std::uint64_t bar_size() const { return size_; }
    // The writes into [from, to): their sizes, in order.
    std::vector<std::uint32_t> writes_in(std::uint64_t from, std::uint64_t to) const {
        std::vector<std::uint32_t> out;
        for (const Access& a : log)
            if (!a.read && a.addr >= from && a.addr < to) out.push_back(a.bytes);
        return out;
    }

private:
    struct Op {
        bool read;
        std::uint64_t tag;
        unsigned port;
    };
    void record(const Access& a) {
        log.push_back(a);
        if (on_access) on_access(a);
    }
    void schedule(Picos due, Op op) {
        due_.emplace(due, op);
        wake_.notify(ps(due_.begin()->first - now_ps()));
    }
    void fire() {
        while (!due_.empty() && due_.begin()->first <= now_ps()) {
            Op op = due_.begin()->second;
            due_.erase(due_.begin());
            DmaStats s;
            s.finished = now_ps();
            s.transactions = 1;
            if (op.read) {
                --outstanding_reads;
                --port_reads[op.port];
                master_->read_done(op.tag, s, 0);
            } else {
                master_->write_done(op.tag, s);
            }
        }
        if (!due_.empty()) wake_.notify(ps(due_.begin()->first - now_ps()));
    }
    BusMaster* master_ = nullptr;
    BusTarget* target_ = nullptr;
    std::uint64_t base_ = 0, size_ = 0;
    Picos last_write_ = 0;
    std::multimap<Picos, Op> due_;
    sc_core::sc_event wake_;
};

// An interrupt line that records each change and when.
class LineRecorder : public InterruptSink {
public:
    std::vector<std::pair<bool, Picos>> changes;
    void set_interrupt(bool a) override { changes.emplace_back(a, now_ps()); }
};

}  // namespace pcisim::test
