// The copper PHY of one port, as software sees it through MDIC (SDM 8.6.2.4 and 13.4.7): the IEEE
// 802.3 clause 22 registers 0-15 and the vendor registers above them, at PHY address 1.  The link
// partner offers exactly nic.link_mbps, full duplex and no PAUSE; the link comes up at once when
// the PHY's configuration meets it (auto-negotiation advertising that speed full duplex, or that
// speed forced full duplex), and goes down while the PHY is powered down, held in reset or
// configured for something else.  STATUS.LU follows the link, and each change raises ICR.LSC
// (SDM 8.6.5.2).  A management frame is done when the MDIC write that starts it is (the part takes
// about 26 us at 2.5 MHz).
//
// Reset values are the Marvell 88E1011's for the registers the driver reads back and modifies
// (0, 4, 9, 16, 20); the status registers (1, 5, 6, 10, 17) follow the link.  Loopback, the PHY's
// interrupts, cable diagnostics and the IGP01E1000's DSP registers are stored and not acted on.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "e1000/e1000_identity.h"

namespace pcisim::e1000 {

class Phy {
public:
    static constexpr unsigned kAddress = 1;
    // Registers (IEEE 802.3 22.2.4; 88E1011 data sheet for 16-20).
    static constexpr unsigned kControl = 0, kStatus = 1, kId1 = 2, kId2 = 3, kAdvertise = 4,
                              kPartnerAbility = 5, kExpansion = 6, kGigControl = 9,
                              kGigStatus = 10, kExtendedStatus = 15, kSpecificControl = 16,
                              kSpecificStatus = 17, kExtSpecificControl = 20;

    Phy(const ModelIdentity& identity, unsigned link_mbps);

    // Called with the new state whenever the link goes up or down.
    void on_link_change(std::function<void(bool up)> fn) { link_changed_ = std::move(fn); }

    std::uint16_t read(unsigned reg);        // the status register's link bit latches low
    std::uint16_t peek(unsigned reg) const;  // without the latch's side effect
    void write(unsigned reg, std::uint16_t value);
    void hold_reset(bool held);  // CTRL.PHY_RST: registers to their reset values on release

    // MDIC: a read or write of a PHY register; true when it asks for ICR.MDAC (MDIC.I).
    std::uint32_t mdic() const { return mdic_; }
    bool write_mdic(std::uint32_t value);

    bool link_up() const { return link_up_; }
    unsigned speed_mbps() const { return link_mbps_; }

private:
    void reset_registers();
    void resolve_link();  // the link from the configuration, and the registers that report it

    const ModelIdentity identity_;
    unsigned link_mbps_;
    std::array<std::uint16_t, 32> regs_{};
    bool held_in_reset_ = false;
    bool link_up_ = false;
    bool link_dropped_ = false;  // the status register's latched-low link bit
    std::uint32_t mdic_ = 0;
    std::function<void(bool)> link_changed_;
};

}  // namespace pcisim::e1000
