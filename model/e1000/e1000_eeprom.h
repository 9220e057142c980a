// The serial EEPROM of an 8254x (SDM 5: its word map in 5.6, software access in 5.3.1): a 64-word
// Microwire part (93C46, 6 address bits), shared by the functions of an 82546.  Software reads it
// two ways: the EERD register (the controller reads a word for it), and bit-banging the four wires
// through EECD (SK, CS, DI, DO; after EE_REQ/EE_GNT on parts after the 82544), which is how the
// Linux 2.6 driver reads it (e1000_hw.c, e1000_read_eeprom on a Microwire part).
//
// The image: the MAC address (words 0-2, from nic.mac_address), the ID LED word left to the
// driver's default, the subsystem and device IDs (words Bh-Eh, as in the configuration space),
// initialization control word 2 with no PAUSE ability (flow control is not modelled), both ports'
// initialization control word 3 without APM wake-up, reserved words FFFFh, and the checksum word
// 3Fh that makes words 0-3Fh sum to BABAh.  The model's EEPROM is read-only: Microwire erase and
// write commands are ignored.  EERD's read is done when the write that starts it is (the part
// takes some microseconds).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "e1000/e1000_identity.h"

namespace pcisim::e1000 {

using MacAddress = std::array<std::uint8_t, 6>;
// "00:1b:21:0a:0b:0c" (hex bytes separated by ':'); false if it is not one.
bool parse_mac_address(const std::string& text, MacAddress& out);
std::string mac_address_text(const MacAddress& mac);

class Eeprom {
public:
    static constexpr unsigned kWords = 64;
    static constexpr unsigned kAddressBits = 6;
    static constexpr unsigned kChecksumWord = 0x3F;
    static constexpr std::uint16_t kChecksumSum = 0xBABA;
    // Words of the map the model fills (SDM Table 5-2).
    static constexpr unsigned kIdLedWord = 0x04, kInitControl1 = 0x0A, kSubsystemId = 0x0B,
                              kSubsystemVendorId = 0x0C, kDeviceId = 0x0D, kVendorId = 0x0E,
                              kInitControl2 = 0x0F, kInitControl3PortB = 0x14,
                              kInitControl3PortA = 0x24;

    Eeprom(const ModelIdentity& identity, const MacAddress& mac);

    std::uint16_t word(unsigned i) const { return image_[i % kWords]; }
    MacAddress mac() const { return mac_; }

    // EECD: the pins as software drives them (SK, CS, DI) and the request bit; DO, the grant and
    // the present bit as the EEPROM and the controller drive them.
    std::uint32_t eecd() const;
    void write_eecd(std::uint32_t value);
    // EERD: a write with START reads the addressed word.
    std::uint32_t eerd() const { return eerd_; }
    void write_eerd(std::uint32_t value);

private:
    enum class Phase { Start, Opcode, Address, Data, Ignore };
    void rising_edge(bool di);

    const ModelIdentity identity_;
    MacAddress mac_;
    std::array<std::uint16_t, kWords> image_{};
    // The Microwire state: what software drives, what the EEPROM is doing.
    std::uint32_t pins_ = 0;  // SK, CS, DI, FWE, EE_REQ as last written
    Phase phase_ = Phase::Start;
    unsigned bits_ = 0, opcode_ = 0, address_ = 0;
    std::uint16_t shifting_ = 0;  // the word being shifted out
    unsigned data_bit_ = 0;       // bits of it left
    bool data_out_ = true;        // DO: high (ready) between commands
    std::uint32_t eerd_ = 0;
};

}  // namespace pcisim::e1000
