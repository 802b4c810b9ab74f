#include "viewer/gui/window/shortcut_help.hpp"

#include "viewer/gui/window/chart_keys.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace starscope::viewer {

namespace {

// Menu commands with a shortcut, submenus included: "Ctrl+O", "Open trace..." (File).
void addMenuShortcuts(const QMenu& menu, const QString& where, std::vector<ShortcutEntry>& out) {
    for (const QAction* action : menu.actions()) {
        if (action->menu() != nullptr) {
            addMenuShortcuts(*action->menu(), where, out);
        } else if (!action->shortcut().isEmpty()) {
            out.push_back({action->shortcut().toString(QKeySequence::NativeText),
                           QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')), where)});
        }
    }
}

} // namespace

ShortcutHelp::ShortcutHelp(const QMenuBar* menus, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard and mouse"));
    std::vector<ShortcutEntry> entries = chartShortcuts();
    for (const QAction* top : menus->actions()) {
        if (top->menu() != nullptr) {
            addMenuShortcuts(*top->menu(), top->text().remove(QLatin1Char('&')), entries);
        }
    }
    auto* table = new QTableWidget(static_cast<int>(entries.size()), 2, this);
    table->setHorizontalHeaderLabels({tr("Key or gesture"), tr("What it does")});
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        table->setItem(static_cast<int>(i), 0, new QTableWidgetItem(entries[i].keys));
        table->setItem(static_cast<int>(i), 1, new QTableWidgetItem(entries[i].what));
    }
    table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(620, 520);
}

} // namespace starscope::viewer
