#include "e1000/e1000_identity.h"

#include <stdexcept>

namespace pcisim::e1000 {

ModelIdentity ModelIdentity::of(const std::string& model) {
    // The Marvell PHYs (e1000_hw.h): M88E1011_I_PHY_ID 0x01410C20 on the 82540 and 82546,
    // M88E1000_I_PHY_ID 0x01410C30 on the 82544; IGP01E1000_I_PHY_ID 0x02A80380 on the 82541.
    // Revision 2 of each (a revision below M88E1011_I_REV_4: the driver sets the downshift
    // counters).
    if (model == "82540") return {0x100E, 0x001E, 0x02, 0x01410C22, false, false, true, true, EerdLayout::Done4Addr8};
    if (model == "82541") return {0x1013, 0x0013, 0x00, 0x02A80382, true, false, false, true, EerdLayout::Done1Addr2};
    if (model == "82544") return {0x1008, 0x1107, 0x02, 0x01410C32, false, true, true, false, EerdLayout::Done4Addr8};
    if (model == "82546") return {0x1010, 0x1011, 0x01, 0x01410C22, false, true, true, true, EerdLayout::Done4Addr8};
    throw std::invalid_argument("nic.model: \"" + model + "\" is not one of 82540 82541 82544 82546");
}

}  // namespace pcisim::e1000
