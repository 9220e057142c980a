#include "platform/cpu.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "platform/host_bridge.h"
#include "core/invariants.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim {

namespace {
// A register read not answered within 1 ms of simulated time never will be (a round trip is
// about a microsecond): the CPU would stall forever.
constexpr Picos kMmioReadLimit = 1'000'000'000;

std::string hex(std::uint64_t v) {
    std::ostringstream o;
    o << std::hex << v;
    return o.str();
}
}  // namespace

std::vector<ParamSpec> cpu_params() {
    return {
        number("cpu.clock_mhz", "MHz", 2400, 100, 10000, "Core clock of the CPU(s) running "
                                                       "pktgen and the driver."),
        number("cpu.cycles.pktgen_loop", "cycles", 150, 0, 1e6,
               "pktgen's per-packet loop: queue check, counters, locking the device."),
        number("cpu.cycles.skb_alloc", "cycles", 300, 0, 1e6,
               "Allocating a fresh skb (clone_skb 0) and writing its headers."),
        number("cpu.cycles.skb_fill_per_byte", "cycles/byte", 0.1, 0, 100,
               "Building a fresh skb, per byte of the frame: a small allowance "
               "(the 2004 pktgen writes only the headers and leaves the payload as the slab "
               "had it)."),
        number("cpu.cycles.xmit_frame", "cycles", 400, 0, 1e6,
               "e1000_xmit_frame: locks, descriptor count, ring-space check, tx_map, tx_queue."),
        number("cpu.cycles.per_descriptor", "cycles", 50, 0, 1e6,
               "Filling one more descriptor (DMA mapping, buffer_info)."),
        number("cpu.cycles.clean_per_packet", "cycles", 100, 0, 1e6,
               "clean_tx: checking DD, unmapping and clearing a packet's descriptors."),
        number("cpu.cycles.skb_free", "cycles", 150, 0, 1e6,
               "Freeing an skb that is not reused (clone_skb 0)."),
        number("cpu.cycles.poll", "cycles", 400, 0, 1e6,
               "NAPI poll / interrupt-handler bookkeeping, besides register accesses."),
        number("cpu.cycles.interrupt_entry_exit", "cycles", 1000, 0, 1e6,
               "Interrupt entry and exit (vector, save/restore, EOI, softirq dispatch)."),
        number("cpu.cycles.timer_tick", "cycles", 500, 0, 1e6,
               "A driver timer firing (besides its register accesses)."),
        number("cpu.cycles.copy_per_byte", "cycles/byte", 1, 0, 100,
               "driver.copy: copying a packet into its descriptor's static buffer, per byte."),
        number("cpu.cycles.context_descriptor", "cycles", 150, 0, 1e6,
               "e1000_tso / e1000_tx_csum when they write a context descriptor: the header "
               "offsets, (TSO) the IP and TCP header fields reset for the NIC, the descriptor."),
        number("cpu.cycles.clean_rx_per_packet", "cycles", 200, 0, 1e6,
               "clean_rx_irq: checking DD, unmapping, the length and error checks of a frame."),
        number("cpu.cycles.rx_stack_per_packet", "cycles", 2000, 0, 1e7,
               "netif_receive_skb and the protocol work of a received frame (driver.rx_mode "
               "stack)."),
        number("cpu.cycles.rx_forward_per_packet", "cycles", 1000, 0, 1e7,
               "The IP forwarding path of a received frame before the driver transmits it "
               "(driver.rx_mode forward): netif_receive_skb, ip_rcv, the route lookup, "
               "ip_forward and dev_queue_xmit, without the driver's own xmit_frame."),
        number("cpu.cycles.rx_refill_per_buffer", "cycles", 100, 0, 1e6,
               "alloc_rx_buffers per buffer besides the skb allocation: DMA mapping, the "
               "descriptor's address."),
        number("cpu.cycles.locked_op", "cycles", 0, 0, 10000,
               "A lock-prefixed read-modify-write (atomic_inc, atomic_dec_and_test, "
               "test_and_set_bit, spin_trylock's xchg) over the same instruction without lock, "
               "on a line already in the cache: what an SMP kernel pays per locked "
               "instruction (kernel.smp); a line another CPU holds costs its transfer on top."),
        number("cpu.cycles.spin", "cycles", 50, 1, 10000,
               "One turn of a spin loop on a lock another CPU holds (rep; nop and a re-read of "
               "the lock's line): how often a spinning CPU looks again."),
        number("cpu.mmio_write_ns", "ns", 50, 0, 10000,
               "CPU time to issue a posted (uncached) register write."),
        number("cpu.interrupt_latency_ns", "ns", 500, 0, 100000,
               "INTA# assertion to the interrupt handler starting (I/O APIC delivery)."),
    };
}

