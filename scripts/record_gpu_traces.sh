#!/usr/bin/env bash
# Records StarPU's own examples on simulated GPU machines, for the GPU tests and anyone who
# wants a CUDA trace without a GPU:
#   record_gpu_traces.sh OUT_DIR [MACHINE [EXAMPLE]]
# writes OUT_DIR/<machine>/<example>/prof_file__0 and starpu_fxt_tool's paje.trace beside it,
# for every machine and example below, or only the one named.
#
# StarPU built against SimGrid (build_starpu.sh --source TARBALL --simgrid; another prefix with
# $STARSCOPE_SIMGRID_PREFIX) runs the real runtime, scheduler and data manager on simulated time,
# taking task and transfer durations from the performance models of real machines that StarPU
# ships (share/starpu/perfmodels/sampling): STARPU_HOSTNAME picks the machine. The models only
# cover the block sizes measured there, hence the sizes below. Simulated time is deterministic;
# each run takes well under a second and writes about 0.5 MB.
# Exits 77 (the tests' "skipped") when the SimGrid prefix is not built.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

[ $# -ge 1 ] && [ $# -le 3 ] || die "usage: record_gpu_traces.sh OUT_DIR [MACHINE [EXAMPLE]]"
out=$1
only_machine=${2:-}
only_example=${3:-}
prefix=${STARSCOPE_SIMGRID_PREFIX:-$starscope_root/.deps/starpu-1.4.12-simgrid}
models=$prefix/share/starpu/perfmodels/sampling
if [ ! -x "$prefix/bin/starpu_fxt_tool" ] || [ ! -d "$models/bus" ]; then
  say "no StarPU SimGrid build in $prefix: scripts/build_starpu.sh --source starpu-1.4.12.tar.gz --simgrid makes it"
  exit 77
fi

# Machines of StarPU's sampling models with their CPUs and CUDA GPUs (bus/<machine>.config).
machines=(mirage sirocco idgraf)   # 12 CPUs + 3 GPUs, 24 + 4, 12 + 8
# name, then arguments: blocks of 960 (cholesky), 960 x 3840 slices (sgemm's default), 320 (LU).
examples=(
  "cholesky_implicit -size 7680 -nblocks 8"
  "sgemm"
  "lu_implicit_example_float -size 1920 -nblocks 6"
)

known() { # WORD LIST...: whether WORD is one of LIST
  local word=$1; shift
  local item
  for item in "$@"; do [ "$item" = "$word" ] && return 0; done
  return 1
}
[ -z "$only_machine" ] || known "$only_machine" "${machines[@]}" \
  || die "record_gpu_traces.sh: unknown machine '$only_machine' (known: ${machines[*]})"
[ -z "$only_example" ] || known "$only_example" "${examples[@]%% *}" \
  || die "record_gpu_traces.sh: unknown example '$only_example' (known: ${examples[*]%% *})"

recorded=0
for machine in "${machines[@]}"; do
  [ -z "$only_machine" ] || [ "$machine" = "$only_machine" ] || continue
  [ -f "$models/bus/$machine.config" ] || die "StarPU's models in $models have no machine '$machine'"
  for example in "${examples[@]}"; do
    name=${example%% *}
    arguments=${example#"$name"}
    [ -z "$only_example" ] || [ "$name" = "$only_example" ] || continue
    dir=$out/$machine/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    # dmdas schedules by the models, as a GPU user would: the GPUs get the work they are fast at.
    # The CPU and GPU counts come from the machine, whatever the caller's environment says.
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$dir" && env -u STARPU_NCPU -u STARPU_NCUDA -u STARPU_NOPENCL -u STARPU_FXT_EVENTS \
      STARPU_HOSTNAME="$machine" STARPU_PERF_MODEL_DIR="$models" STARPU_SCHED=dmdas \
      STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX="$dir/" STARPU_SILENT=1 \
      "$prefix/bin/starpu_example_$name" $arguments >run.log 2>&1) \
      || { tail -n 20 "$dir/run.log" >&2; die "$name on simulated $machine failed (log: $dir/run.log)"; }
    [ -f "$dir/prof_file__0" ] || die "$name on simulated $machine wrote no trace in $dir"
    (cd "$dir" && "$prefix/bin/starpu_fxt_tool" -i prof_file__0 >tool.log 2>&1) \
      || { tail -n 20 "$dir/tool.log" >&2; die "starpu_fxt_tool failed on $dir/prof_file__0"; }
    # Its other outputs (DAG, activity, records) are not compared.
    find "$dir" -type f ! -name prof_file__0 ! -name paje.trace ! -name run.log -delete
    recorded=$((recorded + 1))
  done
done
say "recorded $recorded runs of StarPU's examples on simulated GPU machines in $out"
