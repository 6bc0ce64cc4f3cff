#include "value_net.h"

#include <algorithm>

namespace carc {

std::vector<double> ValueNet::output(const double* x) const {
    std::vector<double> h(mean.size());
    for (size_t i = 0; i < h.size(); ++i) h[i] = (x[i] - mean[i]) / spread[i];
    std::vector<double> next;
    for (size_t l = 0; l < layers.size(); ++l) {
        const Layer& layer = layers[l];
        next.assign(layer.b.begin(), layer.b.end());
        // Input by input, as the reference adds them (zero inputs skipped there too).
        for (int i = 0; i < layer.in; ++i) {
            const double v = h[i];
            if (v == 0.0) continue;
            const double* row = layer.w.data() + static_cast<size_t>(i) * layer.out;
            for (int j = 0; j < layer.out; ++j) next[j] += v * row[j];
        }
        if (l + 1 < layers.size())
            for (double& v : next) v = std::max(v, 0.0);
        h.swap(next);
    }
    for (double& v : h) v *= scale;
    return h;
}

}  // namespace carc
