// pcisim merge: joins the outputs of a sharded sweep into the unsharded result.
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/output/output_file.h"
#include "tools/output/output_lock.h"
#include "tools/sweep/shard_merge.h"
#include "tools/sweep/sweep_table.h"

namespace pcisim::cli {

int merge(const Args& args) {
    const char* usage =
        "usage: pcisim merge OUT.csv SHARD.csv ...\n"
        "  joins the CSV+JSON outputs of 'pcisim sweep --shard I/N' runs into the unsharded\n"
        "  result; reads each SHARD.json beside its CSV\n";
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << usage;
        return 0;
    }
    if (args.size() < 2) {
        std::cerr << "pcisim merge: expected OUT.csv and at least one SHARD.csv\n" << usage;
        return 2;
    }
    const std::string& out = args[0];
    try {
        // The shards are the inputs: neither their CSV nor their JSON may be overwritten.
        std::vector<std::string> inputs;
        for (std::size_t i = 1; i < args.size(); ++i) {
            inputs.push_back(args[i]);
            inputs.push_back(sweep::json_path_for(args[i]));
        }
        for (const auto& path : {out, sweep::json_path_for(out)})
            output::check_output_path("OUT", path, inputs);
        output::OutputLock lock(sweep::beside(out, ".lock"), out);
        for (const auto& path : {out, sweep::json_path_for(out)})
            output::remove_stale_temporaries(path);  // of a command killed while writing
        std::vector<sweep::SweepTable> shards;
        for (std::size_t i = 1; i < args.size(); ++i) shards.push_back(sweep::read_table(args[i]));
        sweep::SweepTable merged = sweep::merge_shards(shards);
        merged.provenance = provenance();  // the shards' builds are the same; this merged them
        sweep::write_table(merged, out);
        output::report_stream("") << "wrote " << out << " and " << sweep::json_path_for(out) << ": "
                  << merged.rows.size() << " points from " << shards.size() << " shards\n";
    } catch (const std::runtime_error& e) {
        std::cerr << "pcisim merge: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

}  // namespace pcisim::cli
