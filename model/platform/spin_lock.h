// A kernel spin lock (spinlock_t) between CPUs.  The CPU that takes it does a locked instruction
// on the lock's line; a CPU that wants it while another CPU holds it spins, re-reading the line,
// until the holder lets go: its time passes busy.  A UP kernel compiles spin locks away, so
// there it is never held (include/linux/spinlock.h).
#pragma once

#include <cstdint>

#include "core/line_use.h"

namespace pcisim {

class Cpu;

class SpinLock {
public:
    // The lock sits in the line at `addr`, which holds `use`.
    SpinLock(std::uint64_t addr, LineUse use) : addr_(addr), use_(use) {}

    void lock(Cpu& cpu);    // spin_lock: spins while another CPU holds it
    void unlock(Cpu& cpu);  // spin_unlock: a plain store on x86, no locked instruction
    bool held_by(const Cpu& cpu) const { return holder_ == &cpu; }

private:
    std::uint64_t addr_;
    LineUse use_;
    const Cpu* holder_ = nullptr;
};

}  // namespace pcisim
