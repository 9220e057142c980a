// The registers of one port as the bus sees them: a table of named registers at their offsets in
// the port's BAR (8254x SDM 13.4), each with what a read returns and what a write does (in the
// spirit of VCML's reg.on_read()/on_write()).  The port fills the table; accesses dispatch
// through it.
//
// An offset with no register in the table answers as reserved space does (reads 0, writes are
// dropped), and a register whose mechanism the model does not have (flow control, wake-up, LEDs:
// add_not_modelled) reads its reset value and drops writes; both kinds of access are counted per
// offset, and the NIC reports the counts in its stats: a driver that relies on something the
// model lacks shows up instead of silently reading zero.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pcisim::e1000 {

class RegisterFile {
public:
    using OnRead = std::function<std::uint32_t()>;
    using OnWrite = std::function<void(std::uint32_t)>;

    struct Register {
        std::uint32_t offset;
        std::string name;  // as in the SDM: "TDT"
        OnRead on_read;    // none: write-only (ICS, IMC), reads 0
        OnWrite on_write;  // none: read-only (STATUS), writes are dropped
        OnRead on_peek;    // a read without side effects (clear-on-read registers); none: on_read
        bool modelled = true;
        std::uint32_t reset_value = 0;  // what a register the model lacks reads
    };
    struct Accesses {
        std::uint64_t reads = 0, writes = 0;
        std::string name;  // empty for an offset with no register
    };

    // Throws std::logic_error when the offset is not a dword's or has a register already.
    void add(std::uint32_t offset, std::string name, OnRead on_read, OnWrite on_write,
             OnRead on_peek = nullptr);
    // A register the model does not act on: reads return `reset_value` (the SDM's), writes are
    // dropped, both are counted.
    void add_not_modelled(std::uint32_t offset, std::string name, std::uint32_t reset_value);

    std::uint32_t read(std::uint32_t offset);
    void write(std::uint32_t offset, std::uint32_t value);
    // What a read would return, without its side effects or its count (debug access).
    std::uint32_t peek(std::uint32_t offset) const;

    const std::vector<Register>& registers() const { return registers_; }  // by offset
    // Accesses to offsets with no register or a register the model lacks, since construction.
    const std::map<std::uint32_t, Accesses>& unimplemented() const { return unimplemented_; }

private:
    const Register* find(std::uint32_t offset) const;
    void insert(Register r);
    Accesses& count(std::uint32_t offset, const Register* r);

    std::vector<Register> registers_;  // sorted by offset
    // By dword (offset / 4): 1 + the register's index in registers_, 0 for none.  One lookup
    // per access, not a search: the driver writes TDT for every packet.
    std::vector<std::uint16_t> slot_of_dword_;
    std::map<std::uint32_t, Accesses> unimplemented_;
};

}  // namespace pcisim::e1000
