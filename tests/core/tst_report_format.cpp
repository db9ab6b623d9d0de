// SPDX-License-Identifier: MIT
// The report's formatting rules (core/report/ReportFormat.h, EvidenceText.h): numbers never in exponent
// notation, counts with the right plural, arrows that cannot be split by the line breaker, one unit per
// column, evidence keys as readers' labels. Expected values are worked out by hand from the rules.
#include "core/report/EvidenceText.h"
#include "core/report/ReportFormat.h"

#include <QtTest>

#include <regex>

namespace fmt = bpu::report::fmt;

namespace {

bool scientific(const std::string& s) {
    static const std::regex e("[0-9][eE][+-]?[0-9]");
    return std::regex_search(s, e);
}

} // namespace

class TestReportFormat : public QObject {
    Q_OBJECT
private slots:
    void numberHasNoExponent() {
        // %.4g printed these as 5.266e+05, 1.5e-05, 1e+12.
        QCOMPARE(fmt::number(526600.4), std::string("526,600"));
        QCOMPARE(fmt::number(0.000015), std::string("0.000015"));
        QCOMPARE(fmt::number(1e12), std::string("1,000,000,000,000"));
        // Four significant digits, trailing zeros dropped.
        QCOMPARE(fmt::number(0.1234567), std::string("0.1235"));
        QCOMPARE(fmt::number(316.8), std::string("316.8"));
        QCOMPARE(fmt::number(2.5), std::string("2.5"));
        QCOMPARE(fmt::number(-0.00042), std::string("-0.00042"));
        QCOMPARE(fmt::number(12.0), std::string("12"));
        QCOMPARE(fmt::number(999.96), std::string("1,000"));
        for (double v : {1e-9, 3.3e-7, 4.2e15, -7.7e-12, 6.02e23, 0.0})
            QVERIFY2(!scientific(fmt::number(v)), fmt::number(v).c_str());
        // The other number formats are fixed-point by construction; spot-check the extremes.
        for (const std::string& s :
             {fmt::us(1e-9), fmt::ms(4.2e9), fmt::gainMs(3e-9), fmt::gainUs(3e-9), fmt::duration(2e-8),
              fmt::percent(1e-12), fmt::si(1e15), fmt::kib(int64_t(1) << 50)})
            QVERIFY2(!scientific(s), s.c_str());
    }

    void plurals() {
        QCOMPARE(fmt::plural(1, "node"), std::string("1 node"));
        QCOMPARE(fmt::plural(0, "node"), std::string("0 nodes"));
        QCOMPARE(fmt::plural(2, "layer"), std::string("2 layers"));
        QCOMPARE(fmt::plural(1234, "pass", "passes"), std::string("1,234 passes"));
        QCOMPARE(fmt::plural(1, "pass", "passes"), std::string("1 pass"));
    }

    void arrowsDoNotBreak() {
        // No-break spaces around U+2192: the breaker sees one word "1x16 -> 1x32".
        QCOMPARE(fmt::prose("1x16x320x320 -> 1x32x320x320"),
                 std::string("1x16x320x320\u00a0\u2192\u00a01x32x320x320"));
        QCOMPARE(fmt::prose("a -> b -> c"), std::string("a\u00a0\u2192\u00a0b\u00a0\u2192\u00a0c"));
        // Only the spaced arrow of prose: "H->8" in evidence stays as it is (nothing there to break).
        QCOMPARE(fmt::prose("H->8"), std::string("H->8"));
    }

    void unitsPerColumn() {
        // A gain of 0.0176 ms reads 17.6 us; 1.5 ms stays in ms.
        QCOMPARE(fmt::duration(0.0176), std::string("17.6 us"));
        QCOMPARE(fmt::duration(1.5), std::string("1.500 ms"));
        // Gains in us: one decimal, two significant digits below 1 us (never "0.0" for a real gain).
        QCOMPARE(fmt::gainUs(0.0176), std::string("17.6"));
        QCOMPARE(fmt::gainUs(1.5), std::string("1500.0"));
        QCOMPARE(fmt::gainUs(0.001), std::string("1.0"));
        QCOMPARE(fmt::gainUs(0.00042), std::string("0.42"));
        QCOMPARE(fmt::gainUs(0.00003), std::string("0.030"));
        QCOMPARE(fmt::gainUs(-0.00003), std::string("-0.030"));
        QCOMPARE(fmt::gainUs(0), std::string("0.0"));
        QCOMPARE(fmt::duration(0.00003), std::string("0.030 us"));
        // KiB with one decimal and separators: 1200 KiB + 410 B = 1200.40 KiB.
        QCOMPARE(fmt::kib(1200 * 1024 + 410), std::string("1,200.4"));
        QCOMPARE(fmt::kib(0), std::string("0.0"));
        QCOMPARE(fmt::kib(51), std::string("0.0")); // 0.0498 KiB
        QCOMPARE(fmt::kib(52), std::string("0.1")); // 0.0508 KiB
    }

