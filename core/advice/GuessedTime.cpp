// SPDX-License-Identifier: MIT
#include "GuessedTime.h"

#include "core/edit/Session.h"
#include "core/model/Completeness.h"

#include <algorithm>

namespace bpu {

GuessedTime guessedTime(const Session& s) {
    GuessedTime t;
    const Graph& g = s.graph();
    const CostEstimate& c = s.cost();
    const double batch = std::max(1, c.batch);
    for (size_t i = 0; i < g.nodes.size() && i < c.nodes.size(); ++i)
        if (shapeGuessed(g, g.nodes[i]))
            t.usByName[g.nodes[i].name] += c.nodes[i].latencyUs / batch;
    return t;
}

double gainOnGuessesMs(const GuessedTime& before, const Session& s) {
    // An edit never leaves a known shape unknown (GraphPatch refuses what breaks a node), so on a complete
    // result there is nothing to compare: no walk over the graph per trial.
    if (before.empty())
        return 0;
    const Graph& g = s.graph();
    const CostEstimate& c = s.cost();
    const double batch = std::max(1, c.batch);
    double beforeUs = 0, afterUs = 0;
    for (const auto& [name, us] : before.usByName)
        beforeUs += us;
    // The nodes guessed before, as they are now (resolved or not: their new time rests on the guess of
    // what they were), and any node guessed now that was not before.
    for (size_t i = 0; i < g.nodes.size() && i < c.nodes.size(); ++i)
        if (before.usByName.count(g.nodes[i].name) || shapeGuessed(g, g.nodes[i]))
            afterUs += c.nodes[i].latencyUs / batch;
    return (beforeUs - afterUs) / 1000.0;
}

} // namespace bpu
