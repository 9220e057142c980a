#include "tlm/tlm_pci_host.h"

#include <cstring>

#include "core/sim_time.h"
#include "tlm/tlm_reports.h"

namespace pcisim {

namespace {
constexpr unsigned kCommand = 0x04, kFirstBar = 0x10, kBars = 6;
constexpr std::uint16_t kIoEnable = 1u << 0, kMemoryEnable = 1u << 1;
}  // namespace

TlmPciHost::TlmPciHost(sc_core::sc_module_name name, Picos hop_ps, std::uint64_t memory_base,
                       std::uint64_t io_base)
    : sc_module(name), config("config"), memory("memory"), io("io"), out("out"), hop_ps_(hop_ps),
      memory_base_(memory_base), io_base_(io_base) {
    config.register_b_transport(this, &TlmPciHost::config_access);
    config.register_transport_dbg(this, &TlmPciHost::config_debug);
    memory.register_b_transport(this, &TlmPciHost::memory_access);
    memory.register_transport_dbg(this, &TlmPciHost::memory_debug);
    io.register_b_transport(this, &TlmPciHost::io_access);
    io.register_transport_dbg(this, &TlmPciHost::io_debug);
}

void TlmPciHost::add_device(const Device& d) {
    if (d.device > 31 || d.functions == 0 || d.functions > 8)
        SC_REPORT_ERROR(tlm_report::kPciHost, (std::string(name()) + ": device " +
                                               std::to_string(d.device) + " with " +
                                               std::to_string(d.functions) +
                                               " functions; expected a slot 0-31 and 1-8 functions").c_str());
    for (const Attached& a : devices_)
        if (a.d.device == d.device)
            SC_REPORT_ERROR(tlm_report::kPciHost, (std::string(name()) + ": slot " +
                                                   std::to_string(d.device) + " taken twice").c_str());
    const int base = static_cast<int>(devices_.size()) * 3;
    out.bind(*d.config);
    out.bind(*d.memory);
    out.bind(*d.io);
    devices_.push_back({d, base, base + 1, base + 2});
}

// One configuration access through debug transport (no time, no side effects beyond the write).
std::uint32_t TlmPciHost::config_read(unsigned a, unsigned function, unsigned reg, unsigned bytes) {
    std::uint32_t v = 0;
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(function * devices_[a].d.config_stride + reg);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    t.set_data_length(bytes);
    out[devices_[a].config_out]->transport_dbg(t);
    return v;
}

void TlmPciHost::config_write(unsigned a, unsigned function, unsigned reg, unsigned bytes,
                              std::uint32_t value) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(function * devices_[a].d.config_stride + reg);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(bytes);
    out[devices_[a].config_out]->transport_dbg(t);
}

// BAR sizing (PCI 2.3 6.2.5.1): write all ones, read back the size mask, restore.
void TlmPciHost::end_of_elaboration() {
    for (unsigned a = 0; a < devices_.size(); ++a) {
        for (unsigned f = 0; f < devices_[a].d.functions; ++f) {
            for (unsigned b = 0; b < kBars; ++b) {
                const unsigned reg = kFirstBar + 4 * b;
                const std::uint32_t saved = config_read(a, f, reg, 4);
                config_write(a, f, reg, 4, 0xFFFFFFFF);
                const std::uint32_t mask = config_read(a, f, reg, 4);
                config_write(a, f, reg, 4, saved);
                if (mask == 0) continue;
                const bool is_io = mask & 1;
                const bool is64 = !is_io && ((mask >> 1) & 3) == 2;
                const std::uint32_t size_bits = mask & (is_io ? ~0x3u : ~0xFu);
                bars_.push_back({a, f, b, is_io, is64, (std::uint64_t(~size_bits) + 1) & 0xFFFFFFFFull});
                if (is64) ++b;  // the upper half
            }
        }
    }
    decode();
}

