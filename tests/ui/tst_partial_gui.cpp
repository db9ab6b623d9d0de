// SPDX-License-Identifier: MIT
// Issue 61 in the workbench: a result whose shape inference stops at a node says PARTIAL everywhere a figure
// is shown. tests/data/baked/baked_resize.onnx opened at 48x48 (the shape it was traced at is 64x64): its
// Resize still writes the traced 32x32, the Concat after it ('cat') cannot be inferred, nor 'head' behind it.
#include "WorkbenchFixture.h"

#include "TestPaths.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/main/ResultBanner.h"
#include "ui/session/SessionController.h"

#include <QComboBox>
#include <QLabel>

using namespace bpu;
using namespace bpu::ui;

class TestPartialGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { fixture::isolateSettings(); }

    void inferenceStopSaysPartial() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        OpenRequest r;
        r.path = QString::fromStdString(bpu::test::testDataDir() + "/baked/baked_resize.onnx");
        r.inputShapes["x"] = {1, 3, 48, 48};
        QSignalSpy loaded(&w, &MainWindow::loaded);
        w.controller()->open(r);
        QVERIFY(!loaded.isEmpty() || loaded.wait(120000));
        QVERIFY(fixture::waitSettled(w));
        // The banner names where inference stops and the Resize whose traced size no longer fits.
        QVERIFY(w.resultBanner()->isVisible());
        const QString banner = w.resultBanner()->text();
        QVERIFY2(
            banner.startsWith(QStringLiteral("PARTIAL: shape inference stops at 'cat' (Concat): the export "
                                             "fixed the size at 'upsample'")),
            qPrintable(banner));
        // The drag editor's curve for the input rests on the same guesses: said beside it.
        ShapeEditor* editor = w.inspector()->shapeEditor();
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Input H"));
        QTRY_VERIFY2_WITH_TIMEOUT(
            editor->label()->text().contains(QStringLiteral("PARTIAL: 2 node(s) without an "
                                                            "inferred shape")),
            qPrintable(editor->label()->text()), 30000);
    }
};

QTEST_MAIN(TestPartialGui)
#include "tst_partial_gui.moc"
