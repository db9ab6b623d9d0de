// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bpu {
class Graph;
}

namespace bpu::ui {

/// The output rules of issue 43 for the workbench's writers, which keep QSaveFile and QPdfWriter: the path
/// is resolved as the CLI resolves it (core/util/OutputFile.h) - a symlink is written through to its target,
/// a folder or a missing or locked parent is refused - a FIFO or device is refused (a workbench export is a
/// file), and the output is compared with the open model and its external-data files by path and by device
/// and inode. Returns the path to hand to QSaveFile (the file the symlink chain names); on refusal an empty
/// string and `error` set, naming `path`.
QString checkedOutputPath(const QString& path, const Graph* model, QString* error);

} // namespace bpu::ui
