#include "workloads/cli/record_program.hpp"

#include "workloads/record/program_recorder.hpp"

#include <iomanip>
#include <ostream>

namespace starscope::workloads::cli {

namespace {

namespace run = tracer::run;

// The CNN's own options: they mean nothing to another program.
constexpr const char* kCnnOptions[] = {
    "--arenas", "--loader",       "--epochs",     "--batches", "--batch-size",
    "--chunk",  "--workers",      "--sched",      "--dataset", "--learning-rate",
    "--seed",   "--train-images", "--test-images"};

void printSummary(std::ostream& out, const ProgramPlan& plan, const ProgramOutcome& outcome) {
    const auto& record = outcome.record;
    const auto& program = *record.program;
    out << "run " << run::statusName(record.status) << ": " << plan.folder.dir.string() << "\n";
    out << "  command       " << program.label() << "\n";
    out << "  program       " << program.executable << "\n";
    out << "  exit          ";
    if (program.signal) {
        out << "killed by " << program.signalName << " (record exits " << outcome.exitCode << ")\n";
    } else {
        out << "status " << program.exitCode.value_or(0) << "\n";
    }
    if (plan.options.ranks > 1) {
        out << "  ranks         " << plan.options.ranks << " (mpirun -np " << plan.options.ranks
            << ")";
        if (plan.trace.value && record.fxt.traceFiles.size() < record.ranks) {
            out << ", " << record.fxt.traceFiles.size() << " prof file"
                << (record.fxt.traceFiles.size() == 1 ? "" : "s") << " (see error)";
        }
        out << "\n";
    }
    out << "  wall time     " << std::fixed << std::setprecision(2)
        << record.wallTimeS.value_or(0.0) << " s\n";
    for (const auto& file : record.fxt.traceFiles) {
        out << "  trace         " << (plan.folder.dir / file).string() << "\n";
    }
    if (!plan.trace.value) {
        out << "  trace         none: not traced"
            << (plan.trace.source == SettingSource::Option ? " (--no-trace)"
                                                           : " (STARPU_FXT_TRACE=0)")
            << "\n";
    } else if (!outcome.traceProblem.empty()) {
        out << "  trace         starscope cannot read it: " << outcome.traceProblem << "\n";
    } else {
        out << "  trace holds   " << outcome.workers << " workers, " << outcome.tasks
            << " tasks executed" << (outcome.traceCut.empty() ? "" : ", up to where it is cut")
            << "\n";
    }
    if (!outcome.traceCut.empty()) {
        out << "  trace cut     " << outcome.traceCut << "\n";
    }
    out << "  StarPU        ";
    if (record.starpuVersionFrom == run::StarpuVersionSource::TraceLayout) {
        out << record.starpuVersion << " (the trace's layout; StarPU writes no release into it)";
    } else {
        out << "unknown";
    }
    out << "; starscope is built against " << record.starscopeStarpu << "\n";
    if (plan.trace.value) {
        out << "  FxT buffer    " << plan.traceBuffer.value << " MiB"
            << settingOrigin(plan.traceBuffer.source, plan.traceBuffer.variable)
            << (plan.traceBuffer.source == SettingSource::Option ? " (--buffer-mb)" : "") << "\n";
    }
    if (plan.folder.source == SettingSource::Environment) {
        out << "  run folder    from STARPU_FXT_PREFIX\n";
    }
    if (plan.trace.value) {
        out << "  FxT events    " << plan.events.set.value.text()
            << settingOrigin(plan.events.set.source, plan.events.set.variable)
            << (plan.events.applies ? " (preloaded: StarPU 1.4 applies it, 1.3 records every event)"
                : plan.events.note.empty() ? ""
                                           : " (" + plan.events.note + ")")
            << "\n";
    }
    printStarpuEnvironment(out, plan.environment);
    out << "  run.json      " << outcome.runJson.string() << "\n";
    if (!record.error.empty()) {
        out << "  error         " << record.error << "\n";
    }
}

} // namespace

void recordProgram(const CLI::App& record, const ProgramOptions& options, std::ostream& out,
                   std::ostream& err) {
    for (const char* option : kCnnOptions) {
        if (record.count(option) > 0) {
            err << "starscope record: " << option
                << " is an option of the built-in CNN workload; with a PROGRAM (after --) record "
                   "takes --out, "
                   "--force, --buffer-mb, --events, --ranks and --no-trace\n";
            throw CLI::RuntimeError(2);
        }
    }
    const auto plan = planProgramRecord(options);
    if (!plan) {
        err << "starscope record: " << plan.error().describe() << "\n";
        throw CLI::RuntimeError(2);
    }
    auto outcome = executeProgramRecord(*plan, err);
    if (!outcome) {
        err << "starscope record: " << outcome.error().error.describe() << "\n";
        throw CLI::RuntimeError(outcome.error().exitCode);
    }
    printSummary(out, *plan, *outcome);
    if (outcome->exitCode != 0) {
        if (!outcome->record.error.empty()) {
            err << "starscope record: " << outcome->record.error << "\n";
        }
        throw CLI::RuntimeError(outcome->exitCode);
    }
}

} // namespace starscope::workloads::cli
