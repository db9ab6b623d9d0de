// SPDX-License-Identifier: MIT
#pragma once
// Running bpuscope-cli (bpu::test::cliPath(), TestPaths.h) or another tool from a test and collecting
// its exit code and output, shared by the core tests that check the command line.
#include "TestPaths.h"
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace clirun {

struct Proc {
    /// The exit code of a normal exit; -1 when the program did not start or hung, -2 when it crashed.
    int exitCode = -1;
    QByteArray out, err;
};

/// Runs `program` with `args` in `env`. A run that has not ended after `timeoutMs` is a hang: the process is
/// killed and waited for (no orphan outlives the test), and `err` names the command.
inline Proc runProgram(const QString& program, const QStringList& args, int timeoutMs = 300000,
                       const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Proc r;
    if (!p.waitForFinished(timeoutMs)) {
        const bool started = p.state() != QProcess::NotRunning;
        if (started) {
            p.kill();
            p.waitForFinished();
        }
        r.err = (started ? "hung: " : "did not start: ") + program.toUtf8() + ' ' +
                args.join(QLatin1Char(' ')).toUtf8();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

/// Runs bpuscope-cli with `args`.
inline Proc runCli(const QStringList& args, int timeoutMs = 300000) {
    return runProgram(QString::fromStdString(bpu::test::cliPath()), args, timeoutMs);
}

} // namespace clirun
