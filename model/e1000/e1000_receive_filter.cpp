#include "e1000/e1000_receive_filter.h"

#include <string>

#include "e1000/e1000_device_regs.h"
#include "e1000/e1000_register_file.h"

namespace pcisim::e1000 {

void ReceiveFilter::map_registers(RegisterFile& r) {
    for (unsigned i = 0; i < kMtaEntries; ++i)
        r.add(kMta + 4 * i, "MTA[" + std::to_string(i) + "]", [this, i] { return mta_[i]; },
              [this, i](std::uint32_t v) { mta_[i] = v; });
    for (unsigned i = 0; i < 2 * kRaEntries; ++i)
        r.add(kRa + 4 * i, (i % 2 ? "RAH" : "RAL") + std::to_string(i / 2),
              [this, i] { return ra_[i]; }, [this, i](std::uint32_t v) {
                  // RAH: address 15:0, address select 17:16, AV 31.
                  ra_[i] = i % 2 ? (v & (0xFFFFu | 3u << 16 | kRahAv)) : v;
              });
    for (unsigned i = 0; i < kVftaEntries; ++i)
        r.add(kVfta + 4 * i, "VFTA[" + std::to_string(i) + "]", [this, i] { return vfta_[i]; },
              [this, i](std::uint32_t v) { vfta_[i] = v; });
    r.add(kVet, "VET", [this] { return vet_; }, [this](std::uint32_t v) { vet_ = v & 0xFFFF; });
}

void ReceiveFilter::reset(const MacAddress& s) {
    ra_.fill(0);
    ra_[0] = std::uint32_t(s[0]) | std::uint32_t(s[1]) << 8 | std::uint32_t(s[2]) << 16 |
             std::uint32_t(s[3]) << 24;
    ra_[1] = std::uint32_t(s[4]) | std::uint32_t(s[5]) << 8 | kRahAv;
    vet_ = 0x8100;
}

bool ReceiveFilter::exact_match(const std::uint8_t* d) const {
    const std::uint32_t low = std::uint32_t(d[0]) | std::uint32_t(d[1]) << 8 |
                              std::uint32_t(d[2]) << 16 | std::uint32_t(d[3]) << 24;
    const std::uint32_t high = std::uint32_t(d[4]) | std::uint32_t(d[5]) << 8;
    for (unsigned i = 0; i < kRaEntries; ++i) {
        const std::uint32_t rah = ra_[2 * i + 1];
        // Address select 00: the destination address (the others match source addresses).
        if ((rah & kRahAv) && ((rah >> 16) & 3) == 0 && ra_[2 * i] == low && (rah & 0xFFFF) == high)
            return true;
    }
    return false;
}

// The 12 hash bits (SDM 13.4.22, RCTL.MO): address bits 47:36, 46:35, 45:34 or 43:32, i.e. from
// the last two bytes of the address; the upper 7 select the MTA register, the lower 5 its bit.
bool ReceiveFilter::hash_match(const std::uint8_t* d, std::uint32_t rctl) const {
    const unsigned mo = (rctl >> kRctlMoShift) & 3;
    const unsigned shift = mo == 3 ? 0 : 4 - mo;  // of the fifth byte
    const unsigned hash = ((d[4] >> shift) | d[5] << (8 - shift)) & 0xFFF;
    return mta_[hash >> 5] >> (hash & 31) & 1;
}

bool ReceiveFilter::accepts(const std::uint8_t* frame, std::uint32_t len, std::uint32_t rctl) const {
    if (len < 14) return false;
    const std::uint8_t* dst = frame;
    if ((rctl & kRctlVfe) && (std::uint32_t(frame[12]) << 8 | frame[13]) == vet_ && len >= 16) {
        const unsigned vid = (frame[14] & 0x0F) << 8 | frame[15];
        if (!(vfta_[vid >> 5] >> (vid & 31) & 1)) return false;
    }
    const bool broadcast = (dst[0] & dst[1] & dst[2] & dst[3] & dst[4] & dst[5]) == 0xFF;
    if (broadcast && (rctl & kRctlBam)) return true;
    if (exact_match(dst)) return true;
    if (dst[0] & 1) return (rctl & kRctlMpe) || hash_match(dst, rctl);
    return rctl & kRctlUpe;
}

}  // namespace pcisim::e1000
