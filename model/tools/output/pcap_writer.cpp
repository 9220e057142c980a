#include "tools/output/pcap_writer.h"

#include <algorithm>

#include "core/ethernet.h"
#include "tools/output/output_file.h"

namespace pcisim::output {

namespace {

// pcapng (IETF draft-ietf-opsawg-pcapng): block types, option codes and values used here.
constexpr std::uint32_t kSectionHeader = 0x0A0D0D0A, kInterfaceDescription = 1,
                        kEnhancedPacket = 6, kByteOrderMagic = 0x1A2B3C4D;
constexpr std::uint16_t kEndOfOptions = 0, kShbUserAppl = 4, kIfName = 2, kIfSpeed = 8,
                        kIfTsresol = 9, kEpbFlags = 2;
constexpr std::uint16_t kLinktypeEthernet = 1;
constexpr std::uint32_t kInbound = 1, kOutbound = 2;  // epb_flags bits 0-1: direction

// One block in little-endian byte order (the byte-order magic tells readers which).
class Block {
public:
    explicit Block(std::uint32_t type) { u32(type), u32(0); }
    void u16(std::uint16_t v) { bytes(&v, 2); }
    void u32(std::uint32_t v) { bytes(&v, 4); }
    void u64(std::uint64_t v) { bytes(&v, 8); }
    void bytes(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        out_.insert(out_.end(), b, b + n);
    }
    void pad() { out_.resize((out_.size() + 3) / 4 * 4, 0); }
    void option(std::uint16_t code, const void* p, std::uint16_t n) {
        u16(code), u16(n), bytes(p, n), pad();
    }
    void option(std::uint16_t code, const std::string& text) {
        option(code, text.data(), static_cast<std::uint16_t>(text.size()));
    }
    void end_options() { u16(kEndOfOptions), u16(0); }
    // Closes the block (its length at both ends) and appends it to `file`.
    void close_into(std::string& file) {
        auto total = static_cast<std::uint32_t>(out_.size() + 4);
        u32(total);
        std::copy(reinterpret_cast<const std::uint8_t*>(&total),
                  reinterpret_cast<const std::uint8_t*>(&total) + 4, out_.begin() + 4);
        file.append(out_.begin(), out_.end());
    }

private:
    std::vector<std::uint8_t> out_;
};

}  // namespace

void PcapCapture::attach(Simulation& sim) {
    sim.on_wire_frame([this](const WireFrame& f) { add(f); });
}

void PcapCapture::add(const WireFrame& f) {
    auto it = std::find(interfaces_.begin(), interfaces_.end(), f.interface);
    if (it == interfaces_.end()) it = interfaces_.insert(it, f.interface);
    Frame frame{static_cast<unsigned>(it - interfaces_.begin()), f.received, f.start,
                std::vector<std::uint8_t>(f.data, f.data + f.len)};
    // A frame shorter than the minimum leaves with padding (the capture has no FCS).
    if (frame.data.size() < kMinFrameBytes) frame.data.resize(kMinFrameBytes, 0);
    frames_.push_back(std::move(frame));
}

std::string PcapCapture::pcapng() const {
    std::string file;
    Block shb(kSectionHeader);
    shb.u32(kByteOrderMagic), shb.u16(1), shb.u16(0), shb.u64(~std::uint64_t(0));  // length unknown
    shb.option(kShbUserAppl, application_);
    shb.end_options();
    shb.close_into(file);
    for (const auto& name : interfaces_) {
        Block idb(kInterfaceDescription);
        idb.u16(kLinktypeEthernet), idb.u16(0), idb.u32(0);  // snaplen 0: no limit
        idb.option(kIfName, name);
        const std::uint8_t nanoseconds = 9;  // if_tsresol: 10^-9 s
        idb.option(kIfTsresol, &nanoseconds, 1);
        const std::uint64_t bits_per_s = 1000000000;
        idb.option(kIfSpeed, &bits_per_s, 8);
        idb.end_options();
        idb.close_into(file);
    }
    // In time order; a port's frames, and frames at the same instant, stay in the order seen.
    std::vector<const Frame*> order;
    for (const auto& f : frames_) order.push_back(&f);
    std::stable_sort(order.begin(), order.end(),
                     [](const Frame* a, const Frame* b) { return a->start < b->start; });
    for (const Frame* f : order) {
        Block epb(kEnhancedPacket);
        const std::uint64_t ns = static_cast<std::uint64_t>(f->start / 1000);
        const auto len = static_cast<std::uint32_t>(f->data.size());
        epb.u32(f->interface), epb.u32(static_cast<std::uint32_t>(ns >> 32)),
            epb.u32(static_cast<std::uint32_t>(ns)), epb.u32(len), epb.u32(len);
        epb.bytes(f->data.data(), len);
        epb.pad();
        const std::uint32_t flags = f->received ? kInbound : kOutbound;
        epb.option(kEpbFlags, &flags, 4);
        epb.end_options();
        epb.close_into(file);
    }
    return file;
}

void PcapCapture::write(const std::string& path) const { write_output(path, pcapng()); }

}  // namespace pcisim::output
