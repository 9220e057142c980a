// tlm-resolution-check FEMTOSECONDS: runs the e1000 TLM component in a kernel whose time
// resolution is that many femtoseconds and prints when its timed behaviour happened, in
// picoseconds: a register read's completion (the component's access time) and two interrupt
// assertions held apart by ITR (the NIC's own timer).  tests/test_tlm.cpp runs it at 1 fs and
// 1 ps, which must print the same, and at 1 ns, which must stop with a fatal sc_report.
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "e1000/e1000_regs.h"
#include "tlm/e1000_tlm.h"

using namespace pcisim;

namespace {

struct Probe : sc_core::sc_module {
    SC_HAS_PROCESS(Probe);
    tlm_utils::simple_initiator_socket<Probe> socket{"socket"};
    sc_core::sc_in<bool> irq{"irq"};
    std::vector<double> rises_ps;

    explicit Probe(sc_core::sc_module_name name) : sc_module(name) {
        SC_THREAD(run);
        SC_METHOD(watch);
        sensitive << irq.pos();
        dont_initialize();
    }
    static double now_in_ps() { return sc_core::sc_time_stamp().to_seconds() * 1e12; }
    std::uint32_t access(tlm::tlm_command command, std::uint32_t addr, std::uint32_t value) {
        tlm::tlm_generic_payload t;
        t.set_command(command);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        t.set_data_length(4);
        t.set_streaming_width(4);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        wait(delay);
        return value;
    }
    void run() {
        using namespace pcisim::e1000;
        access(tlm::TLM_READ_COMMAND, kStatus, 0);
        std::cout << "register read done at " << now_in_ps() << " ps\n";
        access(tlm::TLM_WRITE_COMMAND, kItr, 4);  // 4 x 256 ns between assertions
        access(tlm::TLM_WRITE_COMMAND, kIms, kIcrTxqe);
        access(tlm::TLM_WRITE_COMMAND, kIcs, kIcrTxqe);
        access(tlm::TLM_READ_COMMAND, kIcr, 0);
        access(tlm::TLM_WRITE_COMMAND, kIcs, kIcrTxqe);
    }
    void watch() { rises_ps.push_back(now_in_ps()); }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
    if (argc != 2) {
        std::cerr << "usage: tlm-resolution-check FEMTOSECONDS\n";
        return 2;
    }
    sc_core::sc_set_time_resolution(std::atof(argv[1]), sc_core::SC_FS);
    E1000TlmConfig timing;
    timing.register_access_ps = 60000;
    E1000Tlm nic("nic", e1000::E1000Params::for_model("82540"), timing);
    sc_core::sc_signal<bool> line("line");
    nic.irq[0].bind(line);
    Probe probe("probe");
    probe.socket.bind(nic.regs);
    probe.irq.bind(line);
    struct NoMemory : sc_core::sc_module {
        tlm_utils::simple_target_socket<NoMemory> socket{"socket"};
        explicit NoMemory(sc_core::sc_module_name n) : sc_module(n) {}
    } memory("memory");
    nic.dma.bind(memory.socket);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    for (double t : probe.rises_ps) std::cout << "interrupt asserted at " << t << " ps\n";
    return 0;
}

int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