void TlmPciHost::decode() {
    windows_.clear();
    for (const BarSize& s : bars_) {
        const Attached& a = devices_[s.attached];
        const std::uint16_t command = static_cast<std::uint16_t>(config_read(s.attached, s.function, kCommand, 2));
        if (!(command & (s.io ? kIoEnable : kMemoryEnable))) continue;
        const unsigned reg = kFirstBar + 4 * s.bar;
        std::uint64_t base = config_read(s.attached, s.function, reg, 4) & (s.io ? ~0x3ull : ~0xFull);
        base &= 0xFFFFFFFFull;
        if (s.is64) base |= std::uint64_t(config_read(s.attached, s.function, reg + 4, 4)) << 32;
        if (base == 0) continue;  // not assigned
        windows_.push_back({s.io, base, s.bytes, s.io ? a.io_out : a.memory_out,
                            s.function * (s.io ? a.d.io_stride : a.d.memory_stride)});
    }
}

bool TlmPciHost::select(std::uint64_t addr, unsigned& attached, unsigned& function,
                        unsigned& reg) const {
    const unsigned bus = static_cast<unsigned>(addr >> 20), device = (addr >> 15) & 31;
    function = (addr >> 12) & 7;
    reg = addr & 0xFFF;
    if (bus != 0 || reg >= 256) return false;
    for (unsigned a = 0; a < devices_.size(); ++a)
        if (devices_[a].d.device == device && function < devices_[a].d.functions) {
            attached = a;
            return true;
        }
    return false;
}

void TlmPciHost::config_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const unsigned n = t.get_data_length();
    if ((n != 1 && n != 2 && n != 4) || t.get_address() % 4 + n > 4 || t.get_byte_enable_ptr())
        return t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    delay += ps(hop_ps_);
    unsigned a = 0, function = 0, reg = 0;
    if (!select(t.get_address(), a, function, reg)) {
        if (t.is_read()) std::memset(t.get_data_ptr(), 0xFF, n);  // no device: all ones
        return t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    const std::uint64_t addr = t.get_address();
    t.set_address(function * devices_[a].d.config_stride + reg);
    out[devices_[a].config_out]->b_transport(t, delay);
    t.set_address(addr);
    if (t.is_write()) decode();
}

unsigned TlmPciHost::config_debug(tlm::tlm_generic_payload& t) {
    unsigned a = 0, function = 0, reg = 0;
    if (!select(t.get_address(), a, function, reg)) return 0;
    const std::uint64_t addr = t.get_address();
    t.set_address(function * devices_[a].d.config_stride + reg);
    const unsigned n = out[devices_[a].config_out]->transport_dbg(t);
    t.set_address(addr);
    if (t.is_write()) decode();
    return n;
}

const TlmPciHost::Window* TlmPciHost::window(bool is_io, std::uint64_t addr, std::uint64_t n) const {
    for (const Window& w : windows_)
        if (w.io == is_io && addr >= w.base && n <= w.bytes && addr - w.base <= w.bytes - n) return &w;
    return nullptr;
}

void TlmPciHost::forward(bool is_io, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t addr = t.get_address();
    const std::uint64_t bus_addr = addr + (is_io ? io_base_ : memory_base_);
    const Window* w = window(is_io, bus_addr, t.get_data_length());
    if (!w) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);  // master abort
    delay += ps(hop_ps_);
    t.set_address(w->offset + (bus_addr - w->base));
    out[w->out]->b_transport(t, delay);
    t.set_address(addr);
}

unsigned TlmPciHost::forward_debug(bool is_io, tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    const std::uint64_t bus_addr = addr + (is_io ? io_base_ : memory_base_);
    const Window* w = window(is_io, bus_addr, t.get_data_length());
    if (!w) return 0;
    t.set_address(w->offset + (bus_addr - w->base));
    const unsigned n = out[w->out]->transport_dbg(t);
    t.set_address(addr);
    return n;
}

void TlmPciHost::memory_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    forward(false, t, delay);
}
unsigned TlmPciHost::memory_debug(tlm::tlm_generic_payload& t) { return forward_debug(false, t); }
void TlmPciHost::io_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    forward(true, t, delay);
}
unsigned TlmPciHost::io_debug(tlm::tlm_generic_payload& t) { return forward_debug(true, t); }

}  // namespace pcisim
