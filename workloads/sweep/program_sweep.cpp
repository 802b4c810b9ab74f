#include "workloads/sweep/program_sweep.hpp"

#include "workloads/record/program_plan.hpp"

#include <algorithm>
#include <cctype>

namespace starscope::workloads {

namespace {

struct Vary {
    std::string name;
    std::vector<std::string> values;
};

// "NAME=a,b,c"; values become folder names, so no '/' and no leading '.'.
WorkloadResult<Vary> parseVary(const std::string& text) {
    const auto equals = text.find('=');
    Vary vary;
    vary.name = text.substr(0, equals);
    const bool nameOk = !vary.name.empty()
                        && !std::isdigit(static_cast<unsigned char>(vary.name.front()))
                        && std::all_of(vary.name.begin(), vary.name.end(), [](char c) {
                               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                           });
    if (equals == std::string::npos || !nameOk) {
        return workloadError(
            ErrorCode::InvalidArgument,
            "\"" + text
                + "\" is not NAME=value,value,... (an environment variable and the values "
                  "to give it in turn)",
            "--vary");
    }
    auto values = parseList(text.substr(equals + 1), "--vary");
    if (!values) {
        return fail(values.error());
    }
    for (const auto& value : *values) {
        if (value.find('/') != std::string::npos || value.front() == '.') {
            return workloadError(
                ErrorCode::InvalidArgument,
                "value \"" + value + "\" names a run folder: no '/' and no leading '.'", "--vary");
        }
    }
    vary.values = std::move(values.value());
    return vary;
}

} // namespace

WorkloadResult<Done> planProgramRuns(const SweepOptions& options, SweepPlan& plan) {
    auto executable = resolveProgram(options.program.front());
    if (!executable) {
        return fail(executable.error());
    }
    Vary vary;
    if (!options.vary.empty()) {
        auto parsed = parseVary(options.vary);
        if (!parsed) {
            return fail(parsed.error());
        }
        vary = std::move(parsed.value());
    }
    const std::string program = executable->filename().string();
    // Kept apart, so that a `--vary` among the program's arguments stays the program's.
    plan.configuration.program = options.program;
    plan.configuration.vary = options.vary;
    const std::vector<std::string> values =
        vary.values.empty() ? std::vector<std::string>{""} : vary.values;
    for (std::size_t rep = 0; rep < options.repeat; ++rep) {
        for (const auto& value : values) {
            SweepRun run;
            run.name = program + (value.empty() ? "" : "-" + value) + "-r" + std::to_string(rep);
            run.repetition = rep;
            run.dir = plan.dir / run.name;
            run.args = {"starscope", "record", "--out", run.dir.string(), "--force", "--"};
            run.args.insert(run.args.end(), options.program.begin(), options.program.end());
            if (!value.empty()) {
                run.environment.emplace_back(vary.name, value);
            }
            plan.runs.push_back(std::move(run));
        }
    }
    plan.ranks = {1};
    return Done{};
}

} // namespace starscope::workloads
