// SPDX-License-Identifier: MIT
#include "PdfReportWriter.h"

#include "PdfComposer.h"
#include "ui/charts/RankedBarChart.h"
#include "ui/charts/RooflineChart.h"

#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>
#include <stdexcept>

namespace bpu::ui {

ReportPage ReportPage::a4(double dpi) {
    ReportPage p;
    p.dpi = dpi;
    const QSizeF pts = QPageSize(QPageSize::A4).size(QPageSize::Point);
    p.page = QSizeF(p.pt(pts.width()), p.pt(pts.height()));
    // Margins in points: 40 left/right, header band on top, footer band at the bottom.
    p.content = QRectF(p.pt(40), p.pt(50), p.page.width() - p.pt(80), p.page.height() - p.pt(50) - p.pt(44));
    return p;
}

ChartPictures renderReportCharts(const report::ReportDocument& doc) {
    ChartPictures out;
    out.dpi = QPicture().logicalDpiX();
    const ReportPage page = ReportPage::a4(out.dpi);
    const double width = page.content.width();
    for (const auto& section : doc.sections)
        for (const auto& block : section.blocks) {
            const auto* c = std::get_if<report::ChartBlock>(&block);
            if (!c)
                continue;
            std::unique_ptr<charts::ChartBase> chart;
            double height = 0;
            switch (c->kind) {
            case report::ChartKind::LayerLatency: {
                auto bars = std::make_unique<charts::LayerLatencyChart>();
                bars->setSeries(c->bars);
                height = page.pt(60 + 13.0 * double(std::max<size_t>(c->bars.items.size(), 3)));
                chart = std::move(bars);
                break;
            }
            case report::ChartKind::PaddingWaste: {
                auto bars = std::make_unique<charts::PaddingWasteChart>();
                bars->setSeries(c->bars);
                height = page.pt(60 + 13.0 * double(std::max<size_t>(c->bars.items.size(), 3)));
                chart = std::move(bars);
                break;
            }
            case report::ChartKind::OpBreakdown: {
                auto bars = std::make_unique<charts::OpBreakdownChart>();
                bars->setSeries(c->bars);
                height = page.pt(60 + 13.0 * double(std::max<size_t>(c->bars.items.size(), 3)));
                chart = std::move(bars);
                break;
            }
            case report::ChartKind::Roofline: {
                auto roof = std::make_unique<charts::RooflineChart>();
                roof->setData(c->roofline);
                height = page.pt(320);
                chart = std::move(roof);
                break;
            }
            }
            // A white background so the charts print the same whatever the desktop theme is.
            QPalette pal = chart->palette();
            pal.setColor(QPalette::Base, Qt::white);
            pal.setColor(QPalette::Window, Qt::white);
            pal.setColor(QPalette::WindowText, QColor(26, 26, 26));
            chart->setPalette(pal);
            const QSize size{int(width), int(height)};
            chart->resize(size);
            out.charts[c->kind] = {chart->toPicture(size), QSizeF(size)};
        }
    return out;
}

PdfStats writeReportPdf(const report::ReportDocument& doc, const ChartPictures& charts, const QString& path,
                        const Progress& progress) {
    PdfStats stats;
    const std::string where = path.toStdString();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw std::runtime_error(where + ": cannot write: " + file.errorString().toStdString());
    const ReportPage page = ReportPage::a4(charts.dpi);
    {
        QPdfWriter writer(&file);
        writer.setResolution(int(charts.dpi));
        writer.setPageLayout(
            QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        writer.setTitle(QString::fromStdString(doc.title));
        writer.setCreator(QString::fromStdString(doc.generator));
        QPainter painter;
        if (!painter.begin(&writer))
            throw std::runtime_error(where + ": cannot start the PDF");
        progress(0.0, "laying out");
        PdfComposer composer(doc, charts, page, &writer, progress);
        composer.compose();
        const int pages = composer.pageCount();
        stats = {pages, composer.overflows()};
        for (int i = 0; i < pages; ++i) {
            progress.checkCancel();
            progress(0.5 + 0.5 * double(i) / double(pages), "painting page " + std::to_string(i + 1));
            if (i > 0)
                writer.newPage();
            composer.paintPage(painter, i);
        }
        painter.end();
    }
    if (!file.commit())
        throw std::runtime_error(where + ": cannot write: " + file.errorString().toStdString());
    progress(1.0, "done");
    return stats;
}

QFuture<QString> exportReportPdf(report::ReportDocument doc, QString path, Progress progress) {
    ChartPictures charts = renderReportCharts(doc);
    return QtConcurrent::run([doc = std::move(doc), charts = std::move(charts), path, progress]() -> QString {
        try {
            writeReportPdf(doc, charts, path, progress);
            return {};
        } catch (const Cancelled&) {
            return QStringLiteral("cancelled");
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    });
}

} // namespace bpu::ui
