// Python bindings of the native Carcassonne engine (nanobind): the module `_engine`.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

NB_MODULE(_engine, m) {
    m.doc() = "The native Carcassonne engine (C++17): the rules of the Python reference engine.";
    m.attr("ABI") = 1;
}
