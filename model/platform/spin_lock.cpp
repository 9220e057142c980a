#include "platform/spin_lock.h"

#include "platform/cpu.h"

namespace pcisim {

void SpinLock::lock(Cpu& cpu) {
    if (!cpu.smp_kernel()) return;
    while (holder_ && holder_ != &cpu) cpu.spin_turn(addr_, use_);
    cpu.touch(addr_, 4, true, use_);
    cpu.locked_instruction();
    holder_ = &cpu;
}

void SpinLock::unlock(Cpu& cpu) {
    if (!cpu.smp_kernel()) return;
    cpu.touch(addr_, 4, true, use_);
    holder_ = nullptr;
}

}  // namespace pcisim
