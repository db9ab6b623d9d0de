// SPDX-License-Identifier: MIT
#pragma once

#include "ChartBase.h"
#include "core/report/ChartData.h"

namespace bpu {
class Session;
}

namespace bpu::ui::charts {

/// Roofline of the BPU: x = intensity (padded MACs per DDR byte, log), y = achieved throughput (GMAC/s of
/// estimated node time, log); the roof from the profile (DDR slope up to the ridge, then peak x dense-conv
/// efficiency), the ridge marked, nodes as points coloured and shaped by bound.
class RooflineChart : public ChartBase {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setData(report::RooflineData data);
    void setSession(const Session& s);
    const report::RooflineData& data() const { return data_; }

protected:
    void rebuild() override;

private:
    report::RooflineData data_;
};

} // namespace bpu::ui::charts
