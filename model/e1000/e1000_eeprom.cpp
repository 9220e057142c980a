#include "e1000/e1000_eeprom.h"

#include <cstdio>

#include "e1000/e1000_device_regs.h"

namespace pcisim::e1000 {

bool parse_mac_address(const std::string& text, MacAddress& out) {
    if (text.size() != 17) return false;
    for (unsigned i = 0; i < 6; ++i) {
        unsigned v = 0;
        for (unsigned k = 0; k < 2; ++k) {
            const char c = text[3 * i + k];
            const int digit = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
            if (digit < 0) return false;
            v = v * 16 + static_cast<unsigned>(digit);
        }
        if (i < 5 && text[3 * i + 2] != ':') return false;
        out[i] = static_cast<std::uint8_t>(v);
    }
    return true;
}

std::string mac_address_text(const MacAddress& m) {
    char s[18];
    std::snprintf(s, sizeof s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    return s;
}

namespace {
// Microwire opcodes after the start bit (93C46 datasheet): 10 read; 01 write, 11 erase, 00 the
// extended ones (erase/write enable and disable, erase all, write all).
constexpr unsigned kOpRead = 0b10;
}  // namespace

Eeprom::Eeprom(const ModelIdentity& identity, const MacAddress& mac) : identity_(identity), mac_(mac) {
    image_.fill(0xFFFF);
    for (unsigned i = 0; i < 3; ++i)
        image_[i] = static_cast<std::uint16_t>(mac[2 * i] | mac[2 * i + 1] << 8);
    // ICW1 (SDM 5.6.6): load the subsystem IDs (bit 1) and the device ID (bit 0) from here.
    image_[kInitControl1] = 0x0003;
    image_[kSubsystemId] = identity.subsystem_id;
    image_[kSubsystemVendorId] = kIntelVendorId;
    image_[kDeviceId] = identity.device_id;
    image_[kVendorId] = kIntelVendorId;
    // ICW2 (SDM 5.6.7): auto-negotiation enabled (ANE, bit 11), PAUSE and ASM_DIR (13:12) clear.
    image_[kInitControl2] = 0x0800;
    // ICW3 of each port (SDM 5.6.11): no APM wake-up.
    image_[kInitControl3PortA] = 0x0000;
    image_[kInitControl3PortB] = 0x0000;
    std::uint16_t sum = 0;
    for (unsigned i = 0; i < kChecksumWord; ++i) sum = static_cast<std::uint16_t>(sum + image_[i]);
    image_[kChecksumWord] = static_cast<std::uint16_t>(kChecksumSum - sum);
}

std::uint32_t Eeprom::eecd() const {
    std::uint32_t v = pins_ | kEecdPres;
    if (data_out_) v |= kEecdDo;
    // The controller is not using the EEPROM itself: a request is granted at once.
    if (identity_.eeprom_grant && (pins_ & kEecdReq)) v |= kEecdGnt;
    return v;
}

// Microwire (93C46): with CS high, the device samples DI on each rising edge of SK: a start bit 1
// (leading 0s are ignored), two opcode bits, six address bits; for a read it then drives a dummy
// 0 and shifts the word out, MSB first, one bit per rising edge, and on into the next words while
// clocked.  CS low ends the command.
void Eeprom::write_eecd(std::uint32_t value) {
    const std::uint32_t driven = kEecdSk | kEecdCs | kEecdDi | kEecdFweMask | kEecdReq;
    const bool was_sk = pins_ & kEecdSk;
    pins_ = value & driven;
    if (!(pins_ & kEecdCs)) {
        phase_ = Phase::Start;
        data_out_ = true;
        return;
    }
    if ((pins_ & kEecdSk) && !was_sk) rising_edge(pins_ & kEecdDi);
}

void Eeprom::rising_edge(bool di) {
    switch (phase_) {
    case Phase::Start:
        if (di) phase_ = Phase::Opcode, bits_ = 0, opcode_ = 0;
        return;
    case Phase::Opcode:
        opcode_ = opcode_ << 1 | di;
        if (++bits_ == 2) phase_ = Phase::Address, bits_ = 0, address_ = 0;
        return;
    case Phase::Address:
        address_ = address_ << 1 | di;
        if (++bits_ < kAddressBits) return;
        if (opcode_ != kOpRead) {
            phase_ = Phase::Ignore;
            return;
        }
        phase_ = Phase::Data;
        shifting_ = image_[address_ % kWords];
        data_bit_ = 16;
        data_out_ = false;  // the dummy 0
        return;
    case Phase::Data:
        if (data_bit_ == 0) {  // sequential read: the next word follows
            address_ = (address_ + 1) % kWords;
            shifting_ = image_[address_];
            data_bit_ = 16;
        }
        --data_bit_;
        data_out_ = (shifting_ >> data_bit_) & 1;
        return;
    case Phase::Ignore:
        return;
    }
}

void Eeprom::write_eerd(std::uint32_t value) {
    const bool narrow = identity_.eerd == EerdLayout::Done1Addr2;
    const unsigned address_shift = narrow ? 2 : 8;
    const std::uint32_t done = narrow ? 1u << 1 : 1u << 4;
    if (!(value & 1)) {
        eerd_ = value & ~done;
        return;
    }
    const unsigned address = (value >> address_shift) & (narrow ? 0x3FFFu : 0xFFu);
    eerd_ = std::uint32_t(word(address)) << 16 | (value & (narrow ? 0xFFFCu : 0xFF00u)) | done;
}

}  // namespace pcisim::e1000
