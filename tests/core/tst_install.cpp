// SPDX-License-Identifier: MIT
// `cmake --install` into a scratch prefix: the installed bpuscope-cli finds its profiles and rule texts under
// <prefix>/share/bpuscope (never the source tree it was built from), and analyses the installed sample
// exactly as the build tree does. The .deb itself (lintian, desktop-file-validate, appstreamcli, dpkg -x) is
// checked by packaging/check-deb from `packaging/bootstrap package`.
#include "CliRun.h"
#include "TestPaths.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using clirun::Proc;

/// Runs `program` without BPUSCOPE_RESOURCES: the installed lookup, not an override.
Proc run(const QString& program, const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("BPUSCOPE_RESOURCES"));
    return clirun::runProgram(program, args, 300000, env);
}

} // namespace

class TestInstall : public QObject {
    Q_OBJECT

private slots:
    void installedTreeRunsOnItsOwnData() {
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        const Proc install = run(QString::fromStdString(bpu::test::cmakePath()),
                                 {QStringLiteral("--install"), QString::fromStdString(bpu::test::buildDir()),
                                  QStringLiteral("--prefix"), prefix.path()});
        QVERIFY2(install.exitCode == 0, install.err.constData());
        const QString root = QDir(prefix.path()).canonicalPath();
        const QString share = root + QStringLiteral("/share");
        for (const char* f :
             {"/bpuscope/targets/s100.json", "/bpuscope/targets/s100p.json",
              "/bpuscope/rules/guide-rules.json", "/bpuscope/calibration/measurements.csv",
              "/bpuscope/samples/yolov8n.onnx", "/applications/io.github.bpuscope.BpuScope.desktop",
              "/mime/packages/io.github.bpuscope.BpuScope.xml",
              "/metainfo/io.github.bpuscope.BpuScope.metainfo.xml",
              "/icons/hicolor/scalable/apps/io.github.bpuscope.BpuScope.svg", "/doc/bpuscope/copyright"})
            QVERIFY2(QFile::exists(share + QLatin1String(f)), f);

        const QString cli = root + QStringLiteral("/bin/bpuscope-cli");
        const Proc targets = run(cli, {QStringLiteral("targets")});
        QVERIFY2(targets.exitCode == 0, targets.err.constData());
        const QStringList lines = QString::fromUtf8(targets.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        for (const QString& l : lines)
            QVERIFY2(
                l.section(QLatin1Char('\t'), -1).startsWith(share + QStringLiteral("/bpuscope/targets/")),
                qPrintable(l));

        // The installed binary on the installed sample against the build tree's on the same file: the same
        // engine and profile values give the same document; only the profile's path differs.
        const QString sample = share + QStringLiteral("/bpuscope/samples/yolov8n.onnx");
        const Proc installed =
            run(cli, {QStringLiteral("analyze"), sample, QStringLiteral("--json"), QStringLiteral("-")});
        QVERIFY2(installed.exitCode == 0, installed.err.constData());
        const Proc built =
            run(QString::fromStdString(bpu::test::cliPath()),
                {QStringLiteral("analyze"), sample, QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(built.exitCode, 0);
        auto a = nlohmann::json::parse(installed.out.toStdString());
        auto b = nlohmann::json::parse(built.out.toStdString());
        QVERIFY(QString::fromStdString(a["target"]["file"].get<std::string>()).startsWith(share));
        QVERIFY(QString::fromStdString(b["target"]["file"].get<std::string>())
                    .startsWith(QString::fromStdString(bpu::test::sourceDir())));
        a["target"].erase("file");
        b["target"].erase("file");
        QVERIFY(a == b);

        // Data missing from the installed tree is reported at its installed path: no fallback to the sources.
        QVERIFY(QFile::remove(share + QStringLiteral("/bpuscope/targets/s100p.json")));
        const Proc missing = run(
            cli, {QStringLiteral("analyze"), sample, QStringLiteral("--target"), QStringLiteral("s100p")});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY2(missing.err.contains((share + QStringLiteral("/bpuscope/targets/s100p.json")).toUtf8()),
                 missing.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
