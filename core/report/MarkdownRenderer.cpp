// SPDX-License-Identifier: MIT
#include "ReportRenderers.h"

#include <sstream>

namespace bpu::report {

namespace {

/// Any text of the document (names from the model included) as literal Markdown on one line: the
/// characters Markdown would act on are backslash-escaped and '<' (raw HTML) entity-encoded, so a node
/// named "<script>", "[x](javascript:...)" or "*x*" prints as itself, and a newline cannot start a new
/// block. ('_' and a bare "[G1.1]" stay: identifiers are full of '_', an intraword '_' emphasises nothing,
/// and brackets make a link only when "(" follows.)
std::string cell(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    char previous = 0;
    for (char ch : s) {
        const char was = previous;
        previous = ch;
        switch (ch) {
        case '\\':
        case '`':
        case '*':
        case '|':
            out += '\\';
            out += ch;
            break;
        case '(':
            // "[text](url)" and "![x](url)" are links and images only with the '(' right after ']'.
            if (was == ']')
                out += '\\';
            out += ch;
            break;
        case '<': // the one character that opens raw HTML (or an autolink) in Markdown
            out += "&lt;";
            break;
        case '\n':
        case '\r':
            out += ' ';
            break;
        default:
            out += ch;
        }
    }
    return out;
}

void table(std::ostream& os, const Table& t) {
    os << "|";
    for (const auto& h : t.headers)
        os << " " << cell(h) << " |";
    os << "\n|";
    for (size_t i = 0; i < t.headers.size(); ++i)
        os << (i < t.align.size() && t.align[i] == Align::Right ? "---:|" : "---|");
    os << "\n";
    for (const auto& row : t.rows) {
        os << "|";
        for (const auto& v : row)
            os << " " << cell(v) << " |";
        os << "\n";
    }
    os << "\n";
}

struct BlockWriter {
    std::ostream& os;
    void operator()(const Heading& h) const {
        os << std::string(size_t(h.level) + 1, '#') << " " << cell(h.text) << "\n\n";
    }
    void operator()(const Paragraph& p) const { os << cell(p.text) << "\n\n"; }
    void operator()(const KeyValues& kv) const {
        if (!kv.title.empty())
            os << "**" << cell(kv.title) << "**\n\n";
        for (const auto& i : kv.items)
            os << "- **" << cell(i.key) << ":** " << cell(i.value) << "\n";
        os << "\n";
    }
    void operator()(const TableBlock& t) const {
        if (!t.caption.empty())
            os << "*" << cell(t.caption) << "*\n\n";
        table(os, t.table);
    }
    void operator()(const RuleText& r) const {
        os << "> **Rule " << cell(r.id) << (r.title.empty() ? "" : " - " + cell(r.title)) << ".** "
           << cell(r.text) << "\n\n";
    }
    void operator()(const Note& n) const { os << "*Note:* " << cell(n.text) << "\n\n"; }
    void operator()(const ChartBlock& c) const {
        os << "**Chart.** " << cell(c.caption) << "\n\n";
        if (!c.fallback.headers.empty())
            table(os, c.fallback);
        else
            os << "*(The chart is drawn in the PDF and HTML reports; its numbers are in the hotspot "
                  "table.)*\n\n";
    }
    void operator()(const FigureBlock& f) const {
        os << "**Figure.** " << cell(f.caption) << " *(drawn in the PDF report)*\n\n";
    }
};

} // namespace

std::string renderMarkdown(const ReportDocument& doc) {
    std::ostringstream os;
    os << "# " << cell(doc.title) << "\n\n";
    os << "Model " << cell(doc.modelFile) << " on " << cell(doc.targetName) << " - generated "
       << cell(doc.generatedAt) << " by " << cell(doc.generator) << ".\n\n";
    // A partial result says so before any figure.
    if (const std::string partial = partialLine(doc); !partial.empty())
        os << "> **" << cell(partial) << "**\n\n";
    // The headline cards as a one-row table: figure names as headers, value and detail in the cell.
    if (const auto cards = headlineCards(doc); !cards.empty()) {
        std::vector<std::string> headers, row;
        for (const auto& k : cards) {
            headers.push_back(k.label);
            row.push_back("**" + cell(k.value) + "**" + (k.detail.empty() ? "" : " - " + cell(k.detail)));
        }
        os << "|";
        for (const auto& h : headers)
            os << " " << cell(h) << " |";
        os << "\n|";
        for (size_t i = 0; i < headers.size(); ++i)
            os << "---|";
        os << "\n|";
        for (const auto& v : row)
            os << " " << v << " |";
        os << "\n\n";
    }
    for (const auto& line : firstPageDiagnostics(doc))
        os << "- " << cell(line) << "\n";
    if (!doc.diagnostics.empty())
        os << "\n";
    for (const auto& s : doc.sections)
        os << "- [" << s.number << ". " << cell(s.title) << "](#" << s.id << ")\n";
    os << "\n";
    for (const auto& s : doc.sections) {
        os << "<a id=\"" << s.id << "\"></a>\n\n## " << s.number << ". " << cell(s.title) << "\n\n";
        for (const auto& b : s.blocks)
            std::visit(BlockWriter{os}, b);
    }
    return os.str();
}

} // namespace bpu::report
