// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace bpu {

/// An edit that cannot be applied; what() says why. The session is left exactly as it was.
class EditError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace bpu
