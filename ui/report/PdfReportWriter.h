// SPDX-License-Identifier: MIT
#pragma once

#include "core/report/ReportDocument.h"
#include "core/util/Progress.h"

#include <QFuture>
#include <QPicture>
#include <QSizeF>
#include <QString>
#include <map>

namespace bpu::ui {

/// The report's charts, drawn by QCustomPlot into QPictures (vector display lists). QCustomPlot is a QWidget,
/// so this is made on the GUI thread; the pictures are then replayed into the PDF on any thread. They are
/// recorded at the PDF's resolution (`dpi`, the QPicture logical DPI), which keeps their text sizes exact.
struct ChartPictures {
    struct Chart {
        QPicture picture;
        QSizeF size; ///< device units at `dpi`
    };
    std::map<report::ChartKind, Chart> charts;
    double dpi = 96;
};

/// Page geometry of the report at `dpi` (A4 portrait).
struct ReportPage {
    double dpi = 96;
    QSizeF page;    ///< whole page, device units
    QRectF content; ///< between the margins, header and footer
    double pt(double points) const { return points * dpi / 72.0; }
    static ReportPage a4(double dpi);
};

/// Renders every chart of `doc` with the ui/charts classes. GUI thread only.
ChartPictures renderReportCharts(const report::ReportDocument& doc);

/// What writeReportPdf() laid out.
struct PdfStats {
    int pages = 0;
    int overflows = 0; ///< blocks that ran into the footer (PageFlow::overflows); 0 in a good layout
};

/// Writes `doc` as a PDF with QPdfWriter + QPainter: cover, page header/footer (model, date, page X of N),
/// tables that repeat their header row on each page, charts as vectors, the graph overview. Safe on a worker
/// thread (it uses no widget). Throws std::runtime_error naming `path` when it cannot be written, Cancelled
/// when the progress's cancel flag is raised.
PdfStats writeReportPdf(const report::ReportDocument& doc, const ChartPictures& charts, const QString& path,
                        const Progress& progress = {});

/// The GUI's entry point: renders the charts on the calling (GUI) thread, then writes the PDF on a worker
/// (QtConcurrent). `progress.report` is called from the worker. The future's result is an error message,
/// empty on success.
QFuture<QString> exportReportPdf(report::ReportDocument doc, QString path, Progress progress = {});

} // namespace bpu::ui
