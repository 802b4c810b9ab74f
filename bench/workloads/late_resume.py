#!/usr/bin/env python3
"""How much of a StarPU 1.3/1.4 trace's barrier time the submitting thread spent not yet
running again after what it waited for had ended.

    fxt_print -f PROF_FILE | bench/workloads/late_resume.py [--threshold-us 100]

A barrier is time in which no worker executes a codelet, longer than the threshold (as
`starscope stats` finds them). During starpu_task_wait (and the waits StarPU makes for
starpu_data_unregister and synchronous acquisitions), StarPU records the job waited for
(TaskWaitStart), the job's end (TaskDone) and the end of the wait (TaskWaitEnd). Between the
job's end and the end of the wait the thread was runnable but not running: the operating
system had not scheduled it yet. Barrier time in such an interval is not the program's
dependency but scheduling latency; this prints its share of the makespan (first codelet start
to last codelet end) next to the barrier share, one line of key=value pairs.
"""
import argparse
import sys

# StarPU's FxT codes (src/common/fxt.h), the same in 1.3.10 and 1.4.12 for these.
CODES = {
    "start_codelet": 0x5102,
    "end_codelet": 0x5103,
    "task_done": 0x5125,
    "wait_start": 0x5178,
    "wait_end": 0x5179,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold-us", type=float, default=100.0)
    args = parser.parse_args()
    threshold = int(args.threshold_us * 1000)

    executing = []          # (start, end) of codelet bodies
    open_body = {}          # job -> start
    done = {}               # job -> time of TaskDone
    waiting = {}            # tid -> (job, start)
    late = []               # (from, to): awaited job ended, thread not resumed yet
    waits = []              # (tid, job, start, end), resolved after the pass
    for line in sys.stdin:
        fields = line.split("\t")
        if len(fields) < 5 or "(" not in fields[3]:
            continue
        try:
            code = int(fields[3].strip().split("(")[0], 16)
            time = int(fields[0].rstrip("u"))
        except ValueError:
            continue
        params = [p.strip() for p in fields[5:]]
        if code == CODES["start_codelet"]:
            open_body[params[0]] = time
        elif code == CODES["end_codelet"]:
            start = open_body.pop(params[0], None)
            if start is not None:
                executing.append((start, time))
        elif code == CODES["task_done"]:
            done[params[0]] = time
        elif code == CODES["wait_start"]:
            waiting[params[1]] = (params[0], time)   # job, tid
        elif code == CODES["wait_end"]:
            tid = params[0]
            if tid in waiting:
                job, start = waiting.pop(tid)
                waits.append((job, start, time))
    for job, start, end in waits:
        ended = done.get(job)
        if ended is not None and ended < end:
            late.append((max(start, ended), end))
    if not executing:
        print("late_resume: no codelet executed in this trace", file=sys.stderr)
        return 1
    executing.sort()
    first, last = executing[0][0], max(e for _, e in executing)
    # Barriers: gaps in the union of the workers' executing intervals.
    barriers = []
    cover_end = executing[0][1]
    for s, e in executing[1:]:
        if s > cover_end and s - cover_end > threshold:
            barriers.append((cover_end, s))
        cover_end = max(cover_end, e)
    late.sort()
    barrier_total = sum(e - s for s, e in barriers)
    overlap = 0
    i = 0
    for s, e in barriers:
        while i < len(late) and late[i][1] <= s:
            i += 1
        j = i
        while j < len(late) and late[j][0] < e:
            overlap += max(0, min(e, late[j][1]) - max(s, late[j][0]))
            j += 1
    makespan = last - first
    resumes = sorted(e - s for s, e in late)
    print(f"makespan_ns={makespan} barriers={len(barriers)} barrier_ns={barrier_total} "
          f"barrier_share={barrier_total / makespan:.4f} late_resume_in_barriers_ns={overlap} "
          f"late_resume_share={overlap / makespan:.4f} waits={len(waits)} "
          f"late_resume_median_ns={resumes[len(resumes) // 2] if resumes else 0} "
          f"late_resume_max_ns={resumes[-1] if resumes else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
