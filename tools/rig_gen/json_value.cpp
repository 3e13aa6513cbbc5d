#include "json_value.hpp"

#include <cassert>
#include <cmath>
#include <cstdio>

namespace spinegpu::rig {

std::string format_number(double value) {
    double rounded = std::round(value * 10000) / 10000;
    if (rounded == 0) return "0";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4f", rounded);
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

Json Json::numbers(const std::vector<double>& values) {
    Json j = array();
    for (double v : values) j.push(v);
    return j;
}

Json Json::numbers(const std::vector<int>& values) {
    Json j = array();
    for (int v : values) j.push(v);
    return j;
}

Json& Json::push(Json value) {
    assert(kind_ == Kind::array);
    items_.emplace_back(std::string(), std::move(value));
    return *this;
}

Json& Json::set(std::string_view key, Json value) {
    assert(kind_ == Kind::object);
    for (auto& [k, v] : items_)
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    items_.emplace_back(std::string(key), std::move(value));
    return *this;
}

Json& Json::at(std::string_view key) {
    assert(kind_ == Kind::object);
    for (auto& [k, v] : items_)
        if (k == key) return v;
    items_.emplace_back(std::string(key), object());
    return items_.back().second;
}

std::string Json::dump() const {
    std::string out;
    write(out, 0);
    out += '\n';
    return out;
}

namespace {

void write_string(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
            out += buffer;
        } else {
            out += c;
        }
    }
    out += '"';
}

bool is_scalar(const Json& j) { return j.kind() != Json::Kind::array && j.kind() != Json::Kind::object; }

}  // namespace

void Json::write(std::string& out, int depth) const {
    switch (kind_) {
        case Kind::null: out += "null"; return;
        case Kind::boolean: out += boolean_ ? "true" : "false"; return;
        case Kind::number: out += format_number(number_); return;
        case Kind::string: write_string(out, string_); return;
        case Kind::array:
        case Kind::object: break;
    }
    const bool object = kind_ == Kind::object;
    if (items_.empty()) {
        out += object ? "{}" : "[]";
        return;
    }
    // Arrays of scalars and small objects of scalars are written on one line, as Spine's own exports do.
    bool flat = true;
    for (const auto& item : items_) flat = flat && is_scalar(item.second);
    if (object && items_.size() > 8) flat = false;
    std::string indent(static_cast<std::size_t>(depth + 1) * 2, ' ');
    out += object ? '{' : '[';
    bool first = true;
    for (const auto& [key, value] : items_) {
        if (!first) out += flat ? ", " : ",";
        first = false;
        if (!flat) {
            out += '\n';
            out += indent;
        }
        if (object) {
            write_string(out, key);
            out += ": ";
        }
        value.write(out, depth + 1);
    }
    if (!flat) {
        out += '\n';
        out.append(static_cast<std::size_t>(depth) * 2, ' ');
    }
    out += object ? '}' : ']';
}

}  // namespace spinegpu::rig
