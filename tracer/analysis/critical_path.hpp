#pragma once
// The critical path: the longest chain of tasks each waiting for the one before, its length the
// sum of their durations. On a StarPU-MPI job a chain goes on across ranks: a message's receive
// waits for its send (Message::sendJob -> recvJob, the jobs StarPU-MPI records around the data
// it sends and receives), and the time the data were in flight is part of the chain.

#include "tracer/model/trace.hpp"

#include <vector>

namespace starscope::tracer {

// Length of the longest dependency chain, summing task durations and the flight time of the
// messages between ranks it goes through (tasks without recorded dependencies are chains of one).
TimeNs criticalPathLength(const Trace& trace);
// The tasks of that chain, first to last (each depends on the one before, or receives what it
// sent): what the viewer draws. Jobs that never ran (StarPU-MPI's around a message, StarPU's
// synchronisation jobs) are in it where the chain goes through them. Empty when no task ran.
std::vector<TaskIndex> criticalPath(const Trace& trace);

} // namespace starscope::tracer
