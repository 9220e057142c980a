#include "e1000/e1000_statistics_registers.h"

#include <string>

#include "e1000/e1000_device_regs.h"
#include "e1000/e1000_register_file.h"

namespace pcisim::e1000 {

namespace {
// The counters of 13.7 that exist on these parts, by offset; the flow control and management
// ones are left to DeviceControl (not modelled).
struct Counter {
    std::uint32_t offset;
    const char* name;
};
constexpr Counter kCounters[] = {
    {0x4000, "CRCERRS"}, {0x4004, "ALGNERRC"}, {0x4008, "SYMERRS"}, {0x400C, "RXERRC"},
    {0x4010, "MPC"},     {0x4014, "SCC"},      {0x4018, "ECOL"},    {0x401C, "MCC"},
    {0x4020, "LATECOL"}, {0x4028, "COLC"},     {0x4030, "DC"},      {0x4034, "TNCRS"},
    {0x4038, "SEC"},     {0x403C, "CEXTERR"},  {0x4040, "RLEC"},    {0x405C, "PRC64"},
    {0x4060, "PRC127"},  {0x4064, "PRC255"},   {0x4068, "PRC511"},  {0x406C, "PRC1023"},
    {0x4070, "PRC1522"}, {0x4074, "GPRC"},     {0x4078, "BPRC"},    {0x407C, "MPRC"},
    {0x4080, "GPTC"},    {0x40A0, "RNBC"},     {0x40A4, "RUC"},     {0x40A8, "RFC"},
    {0x40AC, "ROC"},     {0x40B0, "RJC"},      {0x40D0, "TPR"},     {0x40D4, "TPT"},
    {0x40D8, "PTC64"},   {0x40DC, "PTC127"},   {0x40E0, "PTC255"},  {0x40E4, "PTC511"},
    {0x40E8, "PTC1023"}, {0x40EC, "PTC1522"},  {0x40F0, "MPTC"},    {0x40F4, "BPTC"},
    {0x40F8, "TSCTC"},   {0x40FC, "TSCTFC"},
};
constexpr Counter kPairs[] = {{0x4088, "GORC"}, {0x4090, "GOTC"}, {0x40C0, "TOR"}, {0x40C8, "TOT"}};
}  // namespace

void StatisticsRegisters::map_registers(RegisterFile& r, std::function<void()> catch_up) {
    for (const Counter& c : kCounters) {
        const unsigned i = statistics_index(c.offset);
        r.add(c.offset, c.name, [this, i, catch_up] {
            catch_up();
            const std::uint32_t v = counters_[i];
            counters_[i] = 0;
            return v;
        }, nullptr, [this, i] { return counters_[i]; });
    }
    for (const Counter& c : kPairs) {
        const unsigned low = statistics_index(c.offset);
        r.add(c.offset, std::string(c.name) + "L", [this, low, catch_up] {
            catch_up();
            return counters_[low];
        }, nullptr);
        r.add(c.offset + 4, std::string(c.name) + "H", [this, low, catch_up] {
            catch_up();
            const std::uint32_t v = counters_[low + 1];
            counters_[low] = counters_[low + 1] = 0;
            return v;
        }, nullptr, [this, low] { return counters_[low + 1]; });
    }
}

}  // namespace pcisim::e1000
