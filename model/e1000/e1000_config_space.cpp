#include "e1000/e1000_config_space.h"

#include "e1000/e1000_params.h"

namespace pcisim::e1000 {

namespace {
// PCI capability IDs (PCI 2.3 Appendix H).
constexpr std::uint8_t kCapPowerManagement = 0x01, kCapPciX = 0x07, kCapMsi = 0x05;
constexpr unsigned kPmAt = 0xDC, kPciXAt = 0xE4, kMsiAt = 0xF0;

unsigned mmrbc_code(unsigned bytes) {  // 512 1024 2048 4096 -> 0 1 2 3
    unsigned code = 0;
    while ((512u << code) < bytes && code < 3) ++code;
    return code;
}
}  // namespace

void ConfigSpace::put(unsigned offset, unsigned bytes, std::uint32_t value, std::uint32_t writable,
                      std::uint32_t write_one_to_clear) {
    for (unsigned i = 0; i < bytes; ++i) {
        bytes_[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
        writable_[offset + i] = static_cast<std::uint8_t>(writable >> (8 * i));
        clear_on_one_[offset + i] = static_cast<std::uint8_t>(write_one_to_clear >> (8 * i));
    }
}

ConfigSpace::ConfigSpace(const ModelTraits& traits, unsigned function, Devsel devsel,
                         unsigned mmrbc_bytes) {
    const ModelIdentity& id = traits.identity;
    put(0x00, 2, kIntelVendorId);
    put(0x02, 2, id.device_id);
    // Command: I/O, memory, bus master, MWI, parity and SERR# responses, interrupt disable.
    put(0x04, 2, 0, 0x0557);
    // Status: capabilities list, 66 MHz capable, DEVSEL timing; error bits write-1-to-clear.
    const unsigned devsel_code = devsel == Devsel::Fast ? 0 : devsel == Devsel::Medium ? 1 : 2;
    put(0x06, 2, 1u << 4 | 1u << 5 | devsel_code << 9, 0, 0xF900);
    put(0x08, 1, id.revision_id);
    put(0x09, 3, 0x020000);  // network controller, Ethernet
    put(0x0C, 1, 0, 0xFF);   // cache line size
    put(0x0D, 1, 0, 0xFF);   // latency timer
    put(0x0E, 1, traits.ports > 1 ? 0x80 : 0x00);
    // The register BAR: 128 KB, non-prefetchable, 32- or 64-bit.
    const std::uint32_t register_mask = ~static_cast<std::uint32_t>(kRegisterBarBytes - 1);
    if (id.memory_bar_64) {
        put(0x10, 4, 0x4, register_mask);
        put(0x14, 4, 0, 0xFFFFFFFF);
        io_bar_ = 4;
    }
    else {
        put(0x10, 4, 0x0, register_mask);
        io_bar_ = 2;
    }
    put(0x10 + 4 * io_bar_, 4, 0x1, ~static_cast<std::uint32_t>(kIoBarBytes - 1));
    put(0x2C, 2, kIntelVendorId);
    put(0x2E, 2, id.subsystem_id);
    put(0x34, 1, kPmAt);
    put(0x3C, 1, 0, 0xFF);            // interrupt line, the system's to write
    put(0x3D, 1, 1 + (function & 1)); // INTA#, INTB# for the second function
    put(0x3E, 1, 0xFF);               // Min_Gnt
    put(0x3F, 1, 0x00);               // Max_Lat
    // Power management (SDM 6.3.3): version 2 (PCI PM 1.1), DSI, PME from D0, D3hot and D3cold,
    // no D1/D2.  PMCSR: PowerState 1:0 and PME_En 8 writable, PME_Status 15 write-1-to-clear.
    const unsigned after_pm = traits.pci_x ? kPciXAt : id.msi ? kMsiAt : 0;
    put(kPmAt, 1, kCapPowerManagement);
    put(kPmAt + 1, 1, after_pm);
    put(kPmAt + 2, 2, 0xC822);
    put(kPmAt + 4, 2, 0, 0x0103, 0x8000);
    if (traits.pci_x) {
        pcix_at_ = kPciXAt;
        put(kPciXAt, 1, kCapPciX);
        put(kPciXAt + 1, 1, id.msi ? kMsiAt : 0);
        // Command: data parity recovery, relaxed ordering, MMRBC 3:2, MOST 6:4.
        put(kPciXAt + 2, 2, mmrbc_code(mmrbc_bytes) << 2, 0x007F);
        // Status: function, device 1Fh and bus FFh until a configuration write captures them,
        // 64-bit device, 133 MHz capable, designed MMRBC 4 KB; error bits write-1-to-clear.
        put(kPciXAt + 4, 4, (function & 7) | 0x1Fu << 3 | 0xFFu << 8 | 1u << 16 | 1u << 17 | 3u << 21,
            0, 1u << 18 | 1u << 19 | 1u << 29);
    }
    if (id.msi) {
        msi_at_ = kMsiAt;
        put(kMsiAt, 1, kCapMsi);
        put(kMsiAt + 1, 1, 0);
        put(kMsiAt + 2, 2, 1u << 7, 0x0071);  // 64-bit address capable; enable, MME writable
        put(kMsiAt + 4, 4, 0, 0xFFFFFFFC);
        put(kMsiAt + 8, 4, 0, 0xFFFFFFFF);
        put(kMsiAt + 12, 2, 0, 0xFFFF);
    }
}

std::uint32_t ConfigSpace::read(unsigned offset, unsigned bytes) const {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < bytes && offset + i < kBytes; ++i)
        v |= std::uint32_t(bytes_[offset + i]) << (8 * i);
    return v;
}

void ConfigSpace::write(unsigned offset, unsigned bytes, std::uint32_t value) {
    for (unsigned i = 0; i < bytes && offset + i < kBytes; ++i) {
        const auto b = static_cast<std::uint8_t>(value >> (8 * i));
        std::uint8_t& cell = bytes_[offset + i];
        cell = static_cast<std::uint8_t>((cell & ~writable_[offset + i]) | (b & writable_[offset + i]));
        cell = static_cast<std::uint8_t>(cell & ~(b & clear_on_one_[offset + i]));
    }
}

std::uint64_t ConfigSpace::register_base() const {
    std::uint64_t base = read(0x10, 4) & ~0xFu;
    if (read(0x10, 4) & 0x4) base |= std::uint64_t(read(0x14, 4)) << 32;
    return base;
}

std::uint32_t ConfigSpace::io_base() const { return read(0x10 + 4 * io_bar_, 4) & ~0x3u; }

bool ConfigSpace::msi_enabled() const { return msi_at_ && (read(msi_at_ + 2, 2) & 1); }

std::uint64_t ConfigSpace::msi_address() const {
    return msi_at_ ? (std::uint64_t(read(msi_at_ + 8, 4)) << 32 | read(msi_at_ + 4, 4)) : 0;
}

std::uint16_t ConfigSpace::msi_data() const {
    return msi_at_ ? static_cast<std::uint16_t>(read(msi_at_ + 12, 2)) : 0;
}

void ConfigSpace::set_interrupt_status(bool asserted) {
    if (asserted) bytes_[0x06] |= 1u << 3;
    else bytes_[0x06] &= static_cast<std::uint8_t>(~(1u << 3));
}

void ConfigSpace::set_location(unsigned bus, unsigned device) {
    if (!pcix_at_) return;
    bytes_[pcix_at_ + 4] = static_cast<std::uint8_t>((bytes_[pcix_at_ + 4] & 7u) | (device & 0x1Fu) << 3);
    bytes_[pcix_at_ + 5] = static_cast<std::uint8_t>(bus);
}

}  // namespace pcisim::e1000
