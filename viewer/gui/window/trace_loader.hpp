#pragma once
// Reads and prepares traces on a worker thread (QtConcurrent). Progress, the finished
// document or the reader's error message come back to the UI thread as signals; widgets never
// parse. A new load or cancel() stops the running one through the reader's progress callback.

#include "viewer/core/document/run_panel.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QFuture>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <filesystem>
#include <memory>
#include <vector>

namespace starscope::viewer {

struct LoadOutcome {
    std::shared_ptr<const TraceDocument> document;
    std::shared_ptr<const Barriers> barriers;
    std::shared_ptr<const Barriers> rankBarriers;   // each rank's own (JobAndRankBarriers::ranks)
    std::shared_ptr<const OpenedRun> run;           // its run.json, read once here
    QString error;            // the reader's message when loading failed
    bool cancelled = false;
};

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    // Starts loading paths as one trace (several: the prof files of one job, merged), cancelling
    // any load in progress; barriers use thresholdNs.
    void load(const QStringList& paths, tracer::TimeNs thresholdNs);
    void cancel();
    bool isLoading() const { return m_active != nullptr; }

signals:
    void progress(int percent);
    void loaded(std::shared_ptr<const starscope::viewer::TraceDocument> document,
                std::shared_ptr<const starscope::viewer::Barriers> barriers,
                std::shared_ptr<const starscope::viewer::Barriers> rankBarriers,
                std::shared_ptr<const starscope::viewer::OpenedRun> run);
    // path: what was being loaded, the paths joined as sourceName joins them.
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    struct Job {
        std::vector<std::filesystem::path> paths;
        QString name;   // sourceName(paths)
        std::atomic<bool> cancel{false};
        std::atomic<int> lastPercent{-1};
        QFuture<LoadOutcome> future;
    };

    void finish(const std::shared_ptr<Job>& job);

    std::shared_ptr<Job> m_active;
    std::vector<std::shared_ptr<Job>> m_running;   // including cancelled ones still unwinding
};

} // namespace starscope::viewer
