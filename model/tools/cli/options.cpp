#include "tools/cli/options.h"

#include <iostream>

namespace po = boost::program_options;

namespace pcisim::cli {

bool parse_options(const Args& args, const po::options_description& opts, po::variables_map& vm,
                   const po::positional_options_description* positional) {
    po::command_line_parser parser(args);
    parser.options(opts);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
        std::cout << opts << "\n";
        return false;
    }
    po::notify(vm);
    return true;
}

}  // namespace pcisim::cli
