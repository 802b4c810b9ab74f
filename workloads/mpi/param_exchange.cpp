#include "workloads/mpi/param_exchange.hpp"

#include "workloads/cnn/codelets.hpp"

#include <cstring>
#include <starpu_mpi.h>
#include <string>

namespace starscope::workloads::mpi {

namespace {

struct AverageArgs {
    std::int32_t count = 0; // buffers averaged: this rank's and the received ones
};

// buffers[0] (RW) becomes the mean of itself and buffers[1..count-1] (R), summed in rank order
// so that the result does not depend on which message came first.
void averageCpu(void* buffers[], void* clArg) {
    AverageArgs args;
    starpu_codelet_unpack_args(clArg, &args);
    auto* out = reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0]));
    const std::size_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    const float scale = 1.0F / static_cast<float>(args.count);
    for (std::int32_t b = 1; b < args.count; ++b) {
        const auto* in = reinterpret_cast<const float*>(STARPU_VECTOR_GET_PTR(buffers[b]));
        for (std::size_t j = 0; j < n; ++j) {
            out[j] += in[j];
        }
    }
    for (std::size_t j = 0; j < n; ++j) {
        out[j] *= scale;
    }
}

// FNV-1a over the bytes of every buffer (R), into the std::uint64_t the argument points to.
void checksumCpu(void* buffers[], void* clArg) {
    std::uint64_t* slot = nullptr;
    std::int32_t count = 0;
    starpu_codelet_unpack_args(clArg, &slot, &count);
    std::uint64_t hash = 1469598103934665603ULL;
    for (std::int32_t b = 0; b < count; ++b) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(STARPU_VECTOR_GET_PTR(buffers[b]));
        const std::size_t size = STARPU_VECTOR_GET_NX(buffers[b]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[b]);
        for (std::size_t i = 0; i < size; ++i) {
            hash = (hash ^ bytes[i]) * 1099511628211ULL;
        }
    }
    *slot = hash;
}

starpu_codelet& averageCodelet() {
    static starpu_codelet codelet = cnn::makeCodelet("average_params", averageCpu, {});
    return codelet;
}

starpu_codelet& checksumCodelet() {
    static starpu_codelet codelet = cnn::makeCodelet("checksum_params", checksumCpu, {});
    return codelet;
}

// StarPU-MPI matches messages by source and tag: one tag per step, parameter and direction
// keeps every message of a step distinct from the next step's.
starpu_mpi_tag_t messageTag(std::size_t step, std::size_t param, bool toRoot) {
    return static_cast<starpu_mpi_tag_t>(step * 8 + param * 2 + (toRoot ? 0 : 1));
}

WorkloadResult<Done> check(int status, const std::string& what) {
    if (status != 0) {
        return workloadError(ErrorCode::Runtime, what + " failed: " + std::strerror(status < 0 ? -status : status));
    }
    return Done{};
}

} // namespace

ParamExchange::ParamExchange(MPI_Comm comm, int rank, int size)
    : m_comm(comm), m_rank(rank), m_size(size) {}

ParamExchange::~ParamExchange() { release(); }

void ParamExchange::release() {
    for (auto& handles : m_received) {
        for (auto& handle : handles) {
            starpu_data_unregister(handle);
        }
    }
    m_received.clear();
    m_buffers.clear();
}

WorkloadResult<std::size_t> ParamExchange::afterBatch(std::span<const starpu_data_handle_t> params,
                                                      std::size_t step) {
    std::size_t tasks = 0;
    if (m_rank == 0 && m_received.empty()) {
        // Registered once: StarPU orders each step's receive after the previous average read it.
        for (const auto handle : params) {
            const std::size_t n = starpu_vector_get_nx(handle);
            auto& buffers = m_buffers.emplace_back(static_cast<std::size_t>(m_size - 1),
                                                   std::vector<float>(n));
            auto& handles = m_received.emplace_back();
            for (auto& buffer : buffers) {
                starpu_data_handle_t received = nullptr;
                starpu_vector_data_register(&received, STARPU_MAIN_RAM,
                                            reinterpret_cast<uintptr_t>(buffer.data()), static_cast<std::uint32_t>(n),
                                            sizeof(float));
                handles.push_back(received);
            }
        }
    }
    for (std::size_t p = 0; p < params.size(); ++p) {
        const auto handle = params[p];
        WorkloadResult<Done> done = Done{};
        if (m_rank == 0) {
            std::vector<starpu_data_descr> descr{{handle, STARPU_RW}};
            for (int r = 1; r < m_size && done; ++r) {
                const auto received = m_received[p][static_cast<std::size_t>(r - 1)];
                done = check(starpu_mpi_irecv_detached(received, r, messageTag(step, p, true), m_comm,
                                                       nullptr, nullptr),
                             "starpu_mpi_irecv_detached");
                descr.push_back({received, STARPU_R});
            }
            if (done) {
                AverageArgs args;
                args.count = m_size;
                done = check(starpu_task_insert(&averageCodelet(), STARPU_DATA_MODE_ARRAY,
                                                descr.data(), static_cast<int>(descr.size()),
                                                STARPU_VALUE, &args, sizeof args, 0),
                             "starpu_task_insert(average_params)");
                ++tasks;
            }
            for (int r = 1; r < m_size && done; ++r) {
                done = check(starpu_mpi_isend_detached(handle, r, messageTag(step, p, false), m_comm,
                                                       nullptr, nullptr),
                             "starpu_mpi_isend_detached");
            }
        } else {
            done = check(starpu_mpi_isend_detached(handle, 0, messageTag(step, p, true), m_comm,
                                                   nullptr, nullptr),
                         "starpu_mpi_isend_detached");
            if (done) {
                done = check(starpu_mpi_irecv_detached(handle, 0, messageTag(step, p, false), m_comm,
                                                       nullptr, nullptr),
                             "starpu_mpi_irecv_detached");
            }
        }
        if (!done) {
            return fail(done.error());
        }
    }
    std::vector<starpu_data_descr> descr;
    for (const auto handle : params) {
        descr.push_back({handle, STARPU_R});
    }
    std::uint64_t* slot = &m_checksums.emplace_back(0);
    const auto count = static_cast<std::int32_t>(descr.size());
    auto done = check(starpu_task_insert(&checksumCodelet(), STARPU_DATA_MODE_ARRAY, descr.data(),
                                         count, STARPU_VALUE, &slot, sizeof slot, STARPU_VALUE,
                                         &count, sizeof count, 0),
                      "starpu_task_insert(checksum_params)");
    if (!done) {
        return fail(done.error());
    }
    return tasks + 1;
}

bool ParamExchange::agreeStop(bool localStop) {
    // On the main thread while StarPU-MPI's thread also calls MPI: MPI runs with
    // MPI_THREAD_MULTIPLE (see joinRankGroup). Batch boundaries are a submission point, not an
    // execution one: this only keeps the ranks' submissions in step.
    int mine = localStop ? 1 : 0;
    int any = 0;
    if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, m_comm) != MPI_SUCCESS) {
        return true;
    }
    return any != 0;
}

} // namespace starscope::workloads::mpi
