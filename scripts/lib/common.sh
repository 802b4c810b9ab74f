# Shared helpers for starscope's scripts: messages, timed steps, project paths.
# Sourced, never run.

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# run_step NAME CMD...: runs CMD, times it and names the failing step on error.
run_step() {
  local name=$1; shift
  local start=$SECONDS
  say "==> $name"
  if ! "$@"; then
    die "setup step '$name' failed (see the messages above)"
  fi
  say "==> $name: done in $((SECONDS - start)) s"
}

starscope_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# StarPU with FxT, project-local and git-ignored.
starpu_version=1.3.10
starpu_prefix="$starscope_root/.deps/starpu-$starpu_version-fxt"
# Survives clean clones of the project on the same machine; never required.
starscope_cache="${STARSCOPE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/starscope}"
mnist_dir="$starscope_root/data/mnist"
