// The rank group of a starscope built with StarPU-MPI.
#include "common/file_writer.hpp"
#include "common/json_text.hpp"
#include "workloads/mpi/param_exchange.hpp"
#include "workloads/sigint_handler.hpp"
#include "workloads/train_record/rank_group.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <starpu_mpi.h>
#include <unistd.h>

namespace starscope::workloads {

namespace {

class MpiRankGroup final : public RankGroup {
public:
    MpiRankGroup(int rank, int size, MPI_Comm control)
        : m_rank(rank), m_size(size), m_control(control),
          m_exchange(MPI_COMM_WORLD, rank, size) {}
    ~MpiRankGroup() override {
        if (m_runtimeStarted) {
            m_exchange.release();
            starpu_mpi_shutdown();
        }
        MPI_Comm_free(&m_control);
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (finalized == 0) {
            MPI_Finalize();
        }
    }
    MpiRankGroup(const MpiRankGroup&) = delete;
    MpiRankGroup& operator=(const MpiRankGroup&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    bool allAgree(bool ok) override {
        int mine = ok ? 1 : 0;
        int all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, m_control);
        return all != 0;
    }

    bool shareFolderReady(bool ready) override {
        int flag = ready ? 1 : 0;
        MPI_Bcast(&flag, 1, MPI_INT, 0, m_control);
        return flag != 0;
    }

    int startRuntime() override {
        // MPI is already initialised (MPI_THREAD_MULTIPLE, see joinRankGroup): StarPU-MPI only
        // starts StarPU and its communication thread, which calls
        // starpu_profiling_set_id(rank) so that the trace is prof_file_USER_RANK.
        const int status = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, nullptr);
        m_runtimeStarted = status == 0;
        return status;
    }

    StepExchange& exchange() override { return m_exchange; }

    WorkloadResult<std::string> stopRuntime(const std::filesystem::path& dir) override {
        starpu_task_wait_for_all();
        m_exchange.release();
        const std::string name = weightsFileName(m_rank);
        // One line per step: the step (batches over the run) and the checksum of the weights.
        std::string lines;
        std::size_t step = 0;
        for (const auto checksum : m_exchange.checksums()) {
            char line[48];
            std::snprintf(line, sizeof line, "%zu %016llx\n", step++,
                          static_cast<unsigned long long>(checksum));
            lines += line;
        }
        // Whole or not at all: a failed write (a full disk) leaves no empty or partial file.
        const auto written = files::writeFile(dir / name, lines);
        starpu_mpi_shutdown();
        m_runtimeStarted = false;
        // Rank 0 lists and checks every rank's prof file next: each is written by now.
        MPI_Barrier(m_control);
        if (!written) {
            return workloadError(ErrorCode::Io,
                                 "cannot write the weight checksums: " + written.error().message,
                                 (dir / name).string());
        }
        return name;
    }

    std::vector<RankFigures> gather(const RankFigures& mine) override {
        nlohmann::json json{{"rank", mine.rank},         {"host", mine.host},
                            {"status", std::string(tracer::run::statusName(mine.status))},     {"error", mine.error},
                            {"wall_s", mine.wallSeconds},
                            {"batches", mine.batches},   {"weights", mine.weightsFile}};
        if (mine.interruptSignal != 0) {
            json["interrupted_by"] = stopSignalName(mine.interruptSignal);
        }
        if (mine.tasksExecuted) {
            json["tasks_executed"] = *mine.tasksExecuted;
        }
        if (mine.trainLoss) {
            json["train_loss"] = *mine.trainLoss;
        }
        const std::string text = jsonText(json);
        int length = static_cast<int>(text.size());
        std::vector<int> lengths(m_rank == 0 ? static_cast<std::size_t>(m_size) : 0);
        MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, m_control);
        std::vector<int> offsets(lengths.size());
        int total = 0;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            offsets[r] = total;
            total += lengths[r];
        }
        std::string all(static_cast<std::size_t>(total), '\0');
        MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                    MPI_CHAR, 0, m_control);
        std::vector<RankFigures> figures;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            const auto parsed = nlohmann::json::parse(
                all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
            RankFigures f;
            f.rank = parsed.at("rank").get<int>();
            f.host = parsed.at("host").get<std::string>();
            f.status = tracer::run::parseStatus(parsed.at("status").get<std::string>())
                           .value_or(tracer::run::RunStatus::Failed);
            f.error = parsed.at("error").get<std::string>();
            f.wallSeconds = parsed.at("wall_s").get<double>();
            f.batches = parsed.at("batches").get<std::size_t>();
            f.weightsFile = parsed.at("weights").get<std::string>();
            if (parsed.contains("interrupted_by")) {
                f.interruptSignal = stopSignalNumber(parsed["interrupted_by"].get<std::string>());
            }
            if (parsed.contains("tasks_executed")) {
                f.tasksExecuted = parsed["tasks_executed"].get<std::uint64_t>();
            }
            if (parsed.contains("train_loss")) {
                f.trainLoss = parsed["train_loss"].get<double>();
            }
            figures.push_back(std::move(f));
        }
        return figures;
    }

private:
    int m_rank;
    int m_size;
    MPI_Comm m_control; // collectives of the main threads, apart from StarPU-MPI's messages
    mpi::ParamExchange m_exchange;
    bool m_runtimeStarted = false;
};

} // namespace

bool haveStarpuMpi() { return true; }

WorkloadResult<std::unique_ptr<RankGroup>> joinRankGroup() {
    int provided = 0;
    // The main thread agrees on stopping (a collective) while StarPU-MPI's thread sends and
    // receives: both call MPI at once.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
        return workloadError(ErrorCode::Runtime, "MPI_Init_thread failed");
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        MPI_Finalize();
        return workloadError(ErrorCode::Runtime,
                             "this MPI library does not support MPI_THREAD_MULTIPLE, which "
                             "data-parallel record needs");
    }
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm control = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &control);
    return std::unique_ptr<RankGroup>(new MpiRankGroup(rank, size, control));
}

} // namespace starscope::workloads
