#include "tracer/analysis/codelet_stats.hpp"

#include "tracer/analysis/parallel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <map>
#include <span>
#include <utility>

namespace starscope::tracer {

WorkerKind workerKindOf(LaneKind lane) {
    switch (lane) {
    case LaneKind::CpuWorker: return WorkerKind::Cpu;
    case LaneKind::CudaWorker: return WorkerKind::Cuda;
    default: return WorkerKind::Other;
    }
}

namespace {

// Durations of one group, in the pieces the threads that gathered them left.
using Pieces = std::vector<std::span<const TimeNs>>;

// The k-th smallest (from 0) of the values of the pieces, all within [lo, hi]: the values
// counted into buckets of their offset's top bits, then the values of the one bucket holding it
// counted again, until a bucket holds one value. One pass over the values as a rule (durations of
// a codelet span a few decades), where a selection (nth_element) moved them about several times:
// a 100 M-span job's codelets have 47 M durations.
TimeNs kthSmallest(const Pieces& pieces, std::size_t k, TimeNs lo, TimeNs hi) {
    constexpr std::uint64_t kBuckets = std::uint64_t{1} << 16;
    const auto base = static_cast<std::uint64_t>(lo);
    std::uint64_t first = 0;   // offsets from lo of the candidates' range
    std::uint64_t last = static_cast<std::uint64_t>(hi) - base;
    std::vector<TimeNs> kept;
    Pieces candidates = pieces;
    std::vector<std::size_t> counts;
    for (;;) {
        unsigned shift = 0;
        while (((last - first) >> shift) >= kBuckets) {
            ++shift;
        }
        const auto bucketOf = [&](TimeNs v) {
            return static_cast<std::size_t>((static_cast<std::uint64_t>(v) - base - first) >> shift);
        };
        counts.assign(static_cast<std::size_t>((last - first) >> shift) + 1, 0);
        for (const auto piece : candidates) {
            for (const TimeNs v : piece) {
                ++counts[bucketOf(v)];
            }
        }
        std::size_t bucket = 0;
        while (k >= counts[bucket]) {
            k -= counts[bucket];
            ++bucket;
        }
        const std::uint64_t bucketFirst = first + (static_cast<std::uint64_t>(bucket) << shift);
        if (shift == 0) {
            return static_cast<TimeNs>(base + bucketFirst);
        }
        std::vector<TimeNs> inBucket;
        inBucket.reserve(counts[bucket]);
        for (const auto piece : candidates) {
            for (const TimeNs v : piece) {
                if (bucketOf(v) == bucket) {
                    inBucket.push_back(v);
                }
            }
        }
        kept = std::move(inBucket);
        candidates = {kept};
        last = std::min(last, bucketFirst + ((std::uint64_t{1} << shift) - 1));
        first = bucketFirst;
    }
}

// The median is the lower middle one of an even count.
DurationSummary summarise(const Pieces& pieces) {
    DurationSummary s;
    bool any = false;
    for (const auto piece : pieces) {
        for (const TimeNs d : piece) {
            s.min = any ? std::min(s.min, d) : d;
            s.max = any ? std::max(s.max, d) : d;
            any = true;
            s.total += d;
            ++s.count;
        }
    }
    if (!any) {
        return s;
    }
    s.mean = s.total / static_cast<TimeNs>(s.count);
    s.median = kthSmallest(pieces, (s.count - 1) / 2, s.min, s.max);
    return s;
}

bool executedIn(const Task& task, TimeNs from, TimeNs to) {
    const TimeNs start = task.start;
    const TimeNs end = task.end;
    return start >= 0 && end >= start && start >= from && start < to;
}

} // namespace

std::string_view workerKindName(WorkerKind kind) {
    switch (kind) {
    case WorkerKind::Cpu: return "CPU";
    case WorkerKind::Cuda: return "CUDA";
    case WorkerKind::Other: return "other";
    }
    return "other";
}

std::vector<CodeletStats> computeCodeletStats(const Trace& trace, TimeNs from, TimeNs to) {
    return detail::computeCodeletStats(trace, from, to, threadsFor(trace.tasks.size(), kSpansPerThread));
}

std::vector<CodeletStats> detail::computeCodeletStats(const Trace& trace, TimeNs from, TimeNs to, std::size_t parts) {
    constexpr std::size_t kKinds = 3;
    parts = std::max<std::size_t>(parts, 1);
    // Tasks name their codelet by key id: each key's codelet name gets a slot, in name order
    // (names, not keys: footprints merge), so that a task costs a table look-up, not a search
    // of a map by name (a map of durations by name was a third of `stats` after the read on a
    // 100 M-span job). Tasks of no known codelet have the slot of "".
    std::map<std::string_view, std::uint32_t> slotOfName{{std::string_view{}, 0}};
    const auto nameOf = [&trace](const CodeletKey& key) {
        return key.codelet < trace.names.size() ? std::string_view(trace.names.name(key.codelet)) : std::string_view{};
    };
    for (const CodeletKey& key : trace.codeletKeys.keys()) {
        slotOfName.emplace(nameOf(key), 0);
    }
    std::vector<std::string_view> names;
    for (auto& [name, slot] : slotOfName) {
        slot = static_cast<std::uint32_t>(names.size());
        names.push_back(name);
    }
    std::vector<std::uint32_t> slotOfKey;
    for (const CodeletKey& key : trace.codeletKeys.keys()) {
        slotOfKey.push_back(slotOfName.at(nameOf(key)));
    }
    const std::uint32_t unnamed = slotOfName.at(std::string_view{});
    std::vector<std::uint8_t> kindOfLane;
    for (const Lane& lane : trace.lanes) {
        kindOfLane.push_back(static_cast<std::uint8_t>(workerKindOf(lane.kind)));
    }
    // The group (slot * kKinds + kind) of a task that counts; past every group otherwise.
    const auto groupOf = [&](const Task& task) -> std::size_t {
        if (task.lane < 0 || static_cast<std::size_t>(task.lane) >= kindOfLane.size() || !executedIn(task, from, to)) {
            return std::numeric_limits<std::size_t>::max();
        }
        const std::uint32_t slot = task.codeletKey < slotOfKey.size() ? slotOfKey[task.codeletKey] : unnamed;
        return slot * kKinds + kindOfLane[static_cast<std::size_t>(task.lane)];
    };
    // One pass over the tasks (a 1 G-span job's table is 15 GB, which a second pass read from
    // the disk again): the tasks cut into one stretch per thread, each thread writing each
    // duration into its own list of the task's group. A group's durations are then the pieces
    // its threads' lists hold; the figures do not depend on their order.
    const std::size_t groups = names.size() * kKinds;
    const auto partBegin = [&](std::size_t part) { return trace.tasks.size() * part / parts; };
    std::vector<std::vector<std::vector<TimeNs>>> lists(parts, std::vector<std::vector<TimeNs>>(groups));
    forEachInParallel(parts, parts, [&](std::size_t part) {
        const auto stretch = std::span<const Task>(trace.tasks).subspan(partBegin(part), partBegin(part + 1) - partBegin(part));
        for (const Task& task : stretch) {
            if (const std::size_t group = groupOf(task); group < groups) {
                lists[part][group].push_back(static_cast<TimeNs>(task.end) - task.start);
            }
        }
        trace.tasks.releaseResident(partBegin(part), partBegin(part + 1));   // read once: done
    });
    // The pieces of groups [fromGroup, toGroup).
    const auto pieces = [&](std::size_t fromGroup, std::size_t toGroup) {
        Pieces out;
        for (std::size_t g = fromGroup; g < toGroup; ++g) {
            for (std::size_t part = 0; part < parts; ++part) {
                if (!lists[part][g].empty()) {
                    out.emplace_back(lists[part][g]);
                }
            }
        }
        return out;
    };
    // A row per codelet that ran, each summarised on a core of its own.
    std::vector<std::size_t> ran;
    std::size_t durations = 0;
    for (std::size_t slot = 0; slot < names.size(); ++slot) {
        std::size_t count = 0;
        for (const auto& part : lists) {
            for (std::size_t g = slot * kKinds; g < (slot + 1) * kKinds; ++g) {
                count += part[g].size();
            }
        }
        if (count > 0) {
            ran.push_back(slot);
            durations += count;
        }
    }
    std::vector<CodeletStats> table(ran.size());
    forEachInParallel(ran.size(), threadsFor(durations, kSpansPerThread), [&](std::size_t i) {
        const std::size_t slot = ran[i];
        CodeletStats& row = table[i];
        row.codelet = std::string(names[slot]);
        row.internal = isStarpuInternalCodelet(names[slot]);
        for (std::size_t k = 0; k < kKinds; ++k) {
            if (const auto mine = pieces(slot * kKinds + k, slot * kKinds + k + 1); !mine.empty()) {
                row.perKind.push_back({static_cast<WorkerKind>(k), summarise(mine)});
            }
        }
        // Of one kind, the codelet's figures are that kind's.
        row.all = row.perKind.size() == 1 ? row.perKind.front().durations : summarise(pieces(slot * kKinds, (slot + 1) * kKinds));
    });
    // The program's codelets, then StarPU's own; each by total time.
    std::stable_sort(table.begin(), table.end(), [](const CodeletStats& a, const CodeletStats& b) {
        return std::pair(a.internal, -a.all.total) < std::pair(b.internal, -b.all.total);
    });
    return table;
}

std::vector<CodeletStats> computeCodeletStats(const Trace& trace) {
    return computeCodeletStats(trace, trace.begin, std::max(trace.begin, trace.end) + 1);
}

DurationHistogram codeletDurationHistogram(const Trace& trace, std::string_view codelet, TimeNs from, TimeNs to,
                                           std::size_t bins) {
    std::vector<TimeNs> durations;
    for (const Task& task : trace.tasks) {
        if (executedIn(task, from, to) && trace.codeletOf(task) == codelet && trace.laneAt(task.lane) != nullptr) {
            durations.push_back(static_cast<TimeNs>(task.end) - task.start);
        }
    }
    DurationHistogram h;
    if (durations.empty() || bins == 0) {
        return h;
    }
    const auto [lo, hi] = std::minmax_element(durations.begin(), durations.end());
    // Logarithmic edges from the shortest to the longest task (durations of 0 count as 1 tick).
    const double first = std::log(static_cast<double>(std::max<TimeNs>(*lo, 1)));
    const double last = std::log(static_cast<double>(std::max<TimeNs>(*hi, 1)));
    h.edges.resize(bins + 1);
    for (std::size_t i = 0; i <= bins; ++i) {
        const double at = first + (last - first) * static_cast<double>(i) / static_cast<double>(bins);
        h.edges[i] = static_cast<TimeNs>(std::llround(std::exp(at)));
    }
    h.edges.front() = std::min(h.edges.front(), *lo);
    h.edges.back() = std::max(h.edges.back(), *hi);
    for (std::size_t i = 1; i <= bins; ++i) {
        h.edges[i] = std::max(h.edges[i], h.edges[i - 1]);
    }
    h.counts.assign(bins, 0);
    for (const TimeNs d : durations) {
        // The last bucket whose lower edge is at most d (the longest task falls in the last).
        const auto above = std::upper_bound(h.edges.begin(), h.edges.end() - 1, d);
        const auto bucket = static_cast<std::size_t>(std::max<std::ptrdiff_t>(above - h.edges.begin() - 1, 0));
        ++h.counts[std::min(bucket, bins - 1)];
    }
    return h;
}

} // namespace starscope::tracer
