// Reading a simdjson DOM with JSON paths in errors, for the Spine JSON loader (json_loader.cpp, json_skins.cpp,
// json_animations.cpp). Private to the data layer.
//
// The reader keeps the current JSON path ("/animations/walk/bones/hip/rotate/3") and the first error. Getters are
// "sticky": after an error they do nothing and return their fallback, so a section can read many fields and check
// ok() once. Fallbacks are always valid values, so code that runs on after an error stays in bounds; it is simply
// discarded. Object members are visited in the order JavaScript's JSON.parse gives them (array-index keys first, in
// numeric order, then the others in document order; a repeated key keeps its first place and its last value),
// which is the order the official runtime creates things in.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/core/result.hpp"

namespace spinegpu::detail::json {

using Element = simdjson::dom::element;
using Object = simdjson::dom::object;
using Array = simdjson::dom::array;

struct Member {
    std::string_view key;
    Element value;
};

class Reader {
public:
    explicit Reader(const std::string& file) : file_(file) {}

    bool ok() const { return !error_.has_value(); }
    // The first error (precondition: !ok()).
    const Error& error() const { return *error_; }

    // Records an error at the current path (or at the current path + "/" + key) unless one is recorded already.
    // Always returns false, so that `return r.fail(...)` reads naturally.
    bool fail(std::string what);
    bool fail_at(std::string_view key, std::string what);
    // Records an error whose path is given whole (for checks made after the traversal, e.g. linked meshes).
    bool fail_with_path(std::string path, std::string what);

    // The current path, for remembering a place to report later.
    const std::string& path() const { return path_; }

    // Appends a path segment for the scope's lifetime.
    class Scope {
    public:
        Scope(Reader& reader, std::string_view key);
        Scope(Reader& reader, std::size_t index);
        ~Scope() { reader_.path_.resize(length_); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Reader& reader_;
        std::size_t length_;
    };
    Scope at(std::string_view key) { return Scope(*this, key); }
    Scope at(std::size_t index) { return Scope(*this, index); }

    // Members of `object` in JavaScript order (see the file comment).
    static std::vector<Member> members(Object object);

    // The value of the last member named `key`, or nullopt.
    static std::optional<Element> find(Object object, std::string_view key);

    // Conversions of a value at the current path; on a type mismatch they record "expected ..." and return nullopt.
    std::optional<Object> as_object(Element e);
    std::optional<Array> as_array(Element e);
    std::optional<double> as_number(Element e);
    std::optional<std::string_view> as_string(Element e);
    // An integral number in [lo, hi].
    std::optional<std::int64_t> as_integer(Element e, std::int64_t lo, std::int64_t hi);
    // Reads every element of `array` as a number into `out` (cleared first). Errors name the element's index.
    bool numbers(Array array, std::vector<double>& out);

    // Fields of `object`. Absent fields give the fallback; present fields of the wrong type record an error.
    double number(Object object, std::string_view key, double fallback);
    float number_f(Object object, std::string_view key, double fallback, double scale = 1) {
        return static_cast<float>(number(object, key, fallback) * scale);
    }
    // A number field that must be present (0 on error).
    double required_number(Object object, std::string_view key);
    bool boolean(Object object, std::string_view key, bool fallback);
    std::int64_t integer(Object object, std::string_view key, std::int64_t fallback, std::int64_t lo,
                         std::int64_t hi);
    // A string field; null counts as absent.
    std::optional<std::string_view> string(Object object, std::string_view key);
    // A string field that must be present.
    std::string_view required_string(Object object, std::string_view key);
    // An array field; nullopt when absent (or null) or on error.
    std::optional<Array> array(Object object, std::string_view key);
    std::optional<Array> required_array(Object object, std::string_view key);
    // An object field; nullopt when absent (or null) or on error.
    std::optional<Object> object(Object object, std::string_view key);
    // A colour "RRGGBB" or "RRGGBBAA" (optionally after '#'); null and "" count as absent.
    Color color(Object object, std::string_view key, Color fallback);
    // A required colour with channels as doubles (k / 255 in double precision, as the official runtime computes
    // them), for keys whose values feed Bezier curves. On error `out` is left as it was.
    void color_channels(Object object, std::string_view key, double out[4]);
    // One of `names` (matched exactly, or with the first letter's case changed, as the official runtime accepts
    // both "normal" and "Normal"); returns its index, or `fallback` when absent.
    int enumeration(Object object, std::string_view key, int fallback, std::span<const char* const> names);

private:
    std::string file_;
    std::string path_;
    std::optional<Error> error_;
};

// Escapes a key for a JSON path segment ('~' -> "~0", '/' -> "~1", as JSON Pointer does).
void append_path_segment(std::string& path, std::string_view key);

// Parses "RRGGBB"/"RRGGBBAA" into doubles; returns false on any other text.
bool parse_hex_channels(std::string_view text, double out[4]);

// "name" with quotes, for messages.
std::string quote(std::string_view name);

}  // namespace spinegpu::detail::json
