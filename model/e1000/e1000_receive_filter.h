// The receive address filters of one port (SDM 3.1.1 "Address filtering", 13.4.22 RCTL, 13.5):
// 16 exact addresses (RAL/RAH, RAH.AV marks a valid one; RA[0] holds the station address, loaded
// from the EEPROM at reset), the 4096-bit multicast hash table (MTA, the hash's 12 bits chosen by
// RCTL.MO), the VLAN filter table (VFTA, applied with RCTL.VFE to frames whose type is VET) and
// the unicast/multicast promiscuous and accept-broadcast bits of RCTL.
#pragma once

#include <array>
#include <cstdint>

#include "e1000/e1000_eeprom.h"

namespace pcisim::e1000 {

class RegisterFile;

class ReceiveFilter {
public:
    void map_registers(RegisterFile& r);
    // Reset: RA[0] is the station address from the EEPROM, the other addresses invalid.  The
    // tables are not initialized by a reset (software clears them).
    void reset(const MacAddress& station);

    // Whether a frame with these bytes (at least 14) passes with receive control `rctl`.
    bool accepts(const std::uint8_t* frame, std::uint32_t len, std::uint32_t rctl) const;
    std::uint32_t vet() const { return vet_; }

private:
    bool exact_match(const std::uint8_t* dst) const;
    bool hash_match(const std::uint8_t* dst, std::uint32_t rctl) const;

    std::array<std::uint32_t, 2 * 16> ra_{};  // RAL0, RAH0, RAL1, ...
    std::array<std::uint32_t, 128> mta_{};
    std::array<std::uint32_t, 128> vfta_{};
    std::uint32_t vet_ = 0x8100;  // VLAN ether type (SDM 13.4.13: 8100h)
};

}  // namespace pcisim::e1000
