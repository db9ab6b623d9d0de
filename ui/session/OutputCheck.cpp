// SPDX-License-Identifier: MIT
#include "OutputCheck.h"

#include "core/model/ExternalDataFiles.h"
#include "core/model/Graph.h"
#include "core/util/OutputFile.h"
#include "core/util/SafeFile.h"

#include <QCoreApplication>

namespace bpu::ui {

QString checkedOutputPath(const QString& path, const Graph* model, QString* error) {
    auto refuse = [&](const QString& why) {
        if (error)
            *error = why;
        return QString();
    };
    const std::string p = path.toStdString();
    try {
        const OutputFile out = OutputFile::resolve(p);
        if (out.mode() != OutputFile::Mode::Atomic)
            return refuse(QCoreApplication::translate("OutputCheck",
                                                      "%1: cannot write: not a regular file (the workbench "
                                                      "saves to files; the command line writes to streams)")
                              .arg(path));
        if (model) {
            const std::string id = outputIdentity(p);
            auto same = [&](const std::string& in) {
                return sameFile(p, in) || sameFile(out.target(), in) ||
                       id == outputIdentity(in) /* a file still to create: its resolved path */;
            };
            if (same(model->path))
                return refuse(QCoreApplication::translate(
                                  "OutputCheck",
                                  "%1: is the open model; refusing to overwrite it - choose another file")
                                  .arg(path));
            for (const std::string& in : externalDataFiles(*model))
                if (same(in))
                    return refuse(QCoreApplication::translate(
                                      "OutputCheck", "%1: is an external-data file of the open model (%2); "
                                                     "refusing to overwrite it - choose another file")
                                      .arg(path, QString::fromStdString(in)));
        }
        return QString::fromStdString(out.target());
    } catch (const FileError& e) {
        return refuse(QString::fromStdString(e.what()));
    }
}

} // namespace bpu::ui
