// SPDX-License-Identifier: MIT
#include "FindingsPanel.h"

#include "core/advice/FindingText.h"
#include "core/analysis/AnalysisResult.h"
#include "core/edit/Edit.h"
#include "core/report/GuideRules.h"
#include "core/target/TargetProfile.h"
#include "ui/session/SelectionHub.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bpu::ui {

namespace {
enum Column { GainColumn, WasteColumn, RuleColumn, SeverityColumn, TitleColumn, ColumnCount };
} // namespace

QString ruleText(const QString& ruleId) {
    // The guide's rules, read once through the core loader (the same file and checks as the report).
    static const report::GuideRules rules = [] {
        try {
            return report::loadGuideRules();
        } catch (const std::exception&) {
            return report::GuideRules(); // no rule texts: the findings still show
        }
    }();
    const report::GuideRule* r = rules.find(ruleId.toStdString());
    return r ? QString::fromStdString(r->text) : QString();
}

FindingsPanel::FindingsPanel(SelectionHub* hub, QWidget* parent)
    : QWidget(parent)
    , hub_(hub)
    , tree_(new QTreeWidget(this))
    , details_(new QTextBrowser(this))
    , apply_(new QPushButton(tr("&Apply fix"), this))
    , whatIf_(new QPushButton(tr("Try &what-if (waste removed)"), this))
    , alternative_(new QPushButton(tr("Apply a&lternative"), this))
    , folded_(new QLabel(this))
    , objective_(new QComboBox(this)) {
    // Issue 62: the objective the gains are counted in. Latency first: the default, one frame's time.
    objective_->addItem(tr("Rank by latency (one frame)"), int(Objective::Latency));
    objective_->addItem(tr("Rank by throughput (FPS, 2 threads)"), int(Objective::Throughput));
    objective_->setToolTip(tr("What the findings and the plan rank by. Latency: the time one frame saves; a "
                              "batch, which makes every frame wait, counts none. Throughput: images per "
                              "second with two threads."));
    connect(objective_, &QComboBox::activated, this, [this](int index) {
        emit objectiveChosen(static_cast<Objective>(objective_->itemData(index).toInt()));
    });
    tree_->setColumnCount(ColumnCount);
    // The fix's gain and the waste's cost kept apart: only the first is what a change the user can make
    // saves; the second is an upper bound (an idealized what-if). The title last, where it can stretch.
    tree_->setHeaderLabels(
        {tr("Fix gain (ms)"), tr("Waste <= (ms)"), tr("Rule"), tr("Severity"), tr("Finding")});
    tree_->headerItem()->setToolTip(GainColumn, tr("Per image, re-estimated with the concrete fix applied"));
    tree_->headerItem()->setToolTip(WasteColumn,
                                    tr("What the waste costs per image if it were removed outright "
                                       "(an idealized what-if): an upper bound, not a fix's gain"));
    tree_->setRootIsDecorated(false);
    tree_->header()->setStretchLastSection(true);
    tree_->setColumnWidth(GainColumn, 64);
    tree_->setColumnWidth(WasteColumn, 64);
    tree_->setColumnWidth(RuleColumn, 44);
    tree_->setColumnWidth(SeverityColumn, 58);
    details_->setPlaceholderText(
        tr("Select a finding: its guide rule, evidence, affected nodes and the fix to try "
           "as a what-if."));
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(split);
    auto* tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(objective_);
    tl->addWidget(tree_);
    folded_->setWordWrap(true);
    folded_->hide();
    tl->addWidget(folded_);
    split->addWidget(top);
    auto* bottom = new QWidget(split);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addWidget(details_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(apply_);
    buttons->addWidget(alternative_);
    buttons->addWidget(whatIf_);
    bl->addLayout(buttons);
    split->addWidget(bottom);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(split);
    apply_->setToolTip(tr("Apply the finding's fix, a change to the model or its compile options, as one "
                          "undoable edit"));
    whatIf_->setToolTip(tr("Apply the idealized what-if (the waste removed outright) as one undoable edit, "
                           "to see what the waste costs: no model can be changed this way"));
    alternative_->setToolTip(tr("Apply the other change the recommendation measures (its figures are in the "
                                "recommendation), as one undoable edit"));
    apply_->setEnabled(false);
    whatIf_->setEnabled(false);
    alternative_->setVisible(false);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        showDetails(item ? item->data(0, Qt::UserRole).toInt() : -1, !refreshing_);
    });
    // A click on the finding already chosen is a choice too: its node is selected again.
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        if (item == tree_->currentItem() && snap_ && current_ >= 0 &&
            current_ < int(snap_->analysis->findings.size()) &&
            !snap_->analysis->findings[current_].nodes.empty())
            hub_->select(snap_->analysis->findings[current_].nodes.front(), this);
    });
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (!snap_ || current_ < 0 || current_ >= int(snap_->analysis->findings.size()))
            return;
        const Finding& f = snap_->analysis->findings[current_];
        if (!f.fix.empty())
            emit applyFix(f.fix, QString::fromStdString(f.title));
    });
    connect(alternative_, &QPushButton::clicked, this, [this] {
        if (!snap_ || current_ < 0 || current_ >= int(snap_->analysis->findings.size()))
            return;
        const Finding& f = snap_->analysis->findings[current_];
        if (!f.alternativeFix.empty())
            emit applyFix(f.alternativeFix, tr("Alternative: %1").arg(QString::fromStdString(f.title)));
    });
    connect(whatIf_, &QPushButton::clicked, this, [this] {
        if (!snap_ || current_ < 0 || current_ >= int(snap_->analysis->findings.size()))
            return;
        const Finding& f = snap_->analysis->findings[current_];
        if (!f.whatIf.empty())
            emit applyFix(f.whatIf, tr("What-if: %1").arg(QString::fromStdString(f.title)));
    });
}

