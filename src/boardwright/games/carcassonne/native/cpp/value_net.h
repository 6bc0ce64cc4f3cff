// The learned value's network (value_net.py) in compiled code: the same inputs, the same
// arithmetic, so the search's leaves get the numbers the reference gives.
#pragma once

#include <vector>

namespace carc {

// A small multilayer perceptron: inputs standardised by `mean` and `spread`, hidden layers of
// ReLU units, a linear output layer of one unit per relative seat, times `scale` points.
struct ValueNet {
    struct Layer {
        int in = 0, out = 0;
        std::vector<double> w;  // row-major: w[i * out + j] from input i to unit j
        std::vector<double> b;
    };
    bool holders = false;  // reads the held segments after t and t^2 ("hand+holders")
    std::vector<double> mean, spread;
    double scale = 1.0;
    std::vector<Layer> layers;

    int inputs() const { return static_cast<int>(mean.size()); }
    // The outputs (relative seats, in points) for the raw inputs x[0, inputs()).
    std::vector<double> output(const double* x) const;
};

}  // namespace carc
