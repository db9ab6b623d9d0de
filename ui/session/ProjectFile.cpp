// SPDX-License-Identifier: MIT
#include "ProjectFile.h"

#include "core/deploy/DeployJson.h"
#include "core/io/ProjectJson.h"
#include "core/util/SafeFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <stdexcept>

namespace bpu::ui {

QString fileSha256(const QString& path) {
    // Never hash a FIFO or a device (it would block or never end): only a regular model-sized file.
    try {
        checkUserFile(path.toStdString(), {"ONNX file", file_limits::kModel});
    } catch (const FileError&) {
        return {};
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

QString saveProject(const QString& path, const Project& p, const QString& writeTo) {
    // The model is named relative to the project as the user will open it again (a symlink's folder).
    const QDir dir = QFileInfo(path).absoluteDir();
    nlohmann::json doc = {{"schema", "bpuscope.project/1"},
                          {"model", dir.relativeFilePath(p.modelPath).toStdString()},
                          {"model_sha256", p.sha256.toStdString()},
                          {"target", p.target.toStdString()},
                          {"edits", p.edits}};
    if (p.deploy)
        doc["deploy"] = deployToJson(*p.deploy);
    if (p.objective)
        doc["objective"] = objectiveName(*p.objective);
    if (p.baselineList)
        doc["baseline_edits"] = *p.baselineList;
    else if (p.baselineEdits > 0)
        doc["baseline_edits"] = p.baselineEdits;
    if (!p.kept.empty()) {
        nlohmann::json kept = nlohmann::json::array();
        for (const ProjectKeptEdit& k : p.kept)
            kept.push_back({{"edit", k.edit}, {"reason", k.reason}, {"from", k.from}});
        doc["edits_not_applied"] = std::move(kept);
    }
    QSaveFile f(writeTo.isEmpty() ? path : writeTo);
    if (!f.open(QIODevice::WriteOnly))
        return f.errorString();
    const std::string text = doc.dump(2) + "\n";
    f.write(text.data(), qint64(text.size()));
    if (!f.commit())
        return f.errorString();
    return {};
}

Project loadProject(const QString& path) {
    const ProjectData data = readProjectFile(path.toStdString());
    Project p;
    p.modelPath = QFileInfo(path).absoluteDir().absoluteFilePath(QString::fromStdString(data.model));
    p.sha256 = QString::fromStdString(data.sha256);
    p.target = QString::fromStdString(data.target);
    p.edits = data.edits;
    p.deploy = data.deploy;
    p.kept = data.kept;
    p.objective = data.objective;
    p.baselineEdits = data.baselineEdits;
    p.baselineList = data.baselineList;
    return p;
}

} // namespace bpu::ui
