// Several ports' software on one CPU, the way pktgen runs them: one kernel thread per CPU that
// loops over the devices it was given, one packet to each in turn (pktgen_thread_worker), and
// each device's interrupt handler and driver timer on the same CPU.  The CPU's time is shared:
// while it sends on one port it does nothing for the other.
//
// Each port's device drives its own interrupt line (the 82546's two functions have INTA# and
// INTB#, 8254x SDM 12.2, on separate vectors); the CPU sees the OR of them, and when it takes
// an interrupt it runs the handler of every port whose line is asserted, paying the entry and
// exit of each handler after the first.  The device's promise of a quiet line (run-ahead) holds
// for the CPU only while every port's device promises it.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/pci_types.h"
#include "platform/cpu.h"

namespace pcisim {

class CpuScheduler : public CpuSoftware {
public:
    explicit CpuScheduler(Cpu& cpu) : cpu_(cpu) {}

    // One more port's software; its device's interrupt line goes to the returned sink.  Before
    // the simulation starts.
    InterruptSink& add(CpuSoftware& software);

    void start() override;
    bool has_work() const override { return next_ready() >= 0; }
    void run_once() override;
    void interrupt() override;
    void timer() override;
    bool quiet() const override;
    // net_rx_action's poll list (2.6 NAPI): a port whose poll used its whole quota goes to the
    // back of the list, so the other ports whose interrupts are pending (their polls) run before
    // it polls again.  `running` is the port that polls; not nested.
    void serve_others(const CpuSoftware& running);

private:
    // A port's interrupt line as its device drives it.
    struct Line : InterruptSink {
        CpuScheduler& owner;
        bool asserted = false, quiet = false;
        explicit Line(CpuScheduler& o) : owner(o) {}
        void set_interrupt(bool a) override;
        void set_line_quiet(bool q) override;
    };
    int next_ready() const;  // the next port in turn with work, -1 when none has
    void update_line();
    void update_quiet();

    Cpu& cpu_;
    std::vector<CpuSoftware*> software_;
    std::vector<std::unique_ptr<Line>> lines_;  // by port, at fixed addresses
    std::size_t next_ = 0;                      // the port whose turn is next
    bool serving_others_ = false;
};

}  // namespace pcisim
