#include "tracer/analysis/area_bound.hpp"

#include "tracer/model/starpu_tasks.hpp"

#include <glpk.h>

#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace starscope::tracer {

namespace {

// Durations enter the program in milliseconds: coefficients near 1, where the simplex is at
// its most accurate.
constexpr double kNsPerUnit = 1e6;

struct Samples {
    TimeNs total = 0;
    std::uint64_t count = 0;
};

} // namespace

Figure<HeterogeneousBound> heterogeneousAreaBound(const Trace& trace) {
    std::map<LaneKind, int> workers;
    for (const auto& lane : trace.lanes) {
        workers[lane.kind] += lane.isWorker() ? 1 : 0;
    }
    // Per kind of task: its count, and its durations on each kind of worker it ran on. Keys of
    // the trace's table in a table by id (two map searches per task were half of this on a
    // 100 M-span job), any other key (none known, or a bad id) in a map; both in id order.
    constexpr std::size_t kWorkerKinds = static_cast<std::size_t>(LaneKind::OtherWorker) + 1;
    using ByKind = std::array<Samples, kWorkerKinds>;
    std::vector<ByKind> known(trace.codeletKeys.size());
    std::map<CodeletKeyId, ByKind> others;
    // The program's work: StarPU's own tasks are not work it could have shared out otherwise.
    const StarpuTasks starpu(trace);
    for (const auto& task : trace.tasks) {
        const Lane* lane = trace.laneAt(task.lane);
        if (task.start < 0 || task.end < task.start || lane == nullptr || !lane->isWorker() || starpu.contains(task)) {
            continue;
        }
        auto& samples = (task.codeletKey < known.size() ? known[task.codeletKey] : others[task.codeletKey])
            [static_cast<std::size_t>(lane->kind)];
        samples.total += task.end - task.start;
        ++samples.count;
    }
    std::map<CodeletKeyId, std::map<LaneKind, Samples>> durations;
    std::map<CodeletKeyId, std::uint64_t> counts;
    const auto keep = [&](CodeletKeyId key, const ByKind& byKind) {
        for (std::size_t k = 0; k < kWorkerKinds; ++k) {
            if (byKind[k].count > 0) {
                durations[key][static_cast<LaneKind>(k)] = byKind[k];
                counts[key] += byKind[k].count;
            }
        }
    };
    for (std::size_t key = 0; key < known.size(); ++key) {
        keep(static_cast<CodeletKeyId>(key), known[key]);
    }
    for (const auto& [key, byKind] : others) {
        keep(key, byKind);
    }
    if (counts.empty()) {
        return Figure<HeterogeneousBound>::unavailable("no executed task in the trace");
    }

    // Columns: the makespan T, then one per (kind of task, kind of worker) it ran on: how many
    // of those tasks that kind runs. Rows: one per kind of worker (its share of the work fits
    // in T on its workers), then one per kind of task (all its tasks run somewhere).
    std::vector<AreaBoundShare> shares;
    for (const auto& [key, byKind] : durations) {
        for (const auto& [kind, samples] : byKind) {
            shares.push_back({key, kind, 0.0, samples.total / static_cast<TimeNs>(samples.count)});
        }
    }
    std::map<LaneKind, int> kindRow;
    for (const auto& [kind, count] : workers) {
        if (count > 0) {
            kindRow.emplace(kind, static_cast<int>(kindRow.size()) + 1);
        }
    }
    std::map<CodeletKeyId, int> taskRow;
    for (const auto& [key, count] : counts) {
        taskRow.emplace(key, static_cast<int>(kindRow.size() + taskRow.size()) + 1);
    }

    const std::unique_ptr<glp_prob, decltype(&glp_delete_prob)> lp(glp_create_prob(), glp_delete_prob);
    glp_set_obj_dir(lp.get(), GLP_MIN);
    glp_add_rows(lp.get(), static_cast<int>(kindRow.size() + taskRow.size()));
    for (const auto& [kind, row] : kindRow) {
        glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, 0.0);
    }
    for (const auto& [key, row] : taskRow) {
        const auto n = static_cast<double>(counts.at(key));
        glp_set_row_bnds(lp.get(), row, GLP_FX, n, n);
    }
    glp_add_cols(lp.get(), static_cast<int>(shares.size()) + 1);
    for (int col = 1; col <= static_cast<int>(shares.size()) + 1; ++col) {
        glp_set_col_bnds(lp.get(), col, GLP_LO, 0.0, 0.0);
    }
    glp_set_obj_coef(lp.get(), 1, 1.0);
    // GLPK's arrays count from 1.
    std::vector<int> rows{0};
    std::vector<int> cols{0};
    std::vector<double> values{0.0};
    const auto add = [&](int row, int col, double value) {
        rows.push_back(row);
        cols.push_back(col);
        values.push_back(value);
    };
    for (const auto& [kind, row] : kindRow) {
        add(row, 1, -static_cast<double>(workers.at(kind)));
    }
    for (std::size_t i = 0; i < shares.size(); ++i) {
        const int col = static_cast<int>(i) + 2;
        add(kindRow.at(shares[i].kind), col, static_cast<double>(shares[i].meanDuration) / kNsPerUnit);
        add(taskRow.at(shares[i].key), col, 1.0);
    }
    glp_load_matrix(lp.get(), static_cast<int>(values.size()) - 1, rows.data(), cols.data(), values.data());

    glp_smcp parameters;
    glp_init_smcp(&parameters);
    parameters.msg_lev = GLP_MSG_OFF;
    const int solved = glp_simplex(lp.get(), &parameters);
    if (solved != 0 || glp_get_status(lp.get()) != GLP_OPT) {
        return Figure<HeterogeneousBound>::unavailable(
            "GLPK found no optimal schedule (glp_simplex " + std::to_string(solved) + ", status "
            + std::to_string(glp_get_status(lp.get())) + ")");
    }
    HeterogeneousBound out;
    out.bound = static_cast<TimeNs>(std::llround(glp_get_obj_val(lp.get()) * kNsPerUnit));
    for (std::size_t i = 0; i < shares.size(); ++i) {
        shares[i].tasks = glp_get_col_prim(lp.get(), static_cast<int>(i) + 2);
    }
    out.shares = std::move(shares);
    return Figure<HeterogeneousBound>::known(std::move(out));
}

} // namespace starscope::tracer
