#!/usr/bin/env python3
# What starscope shows of one run, reduced to what an FxT event set can change: counts and the
# names of states, not times (two runs never take the same time). fxt_categories.sh compares
# these digests across event sets to find the sets that leave every figure of starscope whole.
import collections
import json
import subprocess
import sys


def digest(starscope, run):
    stats = json.loads(subprocess.run([starscope, "stats", "--json", run], check=True,
                                      capture_output=True, text=True).stdout)
    chrome = json.loads(subprocess.run([starscope, "export", "--format", "chrome", "-o", "-", run],
                                       check=True, capture_output=True, text=True).stdout)
    events = chrome["traceEvents"] if isinstance(chrome, dict) else chrome
    kinds = collections.Counter(e.get("cat") for e in events if e.get("ph") in ("X", "i", "s"))
    summary = stats["summary"]
    worker = summary["worker_time_ns"]
    out = {
        "tasks": summary["tasks"],
        "transitions": len(summary["transitions"]),
        "markers": kinds.get("marker", 0),
        "dependencies": kinds.get("dependency", 0),
        "barriers": summary["barriers"]["count"],
        "executing": worker["executing"] > 0,
        "sleeping": worker["sleeping"] > 0,
        "overhead": worker["overhead"] > 0,
        "critical_path": "value" in summary["critical_path_ns"],
        "transfers": kinds.get("transfer", 0),
        "warnings": len(stats["warnings"]),
    }
    for lane in stats["lanes"]:
        out["states " + lane["kind"]] = sorted(set(out.get("states " + lane["kind"], [])) |
                                               set(lane["states_ns"]))
    return out


if __name__ == "__main__":
    print(json.dumps(digest(sys.argv[1], sys.argv[2]), sort_keys=True))
