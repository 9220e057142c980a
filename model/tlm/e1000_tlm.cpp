#include "tlm/e1000_tlm.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "core/sim_time.h"
#include "e1000/e1000_device_regs.h"
#include "tlm/tlm_quantum_keeper.h"

namespace pcisim {

namespace {
std::string hex(std::uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}
}  // namespace

// The NIC changes its line from several processes (its own timers, a register write); one
// process, drive_irq, writes the ports, as a signal has one writer.  With MSI enabled in the
// function's configuration space, an assertion sends the function's message instead (SDM 4.1.3:
// one message per assertion, INTA# left alone); the interrupt disable bit keeps INTA# low.
struct E1000Tlm::IrqLine : InterruptSink {
    IrqLine(E1000Tlm& owner, unsigned function) : owner(owner), function(function) {}
    void set_interrupt(bool on) override {
        e1000::ConfigSpace& cs = owner.nic().config_space(function);
        cs.set_interrupt_status(on);
        if (on && cs.msi_enabled()) {
            Request msi{false, cs.msi_address(), 4, 0, now_ps(), true, cs.msi_data()};
            owner.request(msi);
        }
        asserted = on && !cs.msi_enabled() && !cs.interrupt_disabled();
        owner.irq_changed_.notify(sc_core::SC_ZERO_TIME);
    }
    E1000Tlm& owner;
    unsigned function;
    bool asserted = false;
};


E1000Tlm::E1000Tlm(sc_core::sc_module_name name, const e1000::E1000Params& params,
                   const E1000TlmConfig& timing)
    : sc_module(name), regs("regs"), io("io"), config("config"), dma("dma"),
      irq("irq", params.traits.ports), config_(timing) {
    std::string problem;
    if (!adopt_kernel_resolution(problem))
        SC_REPORT_FATAL(tlm_report::kTimeResolution, (std::string(this->name()) + ": " + problem).c_str());
    regs.register_b_transport(this, &E1000Tlm::register_access);
    regs.register_transport_dbg(this, &E1000Tlm::register_debug);
    io.register_b_transport(this, &E1000Tlm::io_access);
    io.register_transport_dbg(this, &E1000Tlm::io_debug);
    config.register_b_transport(this, &E1000Tlm::config_access);
    config.register_transport_dbg(this, &E1000Tlm::config_debug);
    dma.register_invalidate_direct_mem_ptr(this, &E1000Tlm::invalidate_dmi);
    std::vector<InterruptSink*> sinks;
    for (unsigned p = 0; p < params.traits.ports; ++p) {
        irq_lines_.push_back(std::make_unique<IrqLine>(*this, p));
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
    SC_METHOD(apply_posted_writes);
    sensitive << posted_due_;
    dont_initialize();
    SC_METHOD(complete_reads);
    sensitive << completion_due_;
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

void E1000Tlm::nic_error(const std::exception& e) const {
    SC_REPORT_ERROR(tlm_report::kNic, (std::string(name()) + ": " + e.what()).c_str());
}

// The registers are 32 bits wide and software accesses them as whole dwords (8254x SDM 13,
// register descriptions).
void E1000Tlm::register_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    access(false, t, delay);
}

void E1000Tlm::io_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    access(true, t, delay);
}

void E1000Tlm::access(bool is_io, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t addr = t.get_address();
    if (t.get_byte_enable_ptr()) return t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    if (t.get_data_length() != 4 || t.get_streaming_width() < 4 || addr % 4)
        return t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    if (addr >= (is_io ? io_bytes() : register_bytes()))
        return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (!t.is_read() && !t.is_write()) return t.set_response_status(tlm::TLM_OK_RESPONSE);
    std::uint32_t value = 0;
    if (t.is_write()) std::memcpy(&value, t.get_data_ptr(), 4);
    const sc_core::sc_time at = delay + ps(config_.register_access_ps);
    try {
        if (config_.timing == TlmTiming::Approximate) {
            wait(at);
            delay = sc_core::SC_ZERO_TIME;
            value = apply(is_io, t.is_read(), addr, value);
        } else if (t.is_write()) {  // posted: takes effect at its time, the initiator runs on
            const Picos due = now_ps() + static_cast<Picos>(at.value()) / detail::kernel_ticks_per_ps;
            auto it = std::upper_bound(posted_.begin(), posted_.end(), due,
                                       [](Picos d, const PostedWrite& w) { return d < w.at; });
            posted_.insert(it, {due, is_io, addr, value});
            posted_due_.notify(ps(posted_.front().at - now_ps()));
            delay = at;
        } else {
            flush_posted_writes();
            value = apply(is_io, true, addr, 0);
            delay = at;
        }
    } catch (const std::exception& e) {
        nic_error(e);
    }
    if (t.is_read()) std::memcpy(t.get_data_ptr(), &value, 4);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

// A register access as the NIC takes it: through its BAR (the bus target), or through the I/O
// window of a function.
std::uint32_t E1000Tlm::apply(bool is_io, bool is_read, std::uint64_t addr, std::uint32_t value) {
    if (is_io) {
        const auto function = static_cast<unsigned>(addr / kIoBytesPerFunction);
        const auto offset = static_cast<std::uint32_t>(addr % kIoBytesPerFunction);
        if (is_read) return nic_->io_read(function, offset);
        nic_->io_write(function, offset, value);
        return 0;
    }
    BusTransaction access;
    access.command = is_read ? BusCommand::MemRead : BusCommand::MemWrite;
    access.addr = addr;
    access.bytes = access.bytes_done = 4;
    access.dword = value;
    registers_->complete(access);
    return access.dword;
}

void E1000Tlm::apply_posted_writes() {
    try {
        while (!posted_.empty() && posted_.front().at <= now_ps()) {
            PostedWrite w = posted_.front();
            posted_.pop_front();
            apply(w.io, false, w.addr, w.value);
        }
    } catch (const std::exception& e) {
        nic_error(e);
    }
    if (!posted_.empty()) posted_due_.notify(ps(posted_.front().at - now_ps()));
}

void E1000Tlm::flush_posted_writes() {
    while (!posted_.empty()) {
        PostedWrite w = posted_.front();
        posted_.pop_front();
        apply(w.io, false, w.addr, w.value);
    }
    posted_due_.cancel();
}

// Debug reads see the registers without their read side effects (ICR is not cleared, the
// statistics are not reset); a debug write to a register is refused (0 bytes), as every register
// write has effects beyond storing a value.
unsigned E1000Tlm::register_debug(tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    const unsigned n = t.get_data_length();
    if (!t.is_read() || addr >= register_bytes()) return 0;
    unsigned done = 0;
    for (; done < n && addr + done < register_bytes(); ++done) {
        const std::uint64_t at = addr + done;
        const std::uint32_t v = nic_->peek_register(at & ~3ull);
        t.get_data_ptr()[done] = static_cast<unsigned char>(v >> (8 * (at % 4)));
    }
    return done;
}

unsigned E1000Tlm::io_debug(tlm::tlm_generic_payload& t) {
    if (!t.is_read() || t.get_data_length() != 4 || t.get_address() % 4 ||
        t.get_address() >= io_bytes())
        return 0;
    const auto function = static_cast<unsigned>(t.get_address() / kIoBytesPerFunction);
    std::uint32_t v = t.get_address() % kIoBytesPerFunction == e1000::kIoAddr
                          ? nic_->io_read(function, e1000::kIoAddr)
                          : 0;  // IODATA would read a register: see register_debug
    std::memcpy(t.get_data_ptr(), &v, 4);
    return 4;
}

// Configuration space: 1, 2 or 4 bytes within a dword (PCI 2.3 3.2.2.3.4).  Reads have no side
// effects here, so a debug access is the same access without time.
unsigned E1000Tlm::config_debug(tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    const unsigned n = t.get_data_length();
    if ((n != 1 && n != 2 && n != 4) || addr % 4 + n > 4 || addr + n > config_bytes()) return 0;
    e1000::ConfigSpace& cs = nic_->config_space(static_cast<unsigned>(addr / kConfigBytesPerFunction));
    const auto offset = static_cast<unsigned>(addr % kConfigBytesPerFunction);
    std::uint32_t v = 0;
    if (t.is_read()) {
        v = cs.read(offset, n);
        std::memcpy(t.get_data_ptr(), &v, n);
    } else if (t.is_write()) {
        std::memcpy(&v, t.get_data_ptr(), n);
        cs.write(offset, n, v);
    }
    return n;
}

void E1000Tlm::config_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    if (t.get_byte_enable_ptr()) return t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    const std::uint64_t addr = t.get_address();
    const unsigned n = t.get_data_length();
    if ((n != 1 && n != 2 && n != 4) || t.get_streaming_width() < n || addr % 4 + n > 4)
        return t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    if (addr + n > config_bytes()) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    config_debug(t);
    delay += ps(config_.register_access_ps);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void E1000Tlm::request(Request r) {
    requests_.push_back(r);
    requested_.notify(sc_core::SC_ZERO_TIME);
}

void E1000Tlm::read(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) {
    request({true, addr, bytes, tag, now_ps()});
}

void E1000Tlm::write(int, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
                     std::uint32_t) {
    request({false, addr, bytes, tag, now_ps()});
}

// The NIC's requests in the order it made them, one at a time (the NIC has one bus interface).
void E1000Tlm::dma_thread() {
    OwnQuantumKeeper keeper(ps(config_.quantum_ps));
    for (;;) {
        while (requests_.empty()) wait(requested_);
        Request r = requests_.front();
        requests_.pop_front();
        // Bus mastering must be on (PCI 2.3 6.2.2, command register bit 2) in some function.
        bool master = false;
        for (unsigned f = 0; f < functions(); ++f) master = master || nic_->config_space(f).bus_master();
        if (!master)
            SC_REPORT_ERROR(tlm_report::kBusMasterDisabled,
                            (std::string(name()) + ": DMA " + (r.is_read ? "read" : "write") +
                             " at " + hex(r.addr) + " with bus mastering off in the command "
                             "register (bit 2) of every function").c_str());
        try {
            if (config_.timing == TlmTiming::Approximate) {
                approximate_transfer(r);
                continue;
            }
            // The transfer starts when the port is free: the keeper's local time runs ahead of
            // the kernel's to there, and on by the transfer's own time.
            const Picos now = now_ps();
            keeper.set(ps(std::max(now, port_free_) - now));
            sc_core::sc_time offset = keeper.get_local_time();
            loose_transfer(r, offset);
            port_free_ = now + static_cast<Picos>(offset.value()) / detail::kernel_ticks_per_ps;
            keeper.set(offset);
            if (keeper.need_sync()) keeper.sync();
        } catch (const std::exception& e) {
            nic_error(e);
        }
    }
}

// Loose timing, one transfer starting `offset` after the kernel's time; `offset` comes back as
// its end.  A read completes at its end by an event (complete_reads); a posted write is done for
// the NIC at once, its bytes in memory through DMI or b_transport.
void E1000Tlm::loose_transfer(Request& r, sc_core::sc_time& offset) {
    data_.assign(r.bytes, 0);
    tlm::tlm_dmi* region = nullptr;
    if (r.is_read) {
        Completion c{r, 0, false, {}};
        if (dmi_for(r, region)) {
            c.dmi = true;
            offset += region->get_read_latency();
        } else {
            transport(tlm::TLM_READ_COMMAND, r, offset);  // its timing; the bytes at its end
        }
        c.end = now_ps() + static_cast<Picos>(offset.value()) / detail::kernel_ticks_per_ps;
        auto it = std::upper_bound(completions_.begin(), completions_.end(), c.end,
                                   [](Picos e, const Completion& x) { return e < x.end; });
        completions_.insert(it, std::move(c));
        completion_due_.notify(ps(completions_.front().end - now_ps()));
        return;
    }
    if (r.msi) {
        std::memcpy(data_.data(), &r.msi_data, 4);
    } else {
        DmaStats stats;
        stats.transactions = 1;
        stats.issued = stats.finished = r.issued;
        completing_written_ = 0;
        completing_ = &r;
        master_->write_done(r.tag, stats);
        completing_ = nullptr;
    }
    if (dmi_for(r, region)) {
        std::memcpy(region->get_dmi_ptr() + (r.addr - region->get_start_address()), data_.data(),
                    r.bytes);
        offset += region->get_write_latency();
    } else {
        transport(tlm::TLM_WRITE_COMMAND, r, offset);
    }
}

// Approximate timing: a read's b_transport brings the bytes, its annotated delay passes, then
// the NIC takes them (read_done).  A posted write is done for the NIC as soon as it leaves
// (write_done, where the NIC hands over its bytes); its b_transport then carries them and its
// annotated delay holds the DMA port before the next request.
void E1000Tlm::approximate_transfer(Request& r) {
    data_.assign(r.bytes, 0);
    DmaStats stats;
    stats.transactions = 1;
    stats.issued = r.issued;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (r.is_read) {
        transport(tlm::TLM_READ_COMMAND, r, delay);
        wait(delay);
        stats.finished = now_ps();
        stats.latency = stats.finished - r.issued;
        completing_ = &r;
        master_->read_done(r.tag, stats, 0);
        completing_ = nullptr;
        return;
    }
    if (r.msi) {
        std::memcpy(data_.data(), &r.msi_data, 4);
    } else {
        completing_written_ = 0;
        stats.finished = now_ps();
        completing_ = &r;
        master_->write_done(r.tag, stats);
        completing_ = nullptr;
        if (completing_written_ != r.bytes)
            SC_REPORT_ERROR(tlm_report::kNic, (std::string(name()) + ": the NIC gave " +
                                               std::to_string(completing_written_) + " of the " +
                                               std::to_string(r.bytes) + " bytes of its write at " +
                                               hex(r.addr)).c_str());
    }
    transport(tlm::TLM_WRITE_COMMAND, r, delay);
    wait(delay);
}

// Loose timing: the reads whose end has come, in order.  A read through DMI takes its bytes
// now, as pcisim's bus does at a read's last byte; one through b_transport by a debug transport
// now (the b_transport at its start gave its timing).
void E1000Tlm::complete_reads() {
    try {
        while (!completions_.empty() && completions_.front().end <= now_ps()) {
            Completion c = std::move(completions_.front());
            completions_.pop_front();
            data_.assign(c.request.bytes, 0);
            tlm::tlm_dmi* region = nullptr;
            if (c.dmi && dmi_for(c.request, region)) {
                std::memcpy(data_.data(),
                            region->get_dmi_ptr() + (c.request.addr - region->get_start_address()),
                            c.request.bytes);
            } else {
                payload_.set_command(tlm::TLM_READ_COMMAND);
                payload_.set_address(c.request.addr);
                payload_.set_data_ptr(data_.data());
                payload_.set_data_length(c.request.bytes);
                payload_.set_streaming_width(c.request.bytes);
                payload_.set_byte_enable_ptr(nullptr);
                if (dma->transport_dbg(payload_) != c.request.bytes)
                    SC_REPORT_ERROR(tlm_report::kDmaError,
                                    (std::string(name()) + ": the memory's debug transport gave "
                                     "fewer than the " + std::to_string(c.request.bytes) +
                                     " bytes of a DMA read at " + hex(c.request.addr)).c_str());
            }
            DmaStats stats;
            stats.transactions = 1;
            stats.issued = c.request.issued;
            stats.finished = now_ps();
            stats.latency = stats.finished - c.request.issued;
            completing_ = &c.request;
            master_->read_done(c.request.tag, stats, 0);
            completing_ = nullptr;
        }
    } catch (const std::exception& e) {
        nic_error(e);
    }
    if (!completions_.empty()) completion_due_.notify(ps(completions_.front().end - now_ps()));
}

// A DMI region of the memory that covers the request with the access it needs, asked for once
// per region (the memory may refuse: then b_transport for good, until it invalidates).
bool E1000Tlm::dmi_for(const Request& r, tlm::tlm_dmi*& region) {
    for (tlm::tlm_dmi& d : dmi_) {
        if (r.addr < d.get_start_address() || r.addr + r.bytes - 1 > d.get_end_address()) continue;
        if (r.is_read ? !d.is_read_allowed() : !d.is_write_allowed()) continue;
        region = &d;
        return true;
    }
    if (dmi_refused_) return false;
    tlm::tlm_generic_payload ask;
    ask.set_command(r.is_read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    ask.set_address(r.addr);
    ask.set_data_length(r.bytes);
    tlm::tlm_dmi d;
    if (!dma->get_direct_mem_ptr(ask, d)) {
        dmi_refused_ = true;
        return false;
    }
    dmi_.push_back(d);
    const tlm::tlm_dmi& got = dmi_.back();
    if (r.addr < got.get_start_address() || r.addr + r.bytes - 1 > got.get_end_address() ||
        (r.is_read ? !got.is_read_allowed() : !got.is_write_allowed()))
        return false;
    region = &dmi_.back();
    return true;
}

void E1000Tlm::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
    dmi_.erase(std::remove_if(dmi_.begin(), dmi_.end(),
                              [&](const tlm::tlm_dmi& d) {
                                  return d.get_start_address() <= end && start <= d.get_end_address();
                              }),
               dmi_.end());
    dmi_refused_ = false;
}

// One b_transport of data_ for request r with `delay` as its annotation (updated by the target).
void E1000Tlm::transport(tlm::tlm_command command, const Request& r, sc_core::sc_time& delay) {
    payload_.set_command(command);
    payload_.set_address(r.addr);
    payload_.set_data_ptr(data_.data());
    payload_.set_data_length(r.bytes);
    payload_.set_streaming_width(r.bytes);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    dma->b_transport(payload_, delay);
    if (payload_.is_response_error())
        SC_REPORT_ERROR(tlm_report::kDmaError,
                        (std::string(name()) + ": DMA " +
                         (command == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                         std::to_string(r.bytes) + " bytes at " + hex(r.addr) +
                         " failed: " + payload_.get_response_string()).c_str());
}

std::size_t E1000Tlm::completing_offset(std::uint64_t addr, std::uint64_t n,
                                       bool for_read) const {
    const Request* r = completing_;
    if (!r || r->is_read != for_read || addr < r->addr || n > r->bytes ||
        addr - r->addr > r->bytes - n) {
        SC_REPORT_ERROR(tlm_report::kNic,
                        (std::string(name()) + ": the NIC " + (for_read ? "read " : "wrote ") +
                         std::to_string(n) + " bytes at " + hex(addr) +
                         " outside the transfer it completes").c_str());
        return 0;
    }
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
