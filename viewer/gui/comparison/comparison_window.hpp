#pragma once
// The comparison window: the ComparisonView with an alignment chooser (time since first task,
// since the k-th batch marker, or share of makespan), Home to fit every run, T for the data
// transfers; each panel's rows scroll (Shift+wheel, Page Up/Down) when they do not fit.

#include "viewer/core/comparison/comparison.hpp"

#include <QMainWindow>

class QAction;
class QComboBox;
class QLabel;
class QSpinBox;

namespace starscope::viewer {

class ComparisonView;

class ComparisonWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit ComparisonWindow(QWidget* parent = nullptr);

    ViewerResult<Done> setComparison(const LoadedComparison& loaded, const Alignment& alignment);
    ComparisonView* view() const { return m_view; }
    // Show data transfers (T): checkable, enabled when a run has transfers.
    QAction* transfersAction() const { return m_transfersAction; }

private:
    void applyAlignment();

    ComparisonView* m_view = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_marker = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_transfersAction = nullptr;
};

} // namespace starscope::viewer
