#!/bin/bash
# A pcisim sweep on a Slurm cluster: an array job with one shard of the sweep per task, and a
# merge job that runs once every task has ended (afterany: a task whose points partly failed
# still merges; the failed rows are in the result).
#
#   docs/examples/slurm-sweep.sh SCENARIO OUT.csv TASKS CPUS_PER_TASK [sweep options ...]
#   e.g. docs/examples/slurm-sweep.sh scenarios/phi-32-66-82541.json sweep.csv 16 4 \
#            --vary packet.size=60:1500:4 --vary bus.clock_mhz=33,66
#
# Shards are written beside OUT.csv as OUT-shardI.csv (with their JSON).  PCISIM names the
# binary (default: pcisim on PATH); extra sbatch options go in SBATCH_OPTIONS, e.g.
# SBATCH_OPTIONS="--partition=short --time=1:00:00".  Prints the two job ids.
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
scenario=$1 out=$2 tasks=$3 cpus=$4
shift 4
pcisim=${PCISIM:-pcisim}
read -r -a extra <<<"${SBATCH_OPTIONS:-}"

q() { printf '%q' "$1"; }
sweep_options=""
for a in "$@"; do sweep_options+=" $(q "$a")"; done
shard_prefix="${out%.csv}-shard"

array=$(sbatch --parsable "${extra[@]+"${extra[@]}"}" --job-name=pcisim-sweep \
    --array="0-$((tasks - 1))" --cpus-per-task="$cpus" \
    --wrap="$(q "$pcisim") sweep $(q "$scenario")$sweep_options -j $cpus \
--shard \$SLURM_ARRAY_TASK_ID/$tasks -o $(q "$shard_prefix")\$SLURM_ARRAY_TASK_ID.csv")
array=${array%%;*}  # --parsable prints "jobid" or "jobid;cluster"

shards=""
for ((i = 0; i < tasks; i++)); do shards+=" $(q "$shard_prefix$i.csv")"; done
merge=$(sbatch --parsable "${extra[@]+"${extra[@]}"}" --job-name=pcisim-merge \
    --dependency="afterany:$array" --wrap="$(q "$pcisim") merge $(q "$out")$shards")
echo "sweep array job ${array}, merge job ${merge%%;*}"
