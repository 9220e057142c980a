// Sweeps on clusters (issue 19): the default number of workers follows the CPU affinity a
// scheduler gives the process, and the two recipes of docs/sweeps.md — GNU parallel and the
// Slurm script docs/examples/slurm-sweep.sh — give, once merged, exactly the unsharded sweep.
#include <catch2/catch.hpp>

#include <sched.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "test_support.h"
#include "tools/sweep/worker_pool.h"

namespace test_cluster_recipes {

using namespace pcisim::test;

namespace {

const std::string kSweep = std::string(PCISIM_SOURCE_DIR) +
                           "/scenarios/bus-demo.json --vary masters.0.bytes=64,128,256,512"
                           " --set simulation.warmup_us=20 --set simulation.batch_us=200"
                           " --set simulation.min_window_us=200";

// The unsharded sweep's CSV, the reference every recipe must reproduce byte for byte.
std::string unsharded_csv(const TempDir& dir) {
    std::string out = dir / "whole.csv";
    REQUIRE(run_pcisim("sweep " + kSweep + " -j 2 -o " + out).exit_code == 0);
    return slurp(out);
}

bool have(const std::string& program) {
    return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace

TEST_CASE("the default number of sweep workers is the CPUs the process may run on") {
    cpu_set_t all;
    REQUIRE(sched_getaffinity(0, sizeof all, &all) == 0);
    CHECK(pcisim::sweep::default_parallelism() == static_cast<std::size_t>(CPU_COUNT(&all)));
    // As under `taskset -c N` or a Slurm task with one CPU: one worker, whatever the machine has.
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &all)) {
            CPU_SET(cpu, &one);
            break;
        }
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK(pcisim::sweep::default_parallelism() == 1);
    REQUIRE(sched_setaffinity(0, sizeof all, &all) == 0);
}

TEST_CASE("the Slurm script's array and merge jobs give the unsharded sweep", "[sweep]") {
    TempDir dir;
    // A stand-in for sbatch that runs the job at once: each task of --array=0-N with its
    // SLURM_ARRAY_TASK_ID, and checks that the merge job waits for the array (--dependency).
    // Like sbatch it prints only the job id; what a job prints goes elsewhere (here stderr).
    std::string fake = dir / "sbatch";
    std::ofstream(fake) << R"(#!/bin/bash
array= wrap= dependency=
for a in "$@"; do
  case $a in --array=*) array=${a#--array=} ;; --wrap=*) wrap=${a#--wrap=} ;;
             --dependency=*) dependency=${a#--dependency=} ;; esac
done
if [ -n "$array" ]; then
  for ((i = ${array%-*}; i <= ${array#*-}; i++)); do SLURM_ARRAY_TASK_ID=$i bash -c "$wrap" >&2 || true; done
  echo 101
else
  [ "$dependency" = afterany:101 ] || { echo "merge does not wait for the array" >&2; exit 1; }
  bash -c "$wrap" >&2 && echo 102
fi
)";
    REQUIRE(chmod(fake.c_str(), 0755) == 0);
    std::string script = std::string(PCISIM_SOURCE_DIR) + "/docs/examples/slurm-sweep.sh";
    std::string out = dir / "slurm.csv", log = dir / "slurm.log";
    std::string command = "PATH=" + dir.path.string() + ":$PATH PCISIM=" + pcisim_binary() + " " +
                          script + " " + kSweep.substr(0, kSweep.find(' ')) + " " + out +
                          " 2 1" + kSweep.substr(kSweep.find(' ')) + " >" + log + " 2>&1";
    int status = std::system(command.c_str());
    INFO(slurp(log));
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    CHECK(contains(slurp(log), "sweep array job 101, merge job 102"));
    CHECK(slurp(out) == unsharded_csv(dir));
}

TEST_CASE("the GNU parallel recipe gives the unsharded sweep", "[sweep]") {
    if (!have("parallel")) {
        WARN("GNU parallel is not installed (Debian package parallel): recipe not run");
        return;
    }
    TempDir dir;
    std::string log = dir / "parallel.log";
    // docs/sweeps.md's recipe with N=2 shards of one worker each.
    std::string command = "cd " + dir.path.string() + " && parallel -j 2 " + pcisim_binary() +
                          " sweep " + kSweep + " -j 1 --shard {}/2 -o shard{}.csv ::: 0 1 && " +
                          pcisim_binary() + " merge sweep.csv shard0.csv shard1.csv >" + log +
                          " 2>&1";
    int status = std::system(command.c_str());
    INFO(slurp(log));
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    CHECK(slurp(dir / "sweep.csv") == unsharded_csv(dir));
}

}  // namespace test_cluster_recipes
