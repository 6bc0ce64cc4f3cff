#include "playout.h"

namespace carc {

void deal(State& st, const GameData* data, const std::vector<uint8_t>& bag, Rng& rng,
          bool shuffle) {
    std::vector<uint8_t> pile = bag;
    if (shuffle)
        for (size_t i = pile.size(); i > 1; --i) std::swap(pile[i - 1], pile[rng.below(static_cast<uint32_t>(i))]);
    st = State();
    st.setup(data, std::move(pile));
}

int random_playout(State& st, Rng& rng) {
    int steps = 0;
    while (!st.is_terminal()) {
        const std::vector<int64_t>& ids = st.legal_ids();
        st.apply_id(ids[rng.below(static_cast<uint32_t>(ids.size()))]);
        ++steps;
    }
    return steps;
}

}  // namespace carc
