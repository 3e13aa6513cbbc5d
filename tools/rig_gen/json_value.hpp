// A small ordered JSON tree for writing the demo rig's skeleton file. Objects keep insertion order (Spine exports
// are read in order: bones before slots, keys in time order) and numbers are written with at most four decimals,
// so the same rig always gives the same bytes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spinegpu::rig {

class Json {
public:
    enum class Kind : std::uint8_t { null, boolean, number, string, array, object };

    Json() = default;
    Json(bool value) : kind_(Kind::boolean), boolean_(value) {}
    Json(double value) : kind_(Kind::number), number_(value) {}
    Json(int value) : kind_(Kind::number), number_(value) {}
    Json(std::size_t value) : kind_(Kind::number), number_(static_cast<double>(value)) {}
    Json(const char* value) : kind_(Kind::string), string_(value) {}
    Json(std::string value) : kind_(Kind::string), string_(std::move(value)) {}
    Json(std::string_view value) : kind_(Kind::string), string_(value) {}

    static Json array() { Json j; j.kind_ = Kind::array; return j; }
    static Json object() { Json j; j.kind_ = Kind::object; return j; }
    // An array of numbers.
    static Json numbers(const std::vector<double>& values);
    static Json numbers(const std::vector<int>& values);

    Kind kind() const { return kind_; }
    bool empty() const { return items_.empty(); }

    // Appends to an array (precondition: kind() == array). Returns *this for chaining.
    Json& push(Json value);
    // Sets `key` in an object, replacing an existing value in place (precondition: kind() == object).
    Json& set(std::string_view key, Json value);
    // Returns the value at `key`, inserting an empty object there when it is absent.
    Json& at(std::string_view key);

    // Serialises with two-space indentation; arrays of scalars stay on one line.
    std::string dump() const;

private:
    void write(std::string& out, int depth) const;

    Kind kind_ = Kind::null;
    bool boolean_ = false;
    double number_ = 0;
    std::string string_;
    std::vector<std::pair<std::string, Json>> items_;  // array items have empty keys
};

// Formats a number as the rig's files write it: rounded to four decimals, no trailing zeros, no "-0".
std::string format_number(double value);

}  // namespace spinegpu::rig
