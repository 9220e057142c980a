#include "tools/sweep/sweep_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "tools/output/json_text.h"
#include "tools/output/output_file.h"

namespace pcisim::sweep {

using nlohmann::json;

namespace {

struct JournalText {
    std::vector<json> lines;    // the whole lines that parse, up to the first that does not
    std::size_t good_bytes = 0;  // their length in the file
};

JournalText read_lines(const std::string& path) {
    JournalText j;
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) break;  // torn: written without its end
        try {
            j.lines.push_back(json::parse(text.begin() + static_cast<long>(at),
                                          text.begin() + static_cast<long>(end)));
        } catch (const json::exception&) {
            break;
        }
        at = end + 1;
        j.good_bytes = at;
    }
    return j;
}

void write_line(int fd, const std::string& line, const std::string& path) {
    for (std::size_t at = 0; at < line.size();) {
        ssize_t n = write(fd, line.data() + at, line.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        at += static_cast<std::size_t>(n);
    }
    if (fsync(fd) != 0)
        throw std::runtime_error("cannot flush " + path + ": " + std::strerror(errno));
}

// The first line: the sweep's identity, and what started it (kept by a resumed run).
json header(const SweepTable& table) {
    json h = identity_json(table);
    if (!table.provenance.is_null()) h["provenance"] = table.provenance;
    return h;
}

// Whether a journal's header is that of the sweep `table` describes, whoever started it.
bool same_sweep(json journal_header, const SweepTable& table) {
    journal_header.erase("provenance");
    return journal_header == identity_json(table);
}

std::runtime_error different_sweep(const std::string& path) {
    return std::runtime_error(path +
                              " was written by a different sweep (scenario, its contents, --set, "
                              "--vary or --shard differ); expected the same command line");
}

}  // namespace

SweepJournal::SweepJournal(const std::string& path, const SweepTable& table,
                           bool continue_existing)
    : path_(path), axes_(table.axes) {
    JournalText existing;
    if (continue_existing) existing = read_lines(path);
    bool keep = !existing.lines.empty();
    if (keep && !same_sweep(existing.lines.front(), table)) throw different_sweep(path);
    fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
    // Drop a torn last line (or, starting afresh, everything) before appending.
    off_t keep_bytes = keep ? static_cast<off_t>(existing.good_bytes) : 0;
    if (ftruncate(fd_, keep_bytes) != 0 || lseek(fd_, keep_bytes, SEEK_SET) < 0) {
        std::string why = std::strerror(errno);
        close(fd_);
        throw std::runtime_error("cannot truncate " + path + ": " + why);
    }
    good_bytes_ = keep_bytes;
    if (!keep) {
        const std::string line = output::json_text(header(table), -1, path) + "\n";
        write_line(fd_, line, path);
        good_bytes_ = static_cast<off_t>(line.size());
        output::sync_folder_of(path);  // the new file's name must survive a power cut too
    }
}

SweepJournal::~SweepJournal() {
    if (fd_ >= 0) close(fd_);
}

void SweepJournal::append(const SweepRow& row) {
    // Strings in a row come from the axes and the worker's messages; the identity check made
    // the axes' valid.  A worker's message with stray bytes is mended rather than lost.
    std::string line =
        row_json(axes_, row).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    try {
        write_line(fd_, line, path_);
    } catch (const std::runtime_error&) {
        // A full disk may have taken part of the line: cut it off, so that the journal ends
        // with a whole line and the next append (after --resume) is read too.
        if (ftruncate(fd_, good_bytes_) == 0) fsync(fd_);
        lseek(fd_, good_bytes_, SEEK_SET);
        throw;
    }
    good_bytes_ += static_cast<off_t>(line.size());
    ++appended_;
}

void SweepJournal::remove() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    unlink(path_.c_str());
    output::sync_folder_of(path_);
}

std::map<std::size_t, SweepRow> SweepJournal::read(const std::string& path,
                                                   const SweepTable& table) {
    std::map<std::size_t, SweepRow> rows;
    JournalText j = read_lines(path);
    if (j.lines.empty()) return rows;
    if (!same_sweep(j.lines.front(), table)) throw different_sweep(path);
    for (std::size_t i = 1; i < j.lines.size(); ++i) {
        SweepRow row;
        try {
            row = row_from_json(table.axes, j.lines[i]);
            check_row(table, row);
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(path + ": line " + std::to_string(i + 1) + ": " + e.what());
        }
        rows[row.index] = std::move(row);
    }
    return rows;
}

json SweepJournal::recorded_provenance(const std::string& path) {
    JournalText j = read_lines(path);
    if (j.lines.empty()) return json();
    return j.lines.front().value("provenance", json());
}

}  // namespace pcisim::sweep
