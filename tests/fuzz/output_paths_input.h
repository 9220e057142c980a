// What the output-path fuzz target does with one input, shared with the regression test that
// replays its corpus (tests/test_fuzz_regressions.cpp).
//
// Input: NUL-separated paths inside a scratch folder; a leading '<' makes one an input of the
// command, '!' an output written whole and renamed (a sweep's), anything else an output written
// in place (--json, --vcd; "-" the standard output).  The folder holds two inputs (in.json,
// platform.json), a folder, a symbolic link to an input, a hard link to one, a dangling link and
// a link loop.  Whatever output::check_outputs lets pass is then written, each output its own
// text, and every input must be unchanged and every output hold its own text: an output that
// replaced an input or another output aborts (the fuzzer's crash).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/output/output_file.h"
#include "tools/output/output_paths.h"

namespace pcisim::fuzz {

namespace output_paths_detail {

namespace fs = std::filesystem;

inline std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream b;
    b << in.rdbuf();
    return b.str();
}

// The scratch folder as every input starts it.
inline void reset(const fs::path& dir) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "in.json") << "{\"scenario\": 1}\n";
    std::ofstream(dir / "platform.json") << "{\"platform\": 2}\n";
    fs::create_symlink("in.json", dir / "link");
    fs::create_hard_link(dir / "platform.json", dir / "hard");
    fs::create_symlink("new.json", dir / "dangling");
    fs::create_symlink("loop", dir / "loop");
}

inline const fs::path& scratch() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() /
                     ("pcisim-fuzz-outputs-" + std::to_string(getpid()));
        reset(d);
        return d;
    }();
    return dir;
}

}  // namespace output_paths_detail

inline void feed_output_paths_input(const std::string& input) {
    namespace fs = std::filesystem;
    using namespace output_paths_detail;
    const fs::path& dir = scratch();
    std::vector<std::string> inputs = {(dir / "in.json").string(), (dir / "platform.json").string()};
    std::vector<output::OutputFile> outputs;
    for (std::size_t start = 0; start <= input.size();) {
        std::size_t nul = input.find('\0', start);
        std::string part = input.substr(start, nul == std::string::npos ? nul : nul - start);
        start = nul == std::string::npos ? input.size() + 1 : nul + 1;
        char kind = part.empty() ? ' ' : part[0];
        if (kind == '<' || kind == '!') part.erase(0, 1);
        // Everything stays in the scratch folder: no way up, and "/x" is dir/x.
        if (part.find("..") != std::string::npos) continue;
        std::string path = part == "-" || part.empty() ? part : (dir / part).string();
        if (kind == '<')
            inputs.push_back(path);
        else
            outputs.push_back({"--out" + std::to_string(outputs.size()), path, kind == '!'});
    }
    try {
        output::check_outputs(outputs, inputs);
    } catch (const output::OutputError&) {
        return;  // refused, with a message: fine
    }
    std::vector<std::string> before;
    for (const auto& in : inputs) before.push_back(read(in));
    std::vector<bool> written(outputs.size(), false);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const output::OutputFile& o = outputs[i];
        if (output::is_stdout(o.path)) continue;
        const std::string text = "output " + std::to_string(i) + "\n";
        try {
            if (o.replaced)
                output::write_file_durably(o.path, text);
            else
                output::write_text_file(o.path, text);
            written[i] = true;
        } catch (const output::OutputError&) {
            // A write may still fail (a name too long for the file system); no clobbering then.
        }
    }
    bool clobbered = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) clobbered |= read(inputs[i]) != before[i];
    for (std::size_t i = 0; i < outputs.size(); ++i)
        if (written[i]) clobbered |= read(outputs[i].path) != "output " + std::to_string(i) + "\n";
    reset(dir);
    if (clobbered) std::abort();
}

}  // namespace pcisim::fuzz
