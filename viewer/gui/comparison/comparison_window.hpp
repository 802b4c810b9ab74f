#pragma once
// The comparison window: the ComparisonView with an alignment chooser (time since first task,
// since the k-th batch marker, or share of makespan) and Home to fit every run.

#include "viewer/core/comparison.hpp"

#include <QMainWindow>

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

private:
    void applyAlignment();

    ComparisonView* m_view = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_marker = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace starscope::viewer
