#include "json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace spinegpu::detail::json {
namespace {

const char* type_name(simdjson::dom::element_type type) {
    using T = simdjson::dom::element_type;
    switch (type) {
        case T::ARRAY: return "an array";
        case T::OBJECT: return "an object";
        case T::INT64:
        case T::UINT64:
        case T::DOUBLE: return "a number";
        case T::STRING: return "a string";
        case T::BOOL: return "a boolean";
        case T::NULL_VALUE: return "null";
    }
    return "something else";
}

std::string expected(const char* what, Element found) {
    return std::string("expected ") + what + ", found " + type_name(found.type());
}

// JavaScript orders the keys that are canonical array indices (0 .. 2^32 - 2, no leading zeros) first.
bool array_index_key(std::string_view key, std::uint32_t& value) {
    if (key.empty() || key.size() > 10 || (key.size() > 1 && key[0] == '0')) return false;
    std::uint64_t v = 0;
    for (char c : key) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (v >= 0xffffffffu) return false;
    value = static_cast<std::uint32_t>(v);
    return true;
}

bool is_null(Element e) { return e.type() == simdjson::dom::element_type::NULL_VALUE; }

bool hex_byte(char hi, char lo, int& out) {
    auto digit = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    int h = digit(hi), l = digit(lo);
    if (h < 0 || l < 0) return false;
    out = h * 16 + l;
    return true;
}

}  // namespace

void append_path_segment(std::string& path, std::string_view key) {
    path += '/';
    for (char c : key) {
        if (c == '~') path += "~0";
        else if (c == '/') path += "~1";
        else path += c;
    }
}

bool parse_hex_channels(std::string_view text, double out[4]) {
    if (!text.empty() && text[0] == '#') text.remove_prefix(1);
    if (text.size() != 6 && text.size() != 8) return false;
    double channels[4] = {1, 1, 1, 1};
    for (std::size_t i = 0; i < text.size() / 2; ++i) {
        int byte = 0;
        if (!hex_byte(text[2 * i], text[2 * i + 1], byte)) return false;
        channels[i] = byte / 255.0;
    }
    std::copy(channels, channels + 4, out);
    return true;
}

std::string quote(std::string_view name) {
    std::string s = "\"";
    s += name;
    s += '"';
    return s;
}

bool Reader::fail(std::string what) {
    if (!error_) error_ = make_error(file_, path_.empty() ? "/" : path_, std::move(what));
    return false;
}

bool Reader::fail_at(std::string_view key, std::string what) {
    Scope scope(*this, key);
    return fail(std::move(what));
}

bool Reader::fail_with_path(std::string path, std::string what) {
    if (!error_) error_ = make_error(file_, std::move(path), std::move(what));
    return false;
}

Reader::Scope::Scope(Reader& reader, std::string_view key) : reader_(reader), length_(reader.path_.size()) {
    append_path_segment(reader_.path_, key);
}

Reader::Scope::Scope(Reader& reader, std::size_t index) : reader_(reader), length_(reader.path_.size()) {
    reader_.path_ += '/';
    reader_.path_ += std::to_string(index);
}

std::vector<Member> Reader::members(Object object) {
    std::vector<Member> out;
    std::unordered_map<std::string_view, std::size_t> seen;
    for (auto field : object) {
        auto [it, added] = seen.try_emplace(field.key, out.size());
        if (added) out.push_back(Member{field.key, field.value});
        else out[it->second].value = field.value;  // a repeated key keeps its first place and its last value
    }
    auto index_first = std::stable_partition(out.begin(), out.end(), [](const Member& m) {
        std::uint32_t v = 0;
        return array_index_key(m.key, v);
    });
    std::sort(out.begin(), index_first, [](const Member& a, const Member& b) {
        std::uint32_t va = 0, vb = 0;
        array_index_key(a.key, va);
        array_index_key(b.key, vb);
        return va < vb;
    });
    return out;
}

std::optional<Element> Reader::find(Object object, std::string_view key) {
    std::optional<Element> found;
    for (auto field : object)
        if (field.key == key) found = field.value;
    return found;
}

std::optional<Object> Reader::as_object(Element e) {
    if (!ok()) return std::nullopt;
    Object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) {
        fail(expected("an object", e));
        return std::nullopt;
    }
    return o;
}

std::optional<Array> Reader::as_array(Element e) {
    if (!ok()) return std::nullopt;
    Array a;
    if (e.get_array().get(a) != simdjson::SUCCESS) {
        fail(expected("an array", e));
        return std::nullopt;
    }
    return a;
}

std::optional<double> Reader::as_number(Element e) {
    if (!ok()) return std::nullopt;
    double d = 0;
    if (e.get_double().get(d) != simdjson::SUCCESS) {
        fail(expected("a number", e));
        return std::nullopt;
    }
    // Every number ends up in a float (or an integer): one past a float's range would become infinite there
    // (numbers() checks array elements alike).
    if (!(std::fabs(d) <= std::numeric_limits<float>::max())) {
        fail("a number beyond a 32-bit float's range");
        return std::nullopt;
    }
    return d;
}

std::optional<std::string_view> Reader::as_string(Element e) {
    if (!ok()) return std::nullopt;
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) {
        fail(expected("a string", e));
        return std::nullopt;
    }
    return s;
}