void FindingsPanel::setSnapshot(SnapshotPtr s) {
    snap_ = std::move(s);
    if (snap_) {
        const QSignalBlocker quiet(objective_); // the snapshot's state, not the user's choice
        objective_->setCurrentIndex(objective_->findData(int(snap_->objective)));
    }
    // Rebuilding the rows is no user's choice: nothing is selected from here.
    refreshing_ = true;
    tree_->clear();
    current_ = -1;
    if (!snap_) {
        folded_->hide();
        refreshing_ = false;
        showDetails(-1, false);
        return;
    }
    const auto& fs = snap_->analysis->findings;
    const std::string folded = foldedSummaryText(snap_->analysis->foldedFindings);
    folded_->setText(QString::fromStdString(folded));
    folded_->setVisible(!folded.empty());
    QTreeWidgetItem* again = nullptr;
    for (int i = 0; i < int(fs.size()); ++i) {
        const Finding& f = fs[i];
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(GainColumn, f.estimatedGainMs
                                      ? QString::number(*f.estimatedGainMs, 'f', 3)
                                      : (snap_->findingsReady ? QStringLiteral("-") : tr("...")));
        if (f.wasteUpperBoundMs)
            item->setText(WasteColumn, QString::number(*f.wasteUpperBoundMs, 'f', 3));
        item->setTextAlignment(GainColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(WasteColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(RuleColumn, QString::fromLatin1(ruleName(f.rule)));
        item->setText(SeverityColumn, QString::fromLatin1(severityName(f.severity)));
        // Issue 62: the marker leads the title, where the narrow severity column cannot hide it.
        const std::string weak = weakRestsOnText(f.restsOn);
        item->setText(TitleColumn,
                      QString::fromStdString(
                          (weak.empty() ? std::string() : std::string(kUnprovenMarker) + ": ") + f.title));
        if (!weak.empty())
            item->setToolTip(SeverityColumn,
                             tr("At most medium: its gain %1").arg(QString::fromStdString(weak)));
        item->setData(0, Qt::UserRole, i);
        item->setToolTip(RuleColumn, ruleText(QString::fromLatin1(ruleName(f.rule))));
        item->setToolTip(TitleColumn, QString::fromStdString(f.title + "\n" + findingOutcomeText(f)));
        if (chosen_ && !again && chosen_->first == ruleName(f.rule) && !f.nodes.empty() &&
            f.nodes.front().value == chosen_->second)
            again = item;
    }
    if (again)
        tree_->setCurrentItem(again);
    else
        showDetails(-1, false);
    refreshing_ = false;
}

void FindingsPanel::reset() {
    chosen_.reset();
    refreshing_ = true;
    tree_->setCurrentItem(nullptr);
    tree_->clearSelection();
    refreshing_ = false;
    showDetails(-1, false);
}

void FindingsPanel::showDetails(int index, bool userChoice) {
    current_ = index;
    if (!snap_ || index < 0 || index >= int(snap_->analysis->findings.size())) {
        details_->clear();
        apply_->setEnabled(false);
        whatIf_->setEnabled(false);
        alternative_->setVisible(false);
        if (userChoice)
            chosen_.reset();
        return;
    }
    const Finding& f = snap_->analysis->findings[index];
    const Graph& g = *snap_->graph;
    auto esc = [](const std::string& s) {
        return QString::fromStdString(s).toHtmlEscaped();
    };
    QString h = QStringLiteral("<h3>[%1] %2</h3>").arg(esc(ruleName(f.rule)), esc(f.title));
    const QString rule = ruleText(QString::fromLatin1(ruleName(f.rule)));
    if (!rule.isEmpty())
        h += QStringLiteral("<p><i>Guide %1: %2</i></p>").arg(esc(ruleName(f.rule)), rule.toHtmlEscaped());
    h += QStringLiteral("<p><b>Recommendation:</b> %1</p>").arg(esc(f.recommendation));
    // The same words as the CLI and the report (core/advice/FindingText).
    h += QStringLiteral("<p><b>Outcome:</b> %1</p>").arg(esc(findingOutcomeText(f)));
    if (f.estimatedGainMs)
        h +=
            QStringLiteral("<p><b>Fix gain:</b> %1 ms (%2% of the model), re-estimated with the concrete fix "
                           "applied</p>")
                .arg(*f.estimatedGainMs, 0, 'f', 3)
                .arg(snap_->cost.perImageMs > 0 ? *f.estimatedGainMs / snap_->cost.perImageMs * 100 : 0, 0,
                     'f', 1);
    if (f.wasteUpperBoundMs)
        h += QStringLiteral("<p><b>Cost of this waste (upper bound):</b> %1 ms, if it were removed outright "
                            "(an idealized what-if, not a change to the model)</p>")
                 .arg(*f.wasteUpperBoundMs, 0, 'f', 3);
    if (const std::string rests = restsOnListText(f); !rests.empty())
        h += QStringLiteral("<p><b>Gain rests on:</b> %1</p>").arg(esc(rests));
    h += QStringLiteral("<p><b>Evidence:</b></p><pre>%1</pre>").arg(esc(f.evidence.dump(2)));
    h += QStringLiteral("<p><b>Nodes:</b> ");
    int shown = 0;
    for (NodeId id : f.nodes) {
        if (shown++ == 20) {
            h += QStringLiteral("... (%1 in all)").arg(f.nodes.size());
            break;
        }
        h += esc(g.node(id).name) + QStringLiteral("; ");
    }
    h += QStringLiteral("</p>");
    auto editList = [&](const QString& label, const EditList& edits) {
        if (edits.empty())
            return;
        h += QStringLiteral("<p><b>%1</b></p><ul>").arg(label);
        for (size_t i = 0; i < edits.size() && i < 12; ++i)
            h += QStringLiteral("<li><code>%1</code></li>").arg(esc(edits[i]->describe(8)));
        if (edits.size() > 12)
            h += QStringLiteral("<li>... %1 edits in all</li>").arg(edits.size());
        h += QStringLiteral("</ul>");
    };
    for (const auto& p : f.also)
        h += QStringLiteral("<p><b>Also:</b> %1</p>").arg(esc(findingPartText(p)));
    if (!f.occurrences.empty()) {
        h += QStringLiteral("<p><b>%1 occurrences</b> (each as raised, with its own figures):</p><ul>")
                 .arg(f.occurrences.size());
        for (size_t i = 0; i < f.occurrences.size() && i < 20; ++i)
            h += QStringLiteral("<li>%1</li>").arg(esc(findingPartText(f.occurrences[i])));
        if (f.occurrences.size() > 20)
            h += QStringLiteral("<li>... %1 in all</li>").arg(f.occurrences.size());
        h += QStringLiteral("</ul>");
    }
    editList(tr("Fix (a change to the model or its compile options):"), f.fix);
    editList(tr("Alternative fix (another change the recommendation measures):"), f.alternativeFix);
    editList(tr("What-if (idealized, the cost of the waste):"), f.whatIf);
    details_->setHtml(h);
    apply_->setEnabled(!f.fix.empty());
    whatIf_->setEnabled(!f.whatIf.empty());
    alternative_->setVisible(!f.alternativeFix.empty());
    if (userChoice) {
        // The user chose this finding: remember it across snapshots and select its node, this once.
        chosen_.reset();
        if (!f.nodes.empty()) {
            chosen_ = std::make_pair(std::string(ruleName(f.rule)), f.nodes.front().value);
            hub_->select(f.nodes.front(), this);
        }
    }
}

} // namespace bpu::ui
