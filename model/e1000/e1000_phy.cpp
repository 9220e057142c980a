#include "e1000/e1000_phy.h"

#include "e1000/e1000_device_regs.h"

namespace pcisim::e1000 {

namespace {
// Control (register 0) bits.
constexpr std::uint16_t kSpeedMsb = 1u << 6, kFullDuplex = 1u << 8, kRestartAutoneg = 1u << 9,
                        kPowerDown = 1u << 11, kAutonegEnable = 1u << 12, kSpeedLsb = 1u << 13,
                        kReset = 1u << 15;
// Status (register 1): 100BASE-X and 10BASE-T full/half, extended status, preamble suppression,
// auto-negotiation ability, extended capabilities; link status 2 and auto-negotiation complete 5.
constexpr std::uint16_t kStatusAbilities = 0x7949, kLinkStatus = 1u << 2, kAutonegComplete = 1u << 5;
// Advertisement bits for a full-duplex link at each speed (registers 4 and 9).
constexpr std::uint16_t kAdvertise100Full = 1u << 8, kAdvertise10Full = 1u << 6,
                        kAdvertise1000Full = 1u << 9;
}  // namespace

Phy::Phy(const ModelIdentity& identity, unsigned link_mbps)
    : identity_(identity), link_mbps_(link_mbps) {
    reset_registers();
    resolve_link();
}

void Phy::reset_registers() {
    regs_.fill(0);
    regs_[kControl] = kAutonegEnable | kFullDuplex | kSpeedMsb;  // 1140h
    regs_[kId1] = static_cast<std::uint16_t>(identity_.phy_id >> 16);
    regs_[kId2] = static_cast<std::uint16_t>(identity_.phy_id);
    regs_[kAdvertise] = 0x01E1;   // 10/100 full and half, IEEE 802.3 selector
    regs_[kGigControl] = 0x0300;  // 1000BASE-T full and half
    regs_[kExtendedStatus] = 0x3000;
    regs_[kSpecificControl] = 0x0068;
    regs_[kExtSpecificControl] = 0x0C60;
}

// What the partner and this PHY agree on, and the registers that report it.
void Phy::resolve_link() {
    const std::uint16_t control = regs_[kControl];
    bool up = false;
    if (!held_in_reset_ && !(control & kPowerDown)) {
        if (control & kAutonegEnable) {
            up = link_mbps_ == 1000 ? (regs_[kGigControl] & kAdvertise1000Full)
                 : link_mbps_ == 100 ? (regs_[kAdvertise] & kAdvertise100Full)
                                     : (regs_[kAdvertise] & kAdvertise10Full);
        } else {
            const unsigned forced = (control & kSpeedMsb) ? 1000 : (control & kSpeedLsb) ? 100 : 10;
            up = forced == link_mbps_ && (control & kFullDuplex);
        }
    }
    const bool negotiated = up && (control & kAutonegEnable);
    // The partner's base page (register 5): acknowledge, its one ability, the 802.3 selector.
    regs_[kPartnerAbility] = !negotiated ? 0
        : static_cast<std::uint16_t>(1u << 14 | 1u |
                                     (link_mbps_ == 100 ? 1u << 8 : link_mbps_ == 10 ? 1u << 6 : 0));
    regs_[kExpansion] = negotiated ? 0x0005 : 0x0004;  // partner auto-negotiation able
    // 1000BASE-T status: local and remote receivers OK, partner 1000BASE-T full duplex.
    regs_[kGigStatus] = negotiated && link_mbps_ == 1000 ? 0x3800 : 0;
    // 88E1011 specific status: speed 15:14, full duplex 13, speed and duplex resolved 11, link 10.
    const unsigned speed_code = link_mbps_ == 1000 ? 2 : link_mbps_ == 100 ? 1 : 0;
    regs_[kSpecificStatus] = up ? static_cast<std::uint16_t>(speed_code << 14 | 1u << 13 | 1u << 11 | 1u << 10) : 0;
    if (up != link_up_) {
        if (!up) link_dropped_ = true;
        link_up_ = up;
        if (link_changed_) link_changed_(up);
    }
}

std::uint16_t Phy::peek(unsigned reg) const {
    reg &= 31;
    if (reg != kStatus) return regs_[reg];
    std::uint16_t v = kStatusAbilities;
    if (link_up_ && !link_dropped_) v |= kLinkStatus;
    if (link_up_ && (regs_[kControl] & kAutonegEnable)) v |= kAutonegComplete;
    return v;
}

std::uint16_t Phy::read(unsigned reg) {
    const std::uint16_t v = peek(reg);
    if ((reg & 31) == kStatus) link_dropped_ = false;  // the latched-low bit is read
    return v;
}

void Phy::write(unsigned reg, std::uint16_t value) {
    reg &= 31;
    switch (reg) {
    case kStatus: case kId1: case kId2: case kPartnerAbility: case kExpansion: case kGigStatus:
    case kExtendedStatus: case kSpecificStatus:
        return;  // read only
    case kControl:
        if (value & kReset) {
            // A software reset keeps the configuration written and renegotiates (88E1011: the
            // configuration bits take effect on reset).
            regs_[kControl] = static_cast<std::uint16_t>(value & ~(kReset | kRestartAutoneg));
            link_up_ = false, link_dropped_ = true;
            if (link_changed_) link_changed_(false);
        } else {
            regs_[kControl] = static_cast<std::uint16_t>(value & ~kRestartAutoneg);
        }
        break;
    default:
        regs_[reg] = value;
    }
    resolve_link();
}

void Phy::hold_reset(bool held) {
    if (held == held_in_reset_) return;
    held_in_reset_ = held;
    if (!held) reset_registers();
    resolve_link();
}

bool Phy::write_mdic(std::uint32_t value) {
    const unsigned reg = (value >> 16) & 31, address = (value >> 21) & 31;
    const std::uint32_t op = value & (3u << 26);
    std::uint32_t data = value & 0xFFFF;
    bool error = false;
    if (address != kAddress) {
        error = op == kMdicOpRead;  // no PHY answers at that address
        data = 0xFFFF;
    } else if (op == kMdicOpRead) {
        data = read(reg);
    } else if (op == kMdicOpWrite) {
        write(reg, static_cast<std::uint16_t>(data));
    }
    mdic_ = (value & ~(0xFFFFu | kMdicError)) | data | kMdicReady | (error ? kMdicError : 0);
    return value & kMdicInterrupt;
}

}  // namespace pcisim::e1000
