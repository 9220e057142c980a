// The device-level registers of one port (SDM 13.4.1-13.4.7): CTRL with its resets, STATUS,
// EECD and EERD (the shared EEPROM), CTRL_EXT, MDIC (the port's PHY), and the registers whose
// mechanism the model does not have, which read their reset value and are counted (flow control,
// wake-up, management, LEDs, the fiber link's TXCW/RXCW, receive checksum offload, adaptive IFS).
//
// CTRL.RST resets the port's MAC: every register but the configuration space and the PHY goes
// back to its reset value and RA[0] is loaded from the EEPROM (CTRL.RST in SDM 13.4.1; the
// Linux driver waits for that reload after the reset).  CTRL.PHY_RST holds the PHY in reset while set.
// CTRL_EXT.EE_RST reloads RA[0] from the EEPROM.  STATUS reports the PHY's link (LU, FD, SPEED;
// CTRL.SLU is stored, the model's MAC sends either way), the function number and the bus the
// part sits on (PCI66, BUS64, PCIX_MODE and its speed).
#pragma once

#include <cstdint>
#include <functional>

#include "e1000/e1000_eeprom.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_phy.h"

namespace pcisim::e1000 {

class InterruptLogic;
class RegisterFile;

class DeviceControl {
public:
    // `reset_mac` puts the rest of the port (transmit, receive, interrupts, statistics, filters)
    // to its reset state; `reload` takes the station address from the EEPROM into RA[0].
    DeviceControl(unsigned function, const E1000Params& params, Eeprom& eeprom, Phy& phy,
                  InterruptLogic& irq, std::function<void()> reset_mac, std::function<void()> reload);

    void map_registers(RegisterFile& r);
    std::uint32_t status() const;
    std::uint32_t ctrl() const { return ctrl_; }
    void reset() { ctrl_ = 0, ctrl_ext_ = 0; }

private:
    void write_ctrl(std::uint32_t value);

    unsigned function_;
    const E1000Params& params_;
    Eeprom& eeprom_;
    Phy& phy_;
    InterruptLogic& irq_;
    std::function<void()> reset_mac_, reload_;
    std::uint32_t ctrl_ = 0, ctrl_ext_ = 0;
};

}  // namespace pcisim::e1000
