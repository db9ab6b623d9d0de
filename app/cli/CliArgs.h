// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/ImportOptions.h"

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bpu::cli {

/// Exit codes: 0 success, 2 usage error, 3 bad input (the model, a profile or an edit file).
enum Exit { kOk = 0, kUsage = 2, kBadInput = 3 };

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parsed command line: positional arguments and `--key value` options (repeatable ones keep every value).
struct CliArgs {
    std::vector<std::string> positional;
    std::multimap<std::string, std::string> options;
    std::vector<std::string> flags;

    /// `valued` lists options that take a value; anything else starting with "--" is a flag.
    static CliArgs parse(int argc, char** argv, int first, const std::vector<std::string>& valued,
                         const std::vector<std::string>& knownFlags);
    std::optional<std::string> get(const std::string& key) const;
    std::vector<std::string> all(const std::string& key) const;
    bool has(const std::string& flag) const;
    /// --batch and --input-shape, common to every model command.
    ImportOptions importOptions() const;
    /// Throws std::runtime_error if an output option (--json, --csv, -o, --markdown, --write) names one of
    /// the command's input files (the model, the measurements, --edits, --target): nothing BpuScope reads
    /// is ever overwritten by what it writes. Same file = same device and inode (links included).
    void refuseInputsAsOutputs() const;
    /// The command's outputs as (option, path), in option order.
    std::vector<std::pair<std::string, std::string>> outputs() const;
    /// Throws std::runtime_error if two outputs are one file or one stream (stdout counted once, whether
    /// named "-", /dev/stdout or the file stdout is redirected to): the second would replace or interleave
    /// with the first.
    void refuseSharedOutputs() const;
    /// Throws std::runtime_error if an output is, or links to, one of `inputs` (same path, or the same device
    /// and inode): the files a sweep discovered, the external-data files an import named. `what` names them.
    void refuseOutputsOver(const std::vector<std::string>& inputs, const std::string& what) const;
};

/// True when `path` writes to stdout ("-", /dev/stdout, the file stdout is redirected to).
bool writesToStdout(const std::string& path);

/// Writes text to a file or to stdout for "-" by the one output rule set (core/util/OutputFile.h: links
/// written through, FIFOs and devices in place, every write checked); throws FileError naming the output.
void writeOutput(const std::string& target, const std::string& text);
/// The same for a text made piece by piece (writeFileAtomically's streaming form).
void writeOutput(const std::string& target,
                 const std::function<void(const std::function<void(std::string_view)>&)>& produce);

} // namespace bpu::cli
