// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace bpu {

/// A model file that cannot be imported: what() is "<file>: <what is wrong>", the form every front end
/// prints after "bpuscope: error: ".
class ImportError : public std::runtime_error {
public:
    ImportError(std::string file, std::string problem)
        : std::runtime_error(file + ": " + problem), file_(std::move(file)), problem_(std::move(problem)) {}
    const std::string& file() const { return file_; }
    const std::string& problem() const { return problem_; }

private:
    std::string file_;
    std::string problem_;
};

} // namespace bpu
