#include "e1000/e1000_register_file.h"

#include <algorithm>
#include <stdexcept>

namespace pcisim::e1000 {

namespace {
bool before(const RegisterFile::Register& r, std::uint32_t offset) { return r.offset < offset; }
}  // namespace

void RegisterFile::insert(Register reg) {
    if (reg.offset % 4 != 0)
        throw std::logic_error("e1000 register file: " + reg.name + " at an offset that is not a dword's");
    auto at = std::lower_bound(registers_.begin(), registers_.end(), reg.offset, before);
    if (at != registers_.end() && at->offset == reg.offset)
        throw std::logic_error("e1000 register file: " + reg.name + " at an offset that " + at->name +
                               " has already");
    std::size_t index = static_cast<std::size_t>(at - registers_.begin());
    registers_.insert(at, std::move(reg));
    if (slot_of_dword_.size() <= registers_.back().offset / 4)
        slot_of_dword_.resize(registers_.back().offset / 4 + 1, 0);
    // Only the registers from the new one on moved up by one.  Ports add theirs mostly in
    // offset order, so this is usually one slot (a whole new table per register was quadratic:
    // 8 % of a sanitized validate run's time went to elaborating register files).
    for (std::size_t i = index; i < registers_.size(); ++i)
        slot_of_dword_[registers_[i].offset / 4] = static_cast<std::uint16_t>(i + 1);
}

void RegisterFile::add(std::uint32_t offset, std::string name, OnRead on_read, OnWrite on_write,
                       OnRead on_peek) {
    insert({offset, std::move(name), std::move(on_read), std::move(on_write), std::move(on_peek)});
}

void RegisterFile::add_not_modelled(std::uint32_t offset, std::string name, std::uint32_t reset_value) {
    Register r{offset, std::move(name), nullptr, nullptr, nullptr};
    r.modelled = false;
    r.reset_value = reset_value;
    insert(std::move(r));
}

const RegisterFile::Register* RegisterFile::find(std::uint32_t offset) const {
    std::size_t dword = offset / 4;
    if (offset % 4 != 0 || dword >= slot_of_dword_.size() || slot_of_dword_[dword] == 0)
        return nullptr;
    return &registers_[slot_of_dword_[dword] - 1];
}

RegisterFile::Accesses& RegisterFile::count(std::uint32_t offset, const Register* r) {
    Accesses& a = unimplemented_[offset];
    if (r && a.name.empty()) a.name = r->name;
    return a;
}

std::uint32_t RegisterFile::read(std::uint32_t offset) {
    const Register* r = find(offset);
    if (!r || !r->modelled) {
        ++count(offset, r).reads;
        return r ? r->reset_value : 0;
    }
    return r->on_read ? r->on_read() : 0;
}

void RegisterFile::write(std::uint32_t offset, std::uint32_t value) {
    const Register* r = find(offset);
    if (!r || !r->modelled) {
        ++count(offset, r).writes;
        return;
    }
    if (r->on_write) r->on_write(value);
}

std::uint32_t RegisterFile::peek(std::uint32_t offset) const {
    const Register* r = find(offset);
    if (!r) return 0;
    if (!r->modelled) return r->reset_value;
    if (r->on_peek) return r->on_peek();
    return r->on_read ? r->on_read() : 0;
}

}  // namespace pcisim::e1000
