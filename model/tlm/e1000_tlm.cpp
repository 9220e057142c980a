#include "tlm/e1000_tlm.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "core/sim_time.h"

namespace pcisim {

namespace {
std::string hex(std::uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}
}  // namespace

// The NIC changes its line from several processes (its own timers, a register write); one
// process, drive_irq, writes the ports, as a signal has one writer.
struct E1000Tlm::IrqLine : InterruptSink {
    explicit IrqLine(sc_core::sc_event& changed) : changed(changed) {}
    void set_interrupt(bool on) override {
        asserted = on;
        changed.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::sc_event& changed;
    bool asserted = false;
};

E1000Tlm::E1000Tlm(sc_core::sc_module_name name, const e1000::E1000Params& params,
                   const E1000TlmConfig& config)
    : sc_module(name), regs("regs"), dma("dma"), irq("irq", params.traits.ports), config_(config) {
    regs.register_b_transport(this, &E1000Tlm::register_access);
    std::vector<InterruptSink*> sinks;
    for (unsigned p = 0; p < params.traits.ports; ++p) {
        irq_lines_.push_back(std::make_unique<IrqLine>(irq_changed_));
        sinks.push_back(irq_lines_.back().get());
    }
    // The registers sit at offset 0 of `regs`: the interconnect hands us BAR-relative addresses.
    BusPort& bus = *this;
    DmaMemory& memory = *this;
    nic_ = std::make_unique<E1000>("e1000", params, bus, memory, 0, sinks);
    SC_THREAD(dma_thread);
    SC_METHOD(drive_irq);
    sensitive << irq_changed_;
    dont_initialize();
}

void E1000Tlm::drive_irq() {
    for (std::size_t p = 0; p < irq_lines_.size(); ++p) irq[p].write(irq_lines_[p]->asserted);
}

E1000Tlm::~E1000Tlm() = default;

int E1000Tlm::attach_master(BusMaster* master, const MasterConfig&) {
    master_ = master;
    return 0;
}

void E1000Tlm::attach_target(BusTarget* target, std::uint64_t, std::uint64_t) {
    registers_ = target;
}

// The registers are 32 bits wide and software accesses them as whole dwords (8254x SDM 13,
// register descriptions).
void E1000Tlm::register_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    std::uint64_t addr = t.get_address();
    if (t.get_byte_enable_ptr()) {
        t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (t.get_data_length() != 4 || t.get_streaming_width() < 4 || addr % 4) {
        t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (addr >= register_bytes()) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (t.is_read() || t.is_write()) {
        wait(delay + ps(config_.register_access_ps));
        delay = sc_core::SC_ZERO_TIME;
        BusTransaction access;
        access.command = t.is_read() ? BusCommand::MemRead : BusCommand::MemWrite;
        access.addr = addr;
        access.bytes = access.bytes_done = 4;
        if (t.is_write()) std::memcpy(&access.dword, t.get_data_ptr(), 4);
        registers_->complete(access);
        if (t.is_read()) std::memcpy(t.get_data_ptr(), &access.dword, 4);
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void E1000Tlm::read(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) {
    requests_.push_back({true, addr, bytes, tag, now_ps()});
    requested_.notify(sc_core::SC_ZERO_TIME);
}

void E1000Tlm::write(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
                     std::uint32_t) {
    requests_.push_back({false, addr, bytes, tag, now_ps()});
    requested_.notify(sc_core::SC_ZERO_TIME);
}

// The NIC's requests in the order it made them, one at a time (the NIC has one bus interface).
// A read: its b_transport brings the bytes, its annotated delay passes, then the NIC takes them
// (read_done).  A posted write is done for the NIC as soon as it leaves (write_done, where the
// NIC hands over its bytes); its b_transport then carries them and its annotated delay holds
// the DMA port before the next request.
void E1000Tlm::dma_thread() {
    for (;;) {
        while (requests_.empty()) wait(requested_);
        Request r = requests_.front();
        requests_.pop_front();
        data_.assign(r.bytes, 0);
        DmaStats stats;
        stats.transactions = 1;
        stats.issued = r.issued;
        completing_ = &r;
        if (r.is_read) {
            transport(tlm::TLM_READ_COMMAND, r);
            stats.finished = now_ps();
            stats.latency = stats.finished - r.issued;
            master_->read_done(r.tag, stats, 0);
            completing_ = nullptr;
        } else {
            completing_written_ = 0;
            stats.finished = now_ps();
            master_->write_done(r.tag, stats);
            completing_ = nullptr;
            if (completing_written_ != r.bytes)
                throw std::logic_error(std::string(name()) + ": the NIC gave " +
                                       std::to_string(completing_written_) + " of the " +
                                       std::to_string(r.bytes) + " bytes of its write at " +
                                       hex(r.addr));
            transport(tlm::TLM_WRITE_COMMAND, r);
        }
    }
}

// One b_transport of data_ for request r, waiting out its annotated delay (a loosely-timed
// initiator that synchronises after every transaction).
void E1000Tlm::transport(tlm::tlm_command command, const Request& r) {
    payload_.set_command(command);
    payload_.set_address(r.addr);
    payload_.set_data_ptr(data_.data());
    payload_.set_data_length(r.bytes);
    payload_.set_streaming_width(r.bytes);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    dma->b_transport(payload_, delay);
    if (payload_.is_response_error())
        throw std::runtime_error(std::string(name()) + ": DMA " +
                                 (command == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                                 std::to_string(r.bytes) + " bytes at " + hex(r.addr) +
                                 " failed: " + payload_.get_response_string());
    wait(delay);
}

std::size_t E1000Tlm::completing_offset(std::uint64_t addr, std::uint64_t n,
                                       bool for_read) const {
    const Request* r = completing_;
    if (!r || r->is_read != for_read || addr < r->addr || n > r->bytes ||
        addr - r->addr > r->bytes - n)
        throw std::logic_error(std::string(name()) + ": the NIC " +
                               (for_read ? "read " : "wrote ") + std::to_string(n) +
                               " bytes at " + hex(addr) + " outside the transfer it completes");
    return static_cast<std::size_t>(addr - r->addr);
}

void E1000Tlm::read(std::uint64_t addr, void* out, std::uint64_t n) const {
    std::memcpy(out, data_.data() + completing_offset(addr, n, true), n);
}

void E1000Tlm::write(std::uint64_t addr, const void* in, std::uint64_t n) {
    std::memcpy(data_.data() + completing_offset(addr, n, false), in, n);
    completing_written_ += static_cast<std::uint32_t>(n);
}

}  // namespace pcisim
