// A driver's kernel timer (struct timer_list), queued on the timer base of one CPU and run by
// that CPU's tick.  2.6.9's mod_timer queues the timer on the base of the CPU that calls it
// (kernel/timer.c, __mod_timer), unless it is re-armed for the same expiry while still pending
// (the fast path of mod_timer); a handler runs with the timer off every base (__run_timers), so
// a timer the handler re-arms stays on the CPU it ran on.
#pragma once

namespace pcisim {

class Cpu;
class CpuSoftware;

class KernelTimer {
public:
    // `handler`'s timer() runs when the timer fires; `base` is the CPU that armed it first
    // (where the driver was opened).
    KernelTimer(CpuSoftware& handler, Cpu& base) : handler_(handler), base_(&base) {}

    // mod_timer from `cpu` for the next tick: the timer moves there, unless it is already
    // pending for that tick (2.6.9's fast path: same expiry, still pending).
    void mod(Cpu& cpu) {
        if (!pending_) base_ = &cpu;
        pending_ = true;
    }
    Cpu& base() const { return *base_; }
    CpuSoftware& handler() const { return handler_; }
    // The tick takes it off the base to run it; the handler re-arms it (mod) from there.
    void fire() { pending_ = false; }

private:
    CpuSoftware& handler_;
    Cpu* base_;
    bool pending_ = true;
};

}  // namespace pcisim
