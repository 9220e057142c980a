#include "tools/output/output_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace pcisim::output {

namespace {

// Symbolic links followed at most, as the kernel does (MAXSYMLINKS).
constexpr int kMaxLinkHops = 40;

std::string named(const OutputFile& o) { return o.option + " " + (o.path.empty() ? "\"\"" : o.path); }

// An output written in place: a new file in a writable folder, or a writable file that is no
// folder (a regular file, a pipe, a FIFO, a terminal, /dev/null).
void check_streamed(const OutputFile& o) {
    struct stat st {};
    if (stat(o.path.c_str(), &st) != 0) {
        if (errno != ENOENT)  // a link loop, a name too long, a file in place of a folder
            throw OutputError(named(o) + ": " + std::strerror(errno) +
                              "; expected a file name that can be written");
        check_output_folder(o.option, o.path);
        return;
    }
    if (S_ISDIR(st.st_mode))
        throw OutputError(named(o) + ": is a folder; expected a file name");
    if (access(o.path.c_str(), W_OK) != 0)
        throw OutputError(named(o) + ": is not writable (" + std::strerror(errno) +
                          "); expected a writable file");
}

bool is_character_device(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace

std::string file_identity(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0)
        return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    // Not there (yet): a dangling link at the end is written through, to its target.
    std::error_code error;
    fs::path p = path;
    for (int hops = 0; hops < kMaxLinkHops; ++hops) {
        if (!fs::is_symlink(fs::symlink_status(p, error)) || error) break;
        fs::path target = fs::read_symlink(p, error);
        if (error) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    fs::path absolute = fs::absolute(p, error);
    if (error) absolute = p;
    fs::path canonical = fs::weakly_canonical(absolute, error);
    if (error) canonical = absolute.lexically_normal();
    return "path " + canonical.string();
}

void check_outputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs) {
    const OutputFile* on_stdout = nullptr;
    std::vector<std::string> input_ids;
    for (const auto& input : inputs) input_ids.push_back(file_identity(input));
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const OutputFile& o = outputs[i];
        if (o.path.empty())
            throw OutputError(named(o) + ": an empty file name; expected a file name" +
                              (o.replaced ? "" : ", or '-' for the standard output"));
        if (is_stdout(o.path)) {
            if (o.replaced)
                throw OutputError(named(o) + ": the standard output cannot take this output "
                                             "(it is written whole and renamed into place); "
                                             "expected a file name");
            if (on_stdout)
                throw OutputError(named(o) + ": the standard output already takes " +
                                  on_stdout->option + "; expected at most one output on '-'");
            on_stdout = &o;
            ids.emplace_back();
            continue;
        }
        if (o.replaced)
            check_output_path(o.option, o.path, {});
        else
            check_streamed(o);
        const std::string id = file_identity(o.path);
        // A replaced output is first written to PATH.tmp-PID, which must not be an input either.
        const std::string temporary_id =
            o.replaced ? file_identity(temporary_path(o.path)) : std::string();
        for (std::size_t k = 0; k < inputs.size(); ++k)
            if (id == input_ids[k] || temporary_id == input_ids[k])
                throw OutputError(named(o) + ": is" +
                                  (id == input_ids[k] ? "" : " written through") +
                                  " the input file " + inputs[k] +
                                  "; expected a different file for the output");
        for (std::size_t k = 0; k < i; ++k)
            if (id == ids[k] && !is_character_device(o.path))
                throw OutputError(named(o) + ": is also the output of " + named(outputs[k]) +
                                  "; expected a different file for each output");
        ids.push_back(id);
    }
}

}  // namespace pcisim::output
