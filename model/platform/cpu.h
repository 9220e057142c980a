// A host CPU running pktgen and the e1000 driver as ordinary C++.
//
// The software charges cycles for the code paths it runs (the costs are scenario parameters);
// the CPU turns them into simulated time lazily and only waits when it must look at the world
// (an interrupt or timer check) or for a register read's value, so one packet costs about one
// SystemC context switch.  Register accesses leave at the CPU's own time (now() may be ahead of
// the kernel's); reads stall the CPU for the whole round trip.  Interrupts and timers are taken
// between packets (at the next sync point), as a level-triggered line.
//
// Running ahead (allow_run_ahead): when nothing could tell the difference, the CPU does not wait
// between iterations at all and runs on ahead of the kernel's time, as far as the horizon (the
// next time the simulation looks at counters); platform/cpu_run_ahead.h holds the rule.  One
// context switch per packet fewer.
#pragma once

#include <string>

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "core/line_use.h"
#include "platform/cache_coherence.h"
#include "platform/cpu_run_ahead.h"
#include "platform/memory_path.h"
#include "core/pci_types.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> cpu_params();  // cpu.* but the cache
std::vector<ParamSpec> kernel_params();  // kernel.*
class HostBridge;
class HostMemory;

// The software a CPU runs: its process-context loop and its interrupt and timer handlers.
class CpuSoftware {
public:
    virtual ~CpuSoftware() = default;
    virtual void start() = 0;           // once, at time zero (driver set-up)
    virtual bool has_work() const = 0;  // false while blocked (queue stopped, count reached)
    virtual void run_once() = 0;        // one iteration of the process-context loop
    virtual void interrupt() = 0;       // the device's interrupt handler (and its softirq)
    virtual void timer() = 0;           // the periodic driver timer
    // Whether a tick of this CPU finds a timer to run (platform/kernel_timer.h: a timer is
    // queued on one CPU's base); the tick costs nothing when none is.
    virtual bool timer_due() const { return true; }
    // Whether the next run_once only writes memory the device reads after being told (through
    // a register write that carries its time), writes no interrupt register and reads nothing a
    // device writes, and the software never unmasks a cause the device raises by itself (so no
    // earlier register write still on its way can withdraw the device's promise of a quiet
    // line): the CPU may then run it before simulated time has caught up.
    virtual bool quiet() const { return false; }
};

// cpu.*: the clock and the cycles per code path (cpu.cycles.*); cpu_params() says what each
// covers.
struct CpuCosts {
    double clock_mhz = 2400;
    double pktgen_loop_cycles = 150, skb_alloc_cycles = 300, skb_fill_cycles_per_byte = 0.1,
           xmit_frame_cycles = 400, per_descriptor_cycles = 50, clean_per_packet_cycles = 100,
           skb_free_cycles = 150, poll_cycles = 400, interrupt_entry_exit_cycles = 1000,
           timer_tick_cycles = 500, slab_batch_cycles = 0, copy_cycles_per_byte = 1,
           context_descriptor_cycles = 150;
    // A lock-prefixed instruction's cost over the plain one (an SMP kernel's atomics and spin
    // locks; model/platform/cpu.h Cpu::locked_instruction).
    double locked_op_cycles = 0;
    // One turn of a spin loop on a held lock (pause and a re-read of the lock's line).
    double spin_cycles = 50;
    // The receive path (model/software/e1000_rx_driver.h).
    double clean_rx_per_packet_cycles = 200, rx_stack_per_packet_cycles = 2000,
           rx_refill_per_buffer_cycles = 100, rx_forward_per_packet_cycles = 1000;
    Picos mmio_write_ps = 50000;          // CPU time to issue a posted register write
    Picos interrupt_latency_ps = 500000;  // INTA# to the handler starting (APIC delivery)
    static CpuCosts from(const ScenarioView& s);
};

// kernel.*: the kernel the CPUs run.  An SMP kernel prefixes its atomic operations with lock and
// takes its spin locks with locked instructions (include/asm-i386/atomic.h: LOCK is "lock ; "
// on SMP, "" on UP; a UP kernel compiles spin locks away, include/linux/spinlock.h); maxcpus=N
// brings up only the first N CPUs.
struct KernelConfig {
    bool smp = true;
    unsigned maxcpus = 0;  // 0: every CPU the machine has
    unsigned cpus = 0;     // cpu.count: the machine's CPUs; 0: as many as the placement uses
    // The CPUs the kernel runs on (a UP kernel uses one); 0 when nothing limits them.
    unsigned online() const {
        if (!smp) return 1;
        if (maxcpus && (cpus == 0 || maxcpus < cpus)) return maxcpus;
        return cpus;
    }
    static KernelConfig from(const ScenarioView& s);
};

