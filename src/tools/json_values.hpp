// Small readers of simdjson DOM values shared by the tool's JSON formats (schedules, scenes).
#pragma once

#include <simdjson.h>

namespace spinegpu::tools::json {

// The object or array `e` holds (callers check is_object()/is_array() first), or an empty one. Taken through get():
// the value then outlives a loop over it (iterating get_array().value_unsafe() on a temporary dangles), and GCC's
// may-be-uninitialized analysis of simdjson's result type stays quiet.
inline simdjson::dom::object object_of(simdjson::dom::element e) {
    simdjson::dom::object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) return simdjson::dom::object();
    return o;
}

inline simdjson::dom::array array_of(simdjson::dom::element e) {
    simdjson::dom::array a;
    if (e.get_array().get(a) != simdjson::SUCCESS) return simdjson::dom::array();
    return a;
}

// Whether `e` is a number, and its value as a double (precondition: is_number(e)).
inline bool is_number(simdjson::dom::element e) { return e.is_double() || e.is_int64() || e.is_uint64(); }

inline double number(simdjson::dom::element e) {
    if (e.is_double()) return e.get_double().value_unsafe();
    if (e.is_int64()) return static_cast<double>(e.get_int64().value_unsafe());
    return static_cast<double>(e.get_uint64().value_unsafe());
}

}  // namespace spinegpu::tools::json