std::vector<ParamSpec> kernel_params() {
    return {
        boolean("kernel.smp", true,
                "An SMP kernel: atomic operations and spin locks use locked instructions "
                "(cpu.cycles.locked_op each). false: a UP kernel, which runs on one CPU and "
                "compiles spin locks away."),
        integer("cpu.count", "CPUs", 0, 0, 16,
                "CPUs the machine has (a dual board: 2); the kernel runs on kernel.maxcpus of "
                "them, one with kernel.smp false. 0: as many as the placement uses (pktgen.cpus, "
                "irq.affinity, driver.cleanup_timer_cpu)."),
        integer("kernel.maxcpus", "CPUs", 0, 0, 16,
                "The maxcpus= boot option: the kernel brings up only this many CPUs (an SMP "
                "kernel with maxcpus=1 runs on one CPU and still pays for its locked "
                "instructions); 0: every CPU."),
    };
}

KernelConfig KernelConfig::from(const ScenarioView& s) {
    KernelConfig k;
    k.smp = s.boolean("kernel.smp");
    k.maxcpus = static_cast<unsigned>(s.integer("kernel.maxcpus"));
    k.cpus = static_cast<unsigned>(s.integer("cpu.count"));
    return k;
}

CpuCosts CpuCosts::from(const ScenarioView& s) {
    CpuCosts c;
    c.clock_mhz = s.number("cpu.clock_mhz");
    c.pktgen_loop_cycles = s.number("cpu.cycles.pktgen_loop");
    c.skb_alloc_cycles = s.number("cpu.cycles.skb_alloc");
    c.skb_fill_cycles_per_byte = s.number("cpu.cycles.skb_fill_per_byte");
    c.xmit_frame_cycles = s.number("cpu.cycles.xmit_frame");
    c.per_descriptor_cycles = s.number("cpu.cycles.per_descriptor");
    c.clean_per_packet_cycles = s.number("cpu.cycles.clean_per_packet");
    c.skb_free_cycles = s.number("cpu.cycles.skb_free");
    c.poll_cycles = s.number("cpu.cycles.poll");
    c.interrupt_entry_exit_cycles = s.number("cpu.cycles.interrupt_entry_exit");
    c.timer_tick_cycles = s.number("cpu.cycles.timer_tick");
    c.slab_batch_cycles = s.number("cpu.cycles.slab_batch");
    c.copy_cycles_per_byte = s.number("cpu.cycles.copy_per_byte");
    c.context_descriptor_cycles = s.number("cpu.cycles.context_descriptor");
    c.locked_op_cycles = s.number("cpu.cycles.locked_op");
    c.spin_cycles = s.number("cpu.cycles.spin");
    c.clean_rx_per_packet_cycles = s.number("cpu.cycles.clean_rx_per_packet");
    c.rx_stack_per_packet_cycles = s.number("cpu.cycles.rx_stack_per_packet");
    c.rx_refill_per_buffer_cycles = s.number("cpu.cycles.rx_refill_per_buffer");
    c.rx_forward_per_packet_cycles = s.number("cpu.cycles.rx_forward_per_packet");
    c.mmio_write_ps = ns_to_ps(s.number("cpu.mmio_write_ns"));
    c.interrupt_latency_ps = ns_to_ps(s.number("cpu.interrupt_latency_ns"));
    return c;
}

