#include "tracer/exporters/paje_header.hpp"

#include "tracer/exporters/exporters.hpp"

namespace starscope::tracer {

namespace {

// StarPU's event ids and field orders (starpu_paje.c) where ours are its events, and one of our
// own: 21, a PushState with the JobId and Footprint of the task a worker state runs (StarPU's
// 21 is a SetState with more fields).
constexpr std::string_view kEventDefinitions = R"paje(%EventDef PajeDefineContainerType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 3
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 4
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 5
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeDefineEntityValue 6
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 7
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 8
% Time date
% Name string
% Type string
%EndEventDef
%EventDef PajeNewEvent 9
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePushState 11
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 12
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeSetVariable 13
% Time date
% Container string
% Type string
% Value double
%EndEventDef
%EventDef PajeStartLink 18
% Time date
% Container string
% Type string
% StartContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeEndLink 19
% Time date
% Container string
% Type string
% EndContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajePushState 21
% Time date
% Container string
% Type string
% Value string
% JobId string
% Footprint string
%EndEventDef
)paje";

// StarPU's container hierarchy and its state, event, variable and link types, and ours:
// "barrier" events, "dep" links between tasks.
constexpr std::string_view kTypeDeclarations = R"paje(1 MPIP 0 "MPI Program"
1 P MPIP "Program"
1 Mn P "Memory Node"
1 T Mn "Thread"
1 UT P "User Thread"
1 W T "Worker"
1 MPICt P "MPI Communication Thread"
1 Sc P "Scheduler State"
1 Mm Mn "Memory Manager"
2 prog_event P "program event type"
2 barrier P "barrier (starscope)"
2 thread_event T "thread event type"
2 user_user_event UT "user event type"
3 WS W "Worker State"
3 US UT "User Thread State"
3 CtS MPICt "Communication Thread State"
4 nsubmitted Sc "Number of Submitted Uncompleted Tasks"
5 dep P W W "Task dependency"
5 MPIL MPIP MPICt MPICt "MPI communication"
5 F P Mm Mm "Intra-node data Fetch"
5 TF P Mm Mm "Intra-node data TaskPreFetch"
5 PF P Mm Mm "Intra-node data PreFetch"
5 IF P Mm Mm "Intra-node data IdleFetch"
)paje";

} // namespace

std::string_view pajeEventDefinitions() {
    return kEventDefinitions;
}

std::string_view detail::pajeTypeDeclarations() {
    return kTypeDeclarations;
}

} // namespace starscope::tracer
