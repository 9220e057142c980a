// Command-line parsing shared by the subcommands.
#pragma once

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"

namespace pcisim::cli {

// Parses `args` into `vm` and runs the options' notifiers (po::error on bad usage).  Returns
// false when --help was asked for: the options have then been printed to stdout.
bool parse_options(const Args& args, const boost::program_options::options_description& opts,
                   boost::program_options::variables_map& vm,
                   const boost::program_options::positional_options_description* positional =
                       nullptr);

}  // namespace pcisim::cli
