// SPDX-License-Identifier: MIT
#include "ProjectFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <stdexcept>

namespace bpu::ui {

QString fileSha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

QString saveProject(const QString& path, const Project& p) {
    const QDir dir = QFileInfo(path).absoluteDir();
    nlohmann::json doc = {{"schema", "bpuscope.project/1"},
                          {"model", dir.relativeFilePath(p.modelPath).toStdString()},
                          {"model_sha256", p.sha256.toStdString()},
                          {"target", p.target.toStdString()},
                          {"edits", p.edits}};
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return f.errorString();
    const std::string text = doc.dump(2) + "\n";
    f.write(text.data(), qint64(text.size()));
    if (!f.commit())
        return f.errorString();
    return {};
}

Project loadProject(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error(path.toStdString() + ": cannot open: " + f.errorString().toStdString());
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(f.readAll().toStdString());
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path.toStdString() + ": not valid JSON: " + e.what());
    }
    if (!doc.is_object() || doc.value("schema", std::string()) != "bpuscope.project/1" || !doc.contains("model") ||
        !doc["model"].is_string())
        throw std::runtime_error(path.toStdString() + ": not a BpuScope project (schema bpuscope.project/1)");
    Project p;
    p.modelPath = QFileInfo(path).absoluteDir().absoluteFilePath(QString::fromStdString(doc["model"].get<std::string>()));
    p.sha256 = QString::fromStdString(doc.value("model_sha256", std::string()));
    p.target = QString::fromStdString(doc.value("target", std::string("s100")));
    if (doc.contains("edits")) {
        if (!doc["edits"].is_array())
            throw std::runtime_error(path.toStdString() + ": 'edits' must be an array");
        p.edits = doc["edits"];
    }
    return p;
}

} // namespace bpu::ui