class Cpu : public sc_core::sc_module, public InterruptSink, public MmioClient {
public:
    SC_HAS_PROCESS(Cpu);
    Cpu(sc_core::sc_module_name name, const CpuCosts& costs, HostBridge& host,
        HostMemory& memory);
    ~Cpu() override;  // no longer current(): the next simulation of the process has its own

    void run(CpuSoftware* software, Picos timer_period);  // before sc_start
    // The CPU whose software is running now (the kernel's smp_processor_id()): each CPU is one
    // SystemC thread, and a thread runs until it waits, so it is the CPU that last resumed.
    // Only from software a CPU runs.
    static Cpu& current() {
        if (!running_) no_cpu_running();
        return *running_;
    }
    // Only when this CPU is the only one handing register accesses to the host bridge (their
    // order of arrival must be the order they are handed over in) and no recording watches.
    void allow_run_ahead(bool on) { run_ahead_.allow(on); }
    void set_horizon(Picos t) { run_ahead_.set_horizon(t); }  // the next time the simulation looks
    // Called each time this CPU's thread goes on after a wait, before its software touches the
    // caches: the buses run the steps they held back before now (PciBus::settle), which snoop
    // and write back the lines the software may touch next.
    void set_before_running(std::function<void()> fn) { before_running_ = std::move(fn); }
    // The kernel time before which this CPU's software certainly runs nothing (touches no cache
    // line): the end of the cycles it is waiting out; with nothing to do, the timer or an
    // interrupt raised now, whichever comes first (on a machine with other CPUs, which may wake
    // it, now); now while it runs or waits for a register read's value.
    Picos idle_until() const;

    // The hardware access layer the software uses.
    void charge(double cycles) { pending_ += static_cast<Picos>(cycles * cycle_ps_ + 0.5); }
    // The software reads or writes [addr, addr+bytes) of host memory, which holds `use`: what
    // the caches make of it (a miss costs cpu.cache.miss_ns, a line from another CPU's cache
    // cpu.cache.transfer_ns, platform/cache_coherence.h).  Nothing without a cache model.
    void touch(std::uint64_t addr, std::uint32_t bytes, bool write, LineUse use = LineUse::Other) {
        if (caches_) touch_at(addr, bytes, write, now(), use);
    }
    void count_slab_batches(std::uint64_t n) { totals_.slab_batches += n; }
    // One locked instruction (an atomic read-modify-write, a spin lock taken): its cost on an
    // SMP kernel; a UP kernel has none.  The line it works on is the software's touch.
    void locked_instruction() {
        if (!smp_kernel_) return;
        ++totals_.locked_ops;
        charge(costs_.locked_op_cycles);
    }
    void set_kernel(const KernelConfig& kernel) { smp_kernel_ = kernel.smp; }  // before sc_start
    bool smp_kernel() const { return smp_kernel_; }
    // One turn of a spin loop on a lock another CPU holds, whose line is at `lock_addr` and
    // holds `use`: a re-read of the line and cpu_relax; the time passes busy and the other CPUs
    // run meanwhile (SpinLock::lock).
    void spin_turn(std::uint64_t lock_addr, LineUse use);
    // A shortcut (Simulation::take_shortcuts): the turns that end before any other CPU can next
    // run find the lock as it is, so they are waited out at once.  `others_quiet_until`: the
    // kernel time before which no other CPU's thread runs (Cpu::idle_until of each).
    void fold_spin_turns(std::function<Picos()> others_quiet_until) {
        others_quiet_until_ = std::move(others_quiet_until);
    }
    // The machine's caches and this CPU's number among them; before sc_start.
    void use_caches(CacheCoherence& caches, unsigned cpu) {
        caches_ = &caches;
        cache_cpu_ = cpu;
    }
    const CacheCoherence* caches() const { return caches_; }
    void mmio_write(std::uint64_t addr, std::uint32_t value);
    std::uint32_t mmio_read(std::uint64_t addr);
    HostMemory& memory() { return memory_; }
    const CpuCosts& costs() const { return costs_; }
    Picos now() const;  // simulated time including cycles charged but not yet waited for
    // Waits out the cycles charged so far, so that what the software reads next in host memory
    // is what devices have written by its own time (a NAPI poll that runs again).
    void catch_up() { sync(); }
    // A long kernel loop (a clean of many packets) on a machine with more than one CPU: wait out
    // the cycles charged so far, so that the other CPUs' work interleaves with it in simulated
    // time (and their touches of the same lines with its own).  Nothing on a machine with one.
    void let_others_run() {
        if (other_cpus_) sync();
    }
    void set_other_cpus(bool any) { other_cpus_ = any; }  // before sc_start
    // The memory node behind this CPU (NUMA: host.numa_nodes), where its slab pages come from.
    unsigned node() const { return node_; }
    void set_node(unsigned node) { node_ = node; }  // before sc_start

