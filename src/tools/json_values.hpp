// Small readers of simdjson DOM values shared by the tool's JSON formats (schedules, scenes).
#pragma once

#include <simdjson.h>

#include <cstdlib>
#include <optional>
#include <string_view>
#include <unordered_set>

namespace spinegpu::tools::json {

namespace detail {

// An empty object and an empty array that live as long as the program: what object_of and array_of give for a
// value of another kind. (A default-constructed dom::object or dom::array refers to no document; iterating or
// searching one reads through a null pointer.)
struct EmptyValues {
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    simdjson::dom::array array;
};

inline const EmptyValues& empty_values() {
    static const EmptyValues* const values = [] {
        auto* v = new EmptyValues;  // never freed: used until exit, by any thread (read-only after this)
        simdjson::dom::element root;
        if (v->parser.parse(std::string_view(R"({"object": {}, "array": []})")).get(root) != simdjson::SUCCESS ||
            root["object"].get(v->object) != simdjson::SUCCESS || root["array"].get(v->array) != simdjson::SUCCESS)
            std::abort();  // cannot happen: a constant document
        return v;
    }();
    return *values;
}

}  // namespace detail

// The object or array `e` holds, or an empty one when it holds another kind (callers report that). Taken through
// get(): the value then outlives a loop over it (iterating get_array().value_unsafe() on a temporary dangles), and
// GCC's may-be-uninitialized analysis of simdjson's result type stays quiet.
inline simdjson::dom::object object_of(simdjson::dom::element e) {
    simdjson::dom::object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) return detail::empty_values().object;
    return o;
}

inline simdjson::dom::array array_of(simdjson::dom::element e) {
    simdjson::dom::array a;
    if (e.get_array().get(a) != simdjson::SUCCESS) return detail::empty_values().array;
    return a;
}

// Whether `e` is a number, and its value as a double (precondition: is_number(e)).
inline bool is_number(simdjson::dom::element e) { return e.is_double() || e.is_int64() || e.is_uint64(); }

inline double number(simdjson::dom::element e) {
    if (e.is_double()) return e.get_double().value_unsafe();
    if (e.is_int64()) return static_cast<double>(e.get_int64().value_unsafe());
    return static_cast<double>(e.get_uint64().value_unsafe());
}

// The first key that `o` holds more than once, if any. JSON leaves repeated keys to each reader (JavaScript keeps the
// last value, simdjson's lookup the first); the tool's formats refuse them rather than pick one silently.
inline std::optional<std::string_view> repeated_key(simdjson::dom::object o) {
    std::unordered_set<std::string_view> seen;
    for (auto [key, value] : o) {
        (void)value;
        if (!seen.insert(key).second) return key;
    }
    return std::nullopt;
}

}  // namespace spinegpu::tools::json
