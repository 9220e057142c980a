#include "e1000/e1000_register_file.h"

#include <algorithm>
#include <stdexcept>

namespace pcisim::e1000 {

namespace {
bool before(const RegisterFile::Register& r, std::uint32_t offset) { return r.offset < offset; }
}  // namespace

void RegisterFile::add(std::uint32_t offset, std::string name, OnRead on_read, OnWrite on_write) {
    auto at = std::lower_bound(registers_.begin(), registers_.end(), offset, before);
    if (at != registers_.end() && at->offset == offset)
        throw std::logic_error("e1000 register file: " + name + " at an offset that " + at->name +
                               " has already");
    registers_.insert(at, {offset, std::move(name), std::move(on_read), std::move(on_write)});
}

const RegisterFile::Register* RegisterFile::find(std::uint32_t offset) const {
    auto at = std::lower_bound(registers_.begin(), registers_.end(), offset, before);
    return at != registers_.end() && at->offset == offset ? &*at : nullptr;
}

std::uint32_t RegisterFile::read(std::uint32_t offset) {
    const Register* r = find(offset);
    if (!r) {
        ++unimplemented_[offset].reads;
        return 0;
    }
    return r->on_read ? r->on_read() : 0;
}

void RegisterFile::write(std::uint32_t offset, std::uint32_t value) {
    const Register* r = find(offset);
    if (!r) {
        ++unimplemented_[offset].writes;
        return;
    }
    if (r->on_write) r->on_write(value);
}

}  // namespace pcisim::e1000