Cpu::Cpu(sc_core::sc_module_name name, const CpuCosts& costs, HostBridge& host,
         HostMemory& memory)
    : sc_core::sc_module(name),
      costs_(costs),
      cycle_ps_(1e6 / costs_.clock_mhz),
      host_(host),
      host_port_(host.attach_cpu()),
      memory_(memory) {
    SC_THREAD(main_loop);
    SC_METHOD(check_stall);
    sensitive << stall_check_;
    dont_initialize();
}

void Cpu::run(CpuSoftware* software, Picos timer_period) {
    software_ = software;
    timer_period_ = timer_period;
    next_timer_ = timer_period;
}

Cpu* Cpu::running_ = nullptr;

Cpu::~Cpu() {
    if (running_ == this) running_ = nullptr;
}

void Cpu::no_cpu_running() {
    throw std::logic_error("Cpu::current(): no CPU's software is running");
}

Picos Cpu::now() const { return now_ps() + pending_; }

Picos Cpu::idle_until() const {
    switch (waiting_) {
    case Waiting::Cycles:
        return busy_until_;
    case Waiting::Work:
        // An interrupt raised now is seen interrupt_latency_ps later (set_interrupt).
        return other_cpus_ ? now_ps()
                           : std::min(idle_timeout_, now_ps() + costs_.interrupt_latency_ps);
    case Waiting::No:
        break;
    }
    return now_ps();  // running, or stalled on a register read's value
}

void Cpu::sync() {
    if (pending_ == 0) return;
    Picos t = pending_;
    pending_ = 0;
    totals_.busy += t;
    busy_until_ = now_ps() + t;
    waiting_ = Waiting::Cycles;
    wait(ps(t));
    waiting_ = Waiting::No;
    resumed();
}

void Cpu::spin_turn(std::uint64_t lock_addr, LineUse use) {
    touch(lock_addr, 4, false, use);
    const Picos before = pending_;
    charge(costs_.spin_cycles);
    const Picos relax = pending_ - before;
    totals_.lock_spin += relax;
    if (others_quiet_until_) {
        // Until another CPU's thread runs, nothing takes or lets go of the lock or touches its
        // line: each turn that ends before then (and before the simulation next reads the
        // totals) re-reads the line at its own time and finds the lock held.  Only the wait is
        // one instead of one a turn.
        const Picos until = std::min(others_quiet_until_(), run_ahead_.horizon());
        for (Picos turn_end = now_ps() + pending_; turn_end < until;) {
            const Picos charged = pending_;
            if (caches_) touch_at(lock_addr, 4, false, turn_end, use);
            pending_ += relax;
            totals_.lock_spin += relax;
            turn_end += pending_ - charged;
        }
    }
    sync();
}

void Cpu::reset_totals() {
    totals_ = Totals{};
    counted_from_ = now_ps();
    // Cycles charged before the reset and run after it are the window's: sync() counts a
    // stretch when it starts it.
    if (busy_until_ > counted_from_) totals_.busy = busy_until_ - counted_from_;
}

Cpu::Totals Cpu::totals() const {
    Totals t = totals_;
    const Picos ahead = busy_until_ > now_ps() ? busy_until_ - now_ps() : 0;
    t.busy -= std::min(t.busy, ahead);
    return t;
}

bool Cpu::interrupt_due() const { return line_ && now_ps() >= line_visible_at_; }

void Cpu::service_events() {
    // Nothing to take before the next iteration, nothing to wait for.
    if (run_ahead_.may_run_ahead({now(), pending_, line_, timer_period_, next_timer_}, *software_))
        return;
    for (;;) {
        sync();
        if (interrupt_due()) {
            ++totals_.interrupts;
            trace::emit(TraceStep::InterruptHandler, TracePhase::Begin, name(), now());
            charge(costs_.interrupt_entry_exit_cycles);
            software_->interrupt();
            trace::emit(TraceStep::InterruptHandler, TracePhase::End, name(), now());
        } else if (timer_period_ && now_ps() >= next_timer_) {
            next_timer_ += timer_period_;
            if (!software_->timer_due()) continue;
            ++totals_.timer_ticks;
            trace::emit(TraceStep::Timer, TracePhase::Begin, name(), now());
            charge(costs_.timer_tick_cycles);
            software_->timer();
            trace::emit(TraceStep::Timer, TracePhase::End, name(), now());
        } else {
            return;
        }
    }
}

