// What one CPU runs, the way 2.6 runs it: its process-context threads in turn (pktgen's thread
// loops over the devices it was given, one packet to each: pktgen_thread_worker), the interrupt
// lines the I/O APIC delivers to it (platform/irq_line.h), and the timers queued on its timer
// base (platform/kernel_timer.h).  The CPU's time is shared: while it sends on one port it does
// nothing for another.
//
// Each port's device drives its own interrupt line (the 82546's two functions have INTA# and
// INTB#, 8254x SDM 12.2, on separate vectors); the CPU sees the OR of the lines delivered to
// it, and when it takes an interrupt it runs the handler of every such line that is asserted,
// paying the entry and exit of each handler after the first.  The device's promise of a quiet
// line (run-ahead) holds for the CPU only while every line that may come to it is quiet.
#pragma once

#include <cstddef>
#include <vector>

#include "core/pci_types.h"
#include "platform/cpu.h"

namespace pcisim {

class IrqLine;
class KernelTimer;

class CpuScheduler : public CpuSoftware {
public:
    explicit CpuScheduler(Cpu& cpu) : cpu_(cpu) {}

    // Before the simulation starts: a thread's software (it also sets its port up at time
    // zero), a line that may be delivered here, a timer that may be queued here.
    void add_thread(CpuSoftware& software) { threads_.push_back(&software); }
    void add_line(IrqLine& line) { lines_.push_back(&line); }
    void add_timer(KernelTimer& timer) { timers_.push_back(&timer); }

    void start() override;
    bool has_work() const override { return next_ready() >= 0; }
    void run_once() override;
    void interrupt() override;
    bool timer_due() const override;
    void timer() override;
    bool quiet() const override;
    // net_rx_action's poll list (2.6 NAPI): a port whose poll used its whole quota goes to the
    // back of the list, so the other ports whose interrupts are pending here (their polls) run
    // before it polls again.  `running` is the port that polls; not nested.
    void serve_others(const CpuSoftware& running);

    // From the lines: one of them changed (asserted, delivered, quiet).
    void update_line();
    void update_quiet();
    Cpu& cpu() const { return cpu_; }

private:
    int next_ready() const;  // the next thread in turn with work, -1 when none has

    Cpu& cpu_;
    std::vector<CpuSoftware*> threads_;
    std::vector<IrqLine*> lines_;
    std::vector<KernelTimer*> timers_;
    std::size_t next_ = 0;  // the thread whose turn is next
    bool serving_others_ = false;
};

}  // namespace pcisim
