#include "e1000/e1000_device_control.h"

#include "e1000/e1000_device_regs.h"
#include "e1000/e1000_interrupts.h"
#include "e1000/e1000_register_file.h"

namespace pcisim::e1000 {

namespace {
// Registers whose mechanism the model does not have, with their reset values (SDM 13.4; LEDCTL:
// LED0 LINK_UP, LED1 FILTER_ACTIVITY blinking, LED2 LINK_100, LED3 LINK_1000).
struct NotModelled {
    std::uint32_t offset;
    const char* name;
    std::uint32_t reset;
};
constexpr NotModelled kNotModelled[] = {
    {0x001C, "FLA", 0},        {0x0028, "FCAL", 0},       {0x002C, "FCAH", 0},
    {0x0030, "FCT", 0},        {0x0170, "FCTTV", 0},      {0x0178, "TXCW", 0},
    {0x0180, "RXCW", 0},       {0x0458, "AIT", 0},        {0x0E00, "LEDCTL", 0x07068302},
    {0x2160, "FCRTL", 0},      {0x2168, "FCRTH", 0},      {0x4048, "XONRXC", 0},
    {0x404C, "XONTXC", 0},     {0x4050, "XOFFRXC", 0},    {0x4054, "XOFFTXC", 0},
    {0x4058, "FCRUC", 0},      {0x40B4, "MGTPRC", 0},     {0x40B8, "MGTPDC", 0},
    {0x40BC, "MGTPTC", 0},     {0x5000, "RXCSUM", 0},     {0x5800, "WUC", 0},
    {0x5808, "WUFC", 0},       {0x5810, "WUS", 0},        {0x5820, "MANC", 0},
    {0x5838, "IPAV", 0},
};
}  // namespace

DeviceControl::DeviceControl(unsigned function, const E1000Params& params, Eeprom& eeprom, Phy& phy,
                             InterruptLogic& irq, std::function<void()> reset_mac,
                             std::function<void()> reload)
    : function_(function), params_(params), eeprom_(eeprom), phy_(phy), irq_(irq),
      reset_mac_(std::move(reset_mac)), reload_(std::move(reload)) {
    phy_.on_link_change([this](bool) { irq_.raise(kIcrLsc); });
}

void DeviceControl::map_registers(RegisterFile& r) {
    r.add(kCtrl, "CTRL", [this] { return ctrl_; }, [this](std::uint32_t v) { write_ctrl(v); });
    r.add(kStatus, "STATUS", [this] { return status(); }, nullptr);
    r.add(kEecd, "EECD", [this] { return eeprom_.eecd(); },
          [this](std::uint32_t v) { eeprom_.write_eecd(v); });
    r.add(kEerd, "EERD", [this] { return eeprom_.eerd(); },
          [this](std::uint32_t v) { eeprom_.write_eerd(v); });
    r.add(kCtrlExt, "CTRL_EXT", [this] { return ctrl_ext_; }, [this](std::uint32_t v) {
        ctrl_ext_ = v & ~kCtrlExtEeRst;  // self-clearing
        if (v & kCtrlExtEeRst) reload_();
    });
    r.add(kMdic, "MDIC", [this] { return phy_.mdic(); }, [this](std::uint32_t v) {
        if (phy_.write_mdic(v)) irq_.raise(kIcrMdac);
    });
    for (const NotModelled& n : kNotModelled) r.add_not_modelled(n.offset, n.name, n.reset);
}

void DeviceControl::write_ctrl(std::uint32_t value) {
    if (value & kCtrlRst) {
        reset_mac_();  // the whole MAC, this register with it; RST reads 0 after (self-clearing)
        reload_();
        return;
    }
    ctrl_ = value;
    phy_.hold_reset(value & kCtrlPhyRst);
}

std::uint32_t DeviceControl::status() const {
    std::uint32_t v = (function_ & 3u) << 2;
    if (phy_.link_up()) {
        const unsigned speed = phy_.speed_mbps() == 1000 ? 2 : phy_.speed_mbps() == 100 ? 1 : 0;
        v |= kStatusFd | kStatusLu | speed << kStatusSpeedShift;
    }
    const BusSlot& slot = params_.slot;
    if (slot.width_bits >= 64 && params_.traits.bus_width_bits >= 64) v |= kStatusBus64;
    if (slot.pcix) {
        v |= kStatusPcixMode;
        const unsigned code = slot.clock_mhz > 100 ? 2 : slot.clock_mhz > 66.7 ? 1 : 0;
        v |= code << kStatusPcixSpeedShift;
    } else if (slot.clock_mhz > 34) {
        v |= kStatusPci66;
    }
    return v;
}

}  // namespace pcisim::e1000