void Cpu::main_loop() {
    if (!software_) return;
    resumed();
    software_->start();
    for (;;) {
        service_events();
        if (software_->has_work()) {
            trace::emit(TraceStep::Xmit, TracePhase::Begin, name(), now());
            software_->run_once();
            trace::emit(TraceStep::Xmit, TracePhase::End, name(), now());
            continue;
        }
        // Nothing to do until an interrupt or the timer: pktgen spins on the stopped queue.
        Picos start = now_ps();
        Picos until = 0;
        if (line_ && line_visible_at_ > start) until = line_visible_at_;
        if (timer_period_ && (until == 0 || next_timer_ < until)) until = next_timer_;
        waiting_ = Waiting::Work;
        idle_timeout_ = until > start ? until : kNever;
        if (until > start)
            wait(ps(until - start), wake_event_);
        else if (!line_)
            wait(wake_event_);
        waiting_ = Waiting::No;
        resumed();
        totals_.waiting += now_ps() - std::max(start, counted_from_);
    }
}

// A posted write needs no answer: it leaves at the CPU's own time without waiting for the
// kernel to catch up (the write's timing is the same; one context switch fewer per packet).
void Cpu::mmio_write(std::uint64_t addr, std::uint32_t value) {
    ++totals_.mmio_writes;
    host_.mmio_write(addr, value, now(), host_port_);
    pending_ += costs_.mmio_write_ps;
}

// The read leaves at the CPU's own time (like a posted write); the CPU then stalls until the
// value is back.
std::uint32_t Cpu::mmio_read(std::uint64_t addr) {
    ++totals_.mmio_reads;
    Picos start = now();
    totals_.busy += pending_;
    busy_until_ = start;
    pending_ = 0;
    read_done_ = false;
    host_.mmio_read(addr, this, 0, start, host_port_);
    trace::emit(TraceStep::MmioRead, TracePhase::Begin, name(), start);
    reading_ = true;
    read_addr_ = addr;
    read_start_ = start;
    if (!stall_check_armed_) {
        stall_check_armed_ = true;
        stall_check_.notify(ps(start + kMmioReadLimit - now_ps()));
    }
    while (!read_done_) wait(read_event_);
    resumed();
    reading_ = false;
    trace::emit(TraceStep::MmioRead, TracePhase::End, name(), now_ps());
    totals_.mmio_stall += now_ps() - std::max(start, counted_from_);
    return read_value_;
}

// One check per read that could be late, not a timeout per read (a timed event per register
// read would sit in the kernel's queue for 1 ms each).
void Cpu::check_stall() {
    stall_check_armed_ = false;
    if (!reading_) return;
    if (now_ps() >= read_start_ + kMmioReadLimit)
        throw InvariantViolation(name(), "register read of 0x" + hex(read_addr_) +
                                             " has not completed after 1 ms (CPU stalled)");
    stall_check_armed_ = true;
    stall_check_.notify(ps(read_start_ + kMmioReadLimit - now_ps()));
}

void Cpu::mmio_read_done(std::uint64_t, std::uint32_t value) {
    read_value_ = value;
    read_done_ = true;
    read_event_.notify(sc_core::SC_ZERO_TIME);
}

void Cpu::work_arrives(Picos at) {
    const Picos now = now_ps();
    wake_event_.notify(at > now ? ps(at - now) : sc_core::SC_ZERO_TIME);
}

void Cpu::set_interrupt(bool asserted) {
    if (asserted == line_) return;
    line_ = asserted;
    if (asserted) {
        line_visible_at_ = now_ps() + costs_.interrupt_latency_ps;
        wake_event_.notify(ps(costs_.interrupt_latency_ps));
    }
}

}  // namespace pcisim
