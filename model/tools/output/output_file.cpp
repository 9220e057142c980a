#include "tools/output/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tools/output/verbosity.h"

namespace fs = std::filesystem;

namespace pcisim::output {

namespace {

std::string folder_of(const std::string& path) {
    fs::path folder = fs::path(path).parent_path();
    return folder.empty() ? "." : folder.string();
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ignored;  // a file that is not there is no input
    return fs::equivalent(a, b, ignored);
}

void write_all(int fd, const std::string& text, const std::string& path) {
    for (std::size_t at = 0; at < text.size();) {
        ssize_t n = write(fd, text.data() + at, text.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw OutputError("cannot write " + path + ": " + std::strerror(errno));
        at += static_cast<std::size_t>(n);
    }
}

// PATH.tmp-PID: in the target's folder, so that the rename stays inside one file system.
std::string temporary_for(const std::string& path) { return path + ".tmp-"; }

}  // namespace

void check_output_path(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs) {
    const std::string folder = folder_of(path);
    struct stat st {};
    if (stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw OutputError(option + " " + path + ": the folder " + folder +
                          " does not exist; expected an existing folder");
    if (access(folder.c_str(), W_OK | X_OK) != 0)
        throw OutputError(option + " " + path + ": the folder " + folder + " is not writable (" +
                          std::strerror(errno) + "); expected a writable folder");
    if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw OutputError(option + " " + path +
                          ": not a regular file (a device, FIFO or folder would be replaced); "
                          "expected a regular file or a new file's name");
    for (const auto& input : inputs)
        if (same_file(path, input))
            throw OutputError(option + " " + path + ": is the input file " + input +
                              "; expected a different file for the output");
}

void sync_folder_of(const std::string& path) {
    int fd = open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;  // the rename is done; a folder we cannot open we cannot flush either
    fsync(fd);
    close(fd);
}

void write_text_file(const std::string& path, const std::string& text) {
    errno = 0;
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out)
        throw OutputError("cannot write " + path + ": " +
                          (errno ? std::strerror(errno) : "the write failed"));
}

bool is_stdout(const std::string& path) { return path == "-"; }

std::ostream& report_stream(const std::string& json_path) {
    if (quiet()) return null_stream();
    return is_stdout(json_path) ? std::cerr : std::cout;
}

void write_output(const std::string& path, const std::string& text) {
    if (!is_stdout(path)) return write_text_file(path, text);
    // main() checks that the standard output took it all (a closed pipe, a full disk).
    std::cout << text;
}

void remove_stale_temporaries(const std::string& path) {
    const std::string prefix = fs::path(temporary_for(path)).filename().string();
    std::error_code ignored;  // litter that cannot be removed is still only litter
    for (const auto& entry : fs::directory_iterator(folder_of(path), ignored)) {
        const std::string name = entry.path().filename().string();
        if (name.compare(0, prefix.size(), prefix) == 0 && entry.is_regular_file(ignored))
            fs::remove(entry.path(), ignored);
    }
}

void write_file_durably(const std::string& path, const std::string& text) {
    std::string tmp = temporary_for(path) + std::to_string(getpid());
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw OutputError("cannot create " + tmp + ": " + std::strerror(errno));
    try {
        write_all(fd, text, tmp);
        if (fsync(fd) != 0) throw OutputError("cannot flush " + tmp + ": " + std::strerror(errno));
    } catch (const OutputError&) {
        close(fd);
        std::remove(tmp.c_str());
        throw;
    }
    close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        throw OutputError("cannot rename " + tmp + " to " + path + ": " + why);
    }
    sync_folder_of(path);
}

}  // namespace pcisim::output