    // Another CPU made work for this one's threads at that CPU's time `at` (it woke a queue
    // this CPU's pktgen spins on): this CPU looks again then.
    void work_arrives(Picos at);

    void set_interrupt(bool asserted) override;
    void set_line_quiet(bool quiet) override { run_ahead_.set_line_quiet(quiet); }
    void mmio_read_done(std::uint64_t tag, std::uint32_t value) override;

    struct Totals {
        Picos busy = 0;        // running code
        Picos mmio_stall = 0;  // stalled on register reads
        Picos waiting = 0;     // nothing to do (pktgen spinning on a stopped queue)
        std::uint64_t mmio_reads = 0, mmio_writes = 0, interrupts = 0, timer_ticks = 0;
        std::uint64_t cache_misses = 0;  // lines the software touched that were not cached
        std::uint64_t slab_batches = 0;  // slab array refills and flushes its software made
        std::uint64_t locked_ops = 0;    // locked instructions (an SMP kernel's)
        Picos lock_spin = 0;             // spinning on locks other CPUs held (part of busy)
    };
    // Since reset_totals, clipped to it and to now: a wait or a register read that began before
    // counts from the reset on, and code charged past now counts up to now, so that no share
    // of a window is above 1.
    Totals totals() const;
    void reset_totals();

private:
    void main_loop();
    // After every wait of this CPU's thread: it runs, and what the buses held back before now
    // comes first (set_before_running).
    void resumed() {
        running_ = this;
        if (before_running_) before_running_();
    }
    [[noreturn]] static void no_cpu_running();
    void touch_at(std::uint64_t addr, std::uint32_t bytes, bool write, Picos at, LineUse use) {
        const std::uint64_t misses = caches_->counters(cache_cpu_).misses;
        pending_ += caches_->touch(cache_cpu_, addr, bytes, write, at, use);
        totals_.cache_misses += caches_->counters(cache_cpu_).misses - misses;
    }
    void sync();              // wait out the cycles charged so far
    void service_events();    // take a due interrupt or timer tick
    bool interrupt_due() const;
    void check_stall();       // SC_METHOD: a register read outstanding for 1 ms is an error

    static Cpu* running_;
    CpuCosts costs_;
    double cycle_ps_;
    HostBridge& host_;
    unsigned host_port_;  // the number its register accesses carry (HostBridge::attach_cpu)
    HostMemory& memory_;
    bool smp_kernel_ = true;
    bool other_cpus_ = false;
    unsigned node_ = 0;
    CacheCoherence* caches_ = nullptr;
    unsigned cache_cpu_ = 0;
    CpuSoftware* software_ = nullptr;
    Picos timer_period_ = 0, next_timer_ = 0;
    Picos pending_ = 0;
    bool line_ = false;          // INTA# as the CPU sees it
    CpuRunAhead run_ahead_;
    Picos line_visible_at_ = 0;  // after the interrupt delivery latency
    bool read_done_ = false;
    bool reading_ = false;             // a register read is outstanding ...
    std::uint64_t read_addr_ = 0;      // ... of this register
    Picos read_start_ = 0;             // ... since then
    bool stall_check_armed_ = false;
    std::uint32_t read_value_ = 0;
    Totals totals_;
    Picos counted_from_ = 0;  // the last reset_totals
    Picos busy_until_ = 0;    // the end of the last code time added to totals_.busy
    // What the CPU's thread waits for: nothing (it runs), the end of its cycles (busy_until_),
    // or work (the timer at idle_timeout_ at the latest).
    enum class Waiting { No, Cycles, Work } waiting_ = Waiting::No;
    Picos idle_timeout_ = 0;
    std::function<void()> before_running_;
    std::function<Picos()> others_quiet_until_;  // fold_spin_turns
    sc_core::sc_event wake_event_{"wake"}, read_event_{"read"}, stall_check_{"stall_check"};
};

}  // namespace pcisim
