#include "platform/cpu_scheduler.h"

#include "platform/irq_line.h"
#include "platform/kernel_timer.h"

namespace pcisim {

void CpuScheduler::start() {
    for (CpuSoftware* s : threads_) s->start();
}

int CpuScheduler::next_ready() const {
    for (std::size_t i = 0; i < threads_.size(); ++i) {
        std::size_t k = (next_ + i) % threads_.size();
        if (threads_[k]->has_work()) return static_cast<int>(k);
    }
    return -1;
}

// One packet on the next port in turn that can take one (a stopped queue is skipped, as
// pktgen skips a device whose queue is stopped).
void CpuScheduler::run_once() {
    int k = next_ready();
    if (k < 0) return;
    next_ = (static_cast<std::size_t>(k) + 1) % threads_.size();
    threads_[k]->run_once();
}

void CpuScheduler::interrupt() {
    bool first = true;
    for (IrqLine* line : lines_) {
        if (!line->pending_on(*this)) continue;
        if (!first) cpu_.charge(cpu_.costs().interrupt_entry_exit_cycles);
        first = false;
        line->handler().interrupt();
    }
}

// The pending ports' handlers run as if called from the poll list: each pays its entry and
// exit, as after the first port in interrupt().
void CpuScheduler::serve_others(const CpuSoftware& running) {
    if (serving_others_) return;
    serving_others_ = true;
    for (IrqLine* line : lines_) {
        if (&line->handler() == &running || !line->pending_on(*this)) continue;
        cpu_.charge(cpu_.costs().interrupt_entry_exit_cycles);
        line->handler().interrupt();
    }
    serving_others_ = false;
}

bool CpuScheduler::timer_due() const {
    for (const KernelTimer* t : timers_)
        if (&t->base() == &cpu_) return true;
    return false;
}

// The timers queued on this CPU, due at the same tick; the CPU paid the first one's tick.
void CpuScheduler::timer() {
    bool first = true;
    for (KernelTimer* t : timers_) {
        if (&t->base() != &cpu_) continue;
        if (!first) cpu_.charge(cpu_.costs().timer_tick_cycles);
        first = false;
        t->fire();
        t->handler().timer();
    }
}

bool CpuScheduler::quiet() const {
    int k = next_ready();
    return k >= 0 && threads_[k]->quiet();
}

void CpuScheduler::update_line() {
    bool any = false;
    for (const IrqLine* l : lines_) any = any || l->pending_on(*this);
    cpu_.set_interrupt(any);
}

void CpuScheduler::update_quiet() {
    bool all = true;
    for (const IrqLine* l : lines_) all = all && l->quiet();
    cpu_.set_line_quiet(all);
}

}  // namespace pcisim
