#include "tools/cli/input_files.h"

#include <filesystem>

#include "core/data_dir.h"

namespace fs = std::filesystem;

namespace pcisim::cli {

std::vector<std::string> scenario_tree_files() {
    std::vector<std::string> files;
    for (const char* folder : {"scenarios", "docs/data"}) {
        std::error_code error;  // a folder that is not there holds no input
        for (fs::recursive_directory_iterator it(data_path(folder), error), end;
             !error && it != end; it.increment(error))
            if (it->is_regular_file(error)) files.push_back(it->path().string());
    }
    return files;
}

}  // namespace pcisim::cli
