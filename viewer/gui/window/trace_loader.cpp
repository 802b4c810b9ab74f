#include "viewer/gui/window/trace_loader.hpp"

#include "viewer/core/document/heap_release.hpp"

#include <QFutureWatcher>
#include <QtConcurrent>

#include <algorithm>

namespace starscope::viewer {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {}

TraceLoader::~TraceLoader() {
    for (const auto& job : m_running) {
        job->cancel = true;
    }
    for (const auto& job : m_running) {
        job->future.waitForFinished();
    }
}

void TraceLoader::cancel() {
    if (m_active) {
        m_active->cancel = true;
    }
}

void TraceLoader::load(const QStringList& paths, tracer::TimeNs thresholdNs) {
    cancel();
    auto job = std::make_shared<Job>();
    for (const QString& path : paths) {
        job->paths.emplace_back(path.toStdString());
    }
    job->name = QString::fromStdString(sourceName(job->paths));
    m_active = job;
    m_running.push_back(job);

    Job* raw = job.get();
    job->future = QtConcurrent::run([this, raw, thresholdNs]() {
        LoadOutcome outcome;
        tracer::ReadOptions options = viewerReadOptions();
        options.progress = [this, raw](double fraction) {
            const int percent = std::clamp(static_cast<int>(fraction * 100.0), 0, 100);
            // Only whole-percent changes cross threads: the reader may call this very often.
            if (raw->lastPercent.exchange(percent) != percent) {
                QMetaObject::invokeMethod(
                    this, [this, raw, percent] {
                        if (m_active.get() == raw) {
                            emit progress(percent);
                        }
                    },
                    Qt::QueuedConnection);
            }
            return !raw->cancel.load();
        };
        auto document = loadDocument(raw->paths, options);
        if (!document) {
            outcome.cancelled = document.error().code == tracer::ErrorCode::Cancelled || raw->cancel.load();
            outcome.error = QString::fromStdString(document.error().describe());
            return outcome;
        }
        if (raw->cancel.load()) {
            outcome.cancelled = true;
            return outcome;
        }
        auto barriers = computeJobAndRankBarriers(**document, thresholdNs);
        outcome.barriers = std::make_shared<const Barriers>(std::move(barriers.job));
        outcome.rankBarriers = std::make_shared<const Barriers>(std::move(barriers.ranks));
        outcome.document = std::move(document).value();
        outcome.run = std::make_shared<const OpenedRun>(readOpenedRun(raw->paths));
        return outcome;
    });

    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(watcher, &QFutureWatcher<LoadOutcome>::finished, this, [this, job, watcher] {
        watcher->deleteLater();
        finish(job);
    });
    watcher->setFuture(job->future);
}

void TraceLoader::finish(const std::shared_ptr<Job>& job) {
    std::erase(m_running, job);
    if (m_active != job) {
        return;   // superseded by a newer load: its outcome no longer matters
    }
    m_active.reset();
    LoadOutcome outcome = job->future.result();
    if (outcome.cancelled) {
        emit cancelled(job->name);
    } else if (!outcome.error.isEmpty()) {
        emit failed(job->name, outcome.error);
    } else {
        emit progress(100);
        emit loaded(outcome.document, outcome.barriers, outcome.rankBarriers, outcome.run);
    }
    // The reader's tables are gone, and the receivers of loaded() have let the previous
    // document go: their pages go back to the system now, or the viewer keeps the high-water
    // mark of every load it did. On the pool: after a large document it takes tens of ms.
    static_cast<void>(QtConcurrent::run([] { releaseFreeHeap(); }));
}

} // namespace starscope::viewer