std::optional<std::int64_t> Reader::as_integer(Element e, std::int64_t lo, std::int64_t hi) {
    std::optional<double> d = as_number(e);
    if (!d) return std::nullopt;
    auto range = [&] {
        return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    };
    // Every bound we use is far below 2^53, so the comparisons in double are exact.
    if (!(*d >= static_cast<double>(lo) && *d <= static_cast<double>(hi)) || std::floor(*d) != *d) {
        fail(range());
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*d);
}

bool Reader::numbers(Array array, std::vector<double>& out) {
    out.clear();
    if (!ok()) return false;
    std::size_t i = 0;
    for (Element e : array) {
        double d = 0;
        if (e.get_double().get(d) != simdjson::SUCCESS) {
            Scope scope(*this, i);
            return fail(expected("a number", e));
        }
        if (!(std::fabs(d) <= std::numeric_limits<float>::max())) {
            Scope scope(*this, i);
            return fail("a number beyond a 32-bit float's range");
        }
        out.push_back(d);
        ++i;
    }
    return true;
}

double Reader::number(Object object, std::string_view key, double fallback) {
    if (!ok()) return fallback;
    std::optional<Element> e = find(object, key);
    if (!e) return fallback;
    Scope scope(*this, key);
    return as_number(*e).value_or(fallback);
}

double Reader::required_number(Object object, std::string_view key) {
    if (!ok()) return 0;
    std::optional<Element> e = find(object, key);
    if (!e) {
        fail_at(key, "missing: expected a number");
        return 0;
    }
    Scope scope(*this, key);
    return as_number(*e).value_or(0);
}

bool Reader::boolean(Object object, std::string_view key, bool fallback) {
    if (!ok()) return fallback;
    std::optional<Element> e = find(object, key);
    if (!e) return fallback;
    bool b = false;
    if (e->get_bool().get(b) != simdjson::SUCCESS) {
        fail_at(key, expected("true or false", *e));
        return fallback;
    }
    return b;
}

std::int64_t Reader::integer(Object object, std::string_view key, std::int64_t fallback, std::int64_t lo,
                             std::int64_t hi) {
    if (!ok()) return fallback;
    std::optional<Element> e = find(object, key);
    if (!e) return fallback;
    Scope scope(*this, key);
    return as_integer(*e, lo, hi).value_or(fallback);
}

std::optional<std::string_view> Reader::string(Object object, std::string_view key) {
    if (!ok()) return std::nullopt;
    std::optional<Element> e = find(object, key);
    if (!e || is_null(*e)) return std::nullopt;
    Scope scope(*this, key);
    return as_string(*e);
}

std::string_view Reader::required_string(Object object, std::string_view key) {
    if (!ok()) return {};
    std::optional<Element> e = find(object, key);
    if (!e) {
        fail_at(key, "missing: expected a string");
        return {};
    }
    Scope scope(*this, key);
    return as_string(*e).value_or(std::string_view{});
}

std::optional<Array> Reader::array(Object object, std::string_view key) {
    if (!ok()) return std::nullopt;
    std::optional<Element> e = find(object, key);
    if (!e || is_null(*e)) return std::nullopt;
    Scope scope(*this, key);
    return as_array(*e);
}

std::optional<Array> Reader::required_array(Object object, std::string_view key) {
    if (!ok()) return std::nullopt;
    std::optional<Element> e = find(object, key);
    if (!e) {
        fail_at(key, "missing: expected an array");
        return std::nullopt;
    }
    Scope scope(*this, key);
    return as_array(*e);
}

std::optional<Object> Reader::object(Object object, std::string_view key) {
    if (!ok()) return std::nullopt;
    std::optional<Element> e = find(object, key);
    if (!e || is_null(*e)) return std::nullopt;
    Scope scope(*this, key);
    return as_object(*e);
}

Color Reader::color(Object object, std::string_view key, Color fallback) {
    std::optional<std::string_view> text = string(object, key);
    if (!text || text->empty()) return fallback;
    double c[4];
    if (!parse_hex_channels(*text, c)) {
        fail_at(key, "expected a colour \"RRGGBB\" or \"RRGGBBAA\", found " + quote(*text));
        return fallback;
    }
    return Color{static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]),
                 static_cast<float>(c[3])};
}

void Reader::color_channels(Object object, std::string_view key, double out[4]) {
    if (!ok()) return;
    std::optional<Element> e = find(object, key);
    if (!e) {
        fail_at(key, "missing: expected a colour \"RRGGBB\" or \"RRGGBBAA\"");
        return;
    }
    Scope scope(*this, key);
    std::optional<std::string_view> text = as_string(*e);
    if (text && !parse_hex_channels(*text, out))
        fail("expected a colour \"RRGGBB\" or \"RRGGBBAA\", found " + quote(*text));
}

int Reader::enumeration(Object object, std::string_view key, int fallback, std::span<const char* const> names) {
    std::optional<std::string_view> text = string(object, key);
    if (!text) return fallback;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string_view name = names[i];
        if (*text == name) return static_cast<int>(i);
        // The official loaders capitalise the first letter before looking the name up, so both spellings work.
        if (text->size() == name.size() && !name.empty() && text->substr(1) == name.substr(1)) {
            char a = (*text)[0], b = name[0];
            if ((a ^ b) == 0x20 && ((a | 0x20) >= 'a' && (a | 0x20) <= 'z')) return static_cast<int>(i);
        }
    }
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + quote(names[i]);
    fail_at(key, "expected one of " + list + ", found " + quote(*text));
    return fallback;
}

}  // namespace spinegpu::detail::json
