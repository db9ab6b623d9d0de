// SPDX-License-Identifier: MIT
#pragma once

#include "ChartData.h"
#include "core/model/Diagnostic.h"
#include "core/model/Graph.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace bpu::report {

/// Horizontal alignment of a table column.
enum class Align { Left, Right };

/// One labelled value of a key-value block.
struct KeyValue {
    std::string key;
    std::string value;
};

/// A table with column headers; every row has headers.size() cells, already formatted.
struct Table {
    std::vector<std::string> headers;
    std::vector<Align> align;   ///< per column (Left when shorter than headers)
    std::vector<double> widths; ///< relative width hints per column for paged output (empty: from content)
    std::vector<std::vector<std::string>> rows;
};

/// A heading inside a section (level 2 = subsection, 3 = item such as one finding).
struct Heading {
    int level = 2;
    std::string text;
};

/// A paragraph of running text.
struct Paragraph {
    std::string text;
};

/// Labelled values, rendered as a two-column list.
struct KeyValues {
    std::string title; ///< optional caption
    std::vector<KeyValue> items;
};

/// A table with an optional caption.
struct TableBlock {
    std::string caption;
    Table table;
};

/// The text of one rule of the design guide, quoted where a finding cites it.
struct RuleText {
    std::string id; ///< G1.1 ... G6.6
    std::string title;
    std::string text;
};

/// A remark set apart from the running text (an assumption, a caveat, "no edits applied").
struct Note {
    std::string text;
};

/// A chart drawn from the data it carries (QCustomPlot in the PDF, inline SVG in HTML). `fallback` is the
/// same data as a table for text formats (empty when another table of the report already shows it).
struct ChartBlock {
    ChartKind kind = ChartKind::LayerLatency;
    std::string caption;
    BarSeries bars;        ///< for the bar charts
    RooflineData roofline; ///< for ChartKind::Roofline
    Table fallback;
};

/// Which drawing of the model graph a figure stands for.
enum class FigureKind {
    GraphPlacement, ///< whole model, coloured by placement
    GraphPadding,   ///< whole model, coloured by padding waste ratio
    GraphHotspot,   ///< the neighbourhood of the top hotspot
};

/// A drawing of the model graph (section 5); paged renderers draw it from ReportDocument::overview.
struct FigureBlock {
    FigureKind kind = FigureKind::GraphPlacement;
    std::string caption;
};

using Block =
    std::variant<Heading, Paragraph, KeyValues, TableBlock, RuleText, Note, ChartBlock, FigureBlock>;

/// One numbered section of the report.
struct Section {
    std::string id; ///< stable key for JSON and HTML anchors ("summary", "findings", ...)
    int number = 0;
    std::string title;
    std::vector<Block> blocks;
};

/// What the graph figures need: the graph and per-node colouring inputs, all by the overview graph's NodeId.
struct GraphOverview {
    /// The model graph without its constant subgraphs (Constant nodes and arithmetic on constants only: the
    /// compiler folds them, and detection models carry hundreds that would only widen the drawing).
    std::shared_ptr<const Graph> graph;
    std::vector<NodeId> sourceNode; ///< overview NodeId -> the report's graph NodeId
    int omittedConstants = 0;       ///< constant-computing nodes left out of `graph`
    std::vector<int> placement;     ///< 0 BPU, 1 CPU, 2 folded
    std::vector<double> wasteRatio; ///< padding waste ratio of the node's outputs (0..1), NaN off the BPU
    std::vector<double> latencyShare;
    std::vector<int> groupOf;       ///< fused group id or -1
    NodeId focus;                   ///< the top hotspot
    int focusRadius = 3;            ///< hops around the focus the zoomed view shows
    std::vector<NodeId> focusNodes; ///< nodes within focusRadius hops of the focus, nearest first
    /// The focus nodes alone, laid out on their own for the zoomed view: in the whole model's layout a
    /// neighbour can sit a page-width away (a detection head's Reshape after the backbone), which shrinks
    /// the zoom to unreadable boxes. Its outside inputs are initializers, as in `graph`.
    std::shared_ptr<const Graph> focusGraph;
    std::vector<NodeId> focusSource; ///< focusGraph NodeId -> overview NodeId
};

/// A headline number of the first page (the PDF's cover tiles, the HTML's cards, a Markdown table row).
struct KpiCard {
    std::string label;  ///< "Board, 1 thread": the figure's name, after the tool that measures it
    std::string value;  ///< "1.962 ms"
    std::string detail; ///< "509.7 FPS; as hrt_model_exec perf"
};

/// How many diagnostics the first page lists before it counts the rest.
constexpr size_t kFirstPageDiagnostics = 8;

/// The whole report as structured data: every renderer (Markdown, HTML, JSON, PDF) reads only this.
struct ReportDocument {
    std::string title;       ///< "BpuScope optimization report: yolov8n"
    std::string modelName;   ///< file stem ("yolov8n")
    std::string modelFile;   ///< as given
    std::string targetName;  ///< display name and version
    std::string generatedAt; ///< local date and time, "2025-01-31 14:05"
    std::string generator;   ///< "BpuScope 0.1.0"
    std::vector<Section> sections;
    std::vector<KpiCard> kpis; ///< headline cards, first page; empty: facts["cover"]["tiles"] if any
    /// The result rests on unresolved inputs: the sentence every format prints before any figure, after
    /// "PARTIAL: " (Completeness::summary). Empty when the result is complete.
    std::string partial;
    /// The result's diagnostics (ResultDiagnostics.h), listed on the first page after the headline cards;
    /// the first `kFirstPageDiagnostics` in the text formats and the PDF, all in the JSON.
    std::vector<Diagnostic> diagnostics;
    nlohmann::json facts; ///< the headline numbers, machine-readable (latency_ms, fps, baseline, ...)
    GraphOverview overview;
};

} // namespace bpu::report