    void evidenceLabels() {
        using bpu::report::evidenceLabel;
        QCOMPARE(evidenceLabel("spills_to_ddr"), std::string("Spills to DDR"));
        QCOMPARE(evidenceLabel("sram_budget_bytes"), std::string("SRAM budget"));
        QCOMPARE(evidenceLabel("qdq_elements_per_us"), std::string("Q/DQ throughput (elements per us)"));
        // Keys the engine adds later read as words, acronyms kept, unit suffix dropped (the value has it).
        QCOMPARE(evidenceLabel("bpu_only"), std::string("BPU only"));
        QCOMPARE(evidenceLabel("weight_load_share"), std::string("Weight load share"));
        QCOMPARE(evidenceLabel("shortcut_spill_bytes"), std::string("Shortcut spill"));
        QCOMPARE(evidenceLabel("ddr_us"), std::string("DDR"));
        for (const char* key : {"a_b_c", "x", "elements_after_filtering", "cpu_bpu_transitions"})
            QVERIFY2(evidenceLabel(key).find('_') == std::string::npos, key);
    }

    void evidenceValues() {
        using bpu::report::evidenceValue;
        QCOMPARE(evidenceValue("waste_ratio", 0.5), std::string("50.0%"));
        // Shares are fractions of a whole, read as percentages wherever "share" sits in the key.
        QCOMPARE(evidenceValue("share_of_bpu_time", 0.3033), std::string("30.3%"));
        QCOMPARE(evidenceValue("gain_share_of_latency", 0.1885), std::string("18.9%"));
        QCOMPARE(evidenceValue("share_min", 0.05), std::string("5.0%"));
        QCOMPARE(evidenceValue("sram_budget_bytes", 4194304), std::string("4.0 MiB"));
        QCOMPARE(evidenceValue("bytes", 409600), std::string("400.0 KiB"));
        QCOMPARE(evidenceValue("compute_us", 0.25), std::string("0.2 us")); // %.1f rounds half to even
        QCOMPARE(evidenceValue("spills_to_ddr", false), std::string("no"));
        QCOMPARE(evidenceValue("steps", 75), std::string("75"));
        QCOMPARE(evidenceValue("elements", 526600.4), std::string("526,600"));
        QVERIFY(!scientific(evidenceValue("intensity", 1.2e-7)));
        QCOMPARE(evidenceValue("chain", "Conv -> Relu"), std::string("Conv\u00a0\u2192\u00a0Relu"));
        // A list shows its first six; "more" counts the rest of the list and, where the evidence kept only
        // the first items of a longer one (its *_total), the ones it left out.
        const nlohmann::json eight = {1, 2, 3, 4, 5, 6, 7, 8};
        QCOMPARE(evidenceValue("layers", eight), std::string("1; 2; 3; 4; 5; 6; ... 2 more"));
        QCOMPARE(evidenceValue("layers", eight, 57), std::string("1; 2; 3; 4; 5; 6; ... 51 more"));
        QCOMPARE(evidenceValue("layers", nlohmann::json{1, 2}, 3), std::string("1; 2; ... 1 more"));
        QCOMPARE(evidenceValue("layers", nlohmann::json::array(), 3), std::string("... 3 more"));
        QCOMPARE(evidenceValue("layers", nlohmann::json::array()), std::string("none"));
        QCOMPARE(evidenceValue("layers", eight, 1057), std::string("1; 2; 3; 4; 5; 6; ... 1,051 more"));
        // Items with labelled parts are bracketed: their own lists join with "; " as the items do.
        const nlohmann::json occurrences = {{{"elements_moved", 4}, {"nodes", {"a", "b"}}},
                                            {{"elements_moved", 8}, {"nodes", {"c", "d"}}}};
        QCOMPARE(evidenceValue("occurrences", occurrences),
                 std::string("(Elements moved 4, Nodes a; b); (Elements moved 8, Nodes c; d)"));
    }
};

QTEST_GUILESS_MAIN(TestReportFormat)
#include "tst_report_format.moc"
