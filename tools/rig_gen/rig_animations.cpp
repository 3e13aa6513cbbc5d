// The demo rig's animations: idle, walk and run loop; attack is a one-shot with events.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

#include "rig_skeleton.hpp"

namespace spinegpu::rig {
namespace {

// How a key moves to the next one. smooth: a Bezier with Catmull-Rom tangents (C1 through the keys, wrapping
// around on loops); ease: zero tangents at both keys (ease in and out); linear; stepped.
enum class Ease { smooth, ease, linear, stepped };

struct Key {
    double t;
    std::vector<double> v;
};

std::string colour_hex(const std::vector<double>& rgba, std::size_t first, std::size_t count) {
    std::string out;
    for (std::size_t i = first; i < first + count; ++i) {
        char buffer[4];
        std::snprintf(buffer, sizeof buffer, "%02x", static_cast<unsigned>(std::lround(clamp01(rgba[i]) * 255)));
        out += buffer;
    }
    return out;
}

// "rrggbbaa" or "rrggbb" to components.
std::vector<double> parse_colour(const std::string& hex_text) {
    std::vector<double> out;
    for (std::size_t i = 0; i + 1 < hex_text.size(); i += 2)
        out.push_back(std::stoi(hex_text.substr(i, 2), nullptr, 16) / 255.0);
    return out;
}

class Anim {
public:
    Anim(const Skeleton& skeleton, double duration, bool loop) : skeleton_(skeleton), duration_(duration), loop_(loop) {}

    // Bone timelines. Values are offsets from the setup pose (rotate, translate) or factors (scale).
    void rotate(const std::string& bone, std::vector<Key> keys, Ease ease = Ease::smooth) {
        bone_timeline(bone, "rotate", std::move(keys), ease, {"value"}, 0);
    }
    // Translations are given in world directions (as the setup pose orients the parent) and stored, as Spine
    // stores them, in the parent bone's space.
    void translate(const std::string& bone, std::vector<Key> keys, Ease ease = Ease::smooth) {
        const std::string& parent = skeleton_.bone(bone).parent;
        const double parent_rotation = skeleton_.bone(parent).world_rotation;
        for (Key& k : keys) {
            Vec2 local = rig::rotate({k.v[0], k.v[1]}, -parent_rotation);
            k.v = {local.x, local.y};
        }
        bone_timeline(bone, "translate", std::move(keys), ease, {"x", "y"}, 0);
    }
    void scale(const std::string& bone, std::vector<Key> keys, Ease ease = Ease::smooth) {
        bone_timeline(bone, "scale", std::move(keys), ease, {"x", "y"}, 1);
    }

    // Slot colour keys as "rrggbbaa" strings.
    void rgba(const std::string& slot, const std::vector<std::pair<double, std::string>>& colours,
              Ease ease = Ease::ease) {
        std::vector<Key> keys;
        for (const auto& [t, c] : colours) keys.push_back({t, parse_colour(c)});
        Json array = Json::array();
        for (std::size_t k = 0; k < keys.size(); ++k) {
            Json key = Json::object();
            if (keys[k].t != 0) key.set("time", keys[k].t);
            key.set("color", colour_hex(keys[k].v, 0, 4));
            add_curve(key, keys, k, ease);
            array.push(std::move(key));
        }
        slots_.at(slot).set("rgba", std::move(array));
    }

    // Two-color tint keys: light "rrggbbaa", dark "rrggbb".
    void rgba2(const std::string& slot, const std::vector<std::tuple<double, std::string, std::string>>& colours,
               Ease ease = Ease::ease) {
        std::vector<Key> keys;
        for (const auto& [t, light, dark] : colours) {
            std::vector<double> v = parse_colour(light), d = parse_colour(dark);
            v.insert(v.end(), d.begin(), d.end());
            keys.push_back({t, v});
        }
        Json array = Json::array();
        for (std::size_t k = 0; k < keys.size(); ++k) {
            Json key = Json::object();
            if (keys[k].t != 0) key.set("time", keys[k].t);
            key.set("light", colour_hex(keys[k].v, 0, 4)).set("dark", colour_hex(keys[k].v, 4, 3));
            add_curve(key, keys, k, ease);
            array.push(std::move(key));
        }
        slots_.at(slot).set("rgba2", std::move(array));
    }

    // Attachment swaps; an empty name hides the slot.
    void attachment(const std::string& slot, const std::vector<std::pair<double, std::string>>& names) {
        Json array = Json::array();
        for (const auto& [t, name] : names) {
            Json key = Json::object();
            if (t != 0) key.set("time", t);
            key.set("name", name.empty() ? Json() : Json(name));
            array.push(std::move(key));
        }
        slots_.at(slot).set("attachment", std::move(array));
    }

    // Deform keys of a mesh: per key a world-space displacement per vertex (empty: no deform).
    void deform(const MeshDef& mesh, const std::vector<std::pair<double, std::vector<Vec2>>>& frames,
                Ease ease = Ease::ease) {
        Json array = Json::array();
        for (std::size_t k = 0; k < frames.size(); ++k) {
            Json key = Json::object();
            if (frames[k].first != 0) key.set("time", frames[k].first);
            if (!frames[k].second.empty()) {
                std::vector<double> offsets = mesh.deform(skeleton_, frames[k].second);
                // As Spine writes them: leading zeros become "offset", trailing zeros are dropped.
                std::size_t first = 0, last = offsets.size();
                while (first < last && std::abs(offsets[first]) < 5e-5) ++first;
                while (last > first && std::abs(offsets[last - 1]) < 5e-5) --last;
                if (first < last) {
                    if (first != 0) key.set("offset", first);
                    key.set("vertices",
                            Json::numbers(std::vector<double>(offsets.begin() + static_cast<std::ptrdiff_t>(first),
                                                              offsets.begin() + static_cast<std::ptrdiff_t>(last))));
                }
            }
            if (k + 1 < frames.size()) {
                double t0 = frames[k].first, t1 = frames[k + 1].first, dt = t1 - t0;
                if (ease == Ease::stepped) {
                    key.set("curve", "stepped");
                } else if (ease != Ease::linear) {
                    key.set("curve", Json::numbers(std::vector<double>{t0 + dt / 3, 0, t1 - dt / 3, 1}));
                }
            }
            array.push(std::move(key));
        }
        attachments_.at("default").at(mesh.slot).at(mesh.name).set("deform", std::move(array));
    }

    // A sequence timeline that plays the slot's sequence attachment in `mode` from the start.
    void sequence(const std::string& slot, const std::string& attachment, const char* mode, double delay) {
        Json key = Json::object();
        key.set("mode", mode).set("delay", delay);
        Json array = Json::array();
        array.push(std::move(key));
        attachments_.at("default").at(slot).at(attachment).set("sequence", std::move(array));
    }

    // A draw order key: each listed slot moves by its offset; an empty list restores the setup order.
    void draw_order(double t, const std::vector<std::pair<std::string, int>>& offsets) {
        Json key = Json::object();
        if (t != 0) key.set("time", t);
        if (!offsets.empty()) {
            Json array = Json::array();
            for (const auto& [slot, offset] : offsets) {
                Json o = Json::object();
                o.set("slot", slot).set("offset", offset);
                array.push(std::move(o));
            }
            key.set("offsets", std::move(array));
        }
        draw_order_.push(std::move(key));
    }

    struct EventKey {
        double t;
        std::string name;
        std::optional<int> int_value;
        std::optional<double> float_value, volume, balance;
        std::optional<std::string> string_value;
    };
    void event(const EventKey& e) {
        Json key = Json::object();
        if (e.t != 0) key.set("time", e.t);
        key.set("name", e.name);
        if (e.int_value) key.set("int", *e.int_value);
        if (e.float_value) key.set("float", *e.float_value);
        if (e.string_value) key.set("string", *e.string_value);
        if (e.volume) key.set("volume", *e.volume);
        if (e.balance) key.set("balance", *e.balance);
        events_.push(std::move(key));
    }

    Json json() const {
        Json j = Json::object();
        if (!slots_.empty()) j.set("slots", slots_);
        if (!bones_.empty()) j.set("bones", bones_);
        if (!attachments_.empty()) j.set("attachments", attachments_);
        if (!draw_order_.empty()) j.set("drawOrder", draw_order_);
        if (!events_.empty()) j.set("events", events_);
        return j;
    }

    double duration() const { return duration_; }

private:
    void bone_timeline(const std::string& bone, const char* type, std::vector<Key> keys, Ease ease,
                       std::vector<const char*> names, double default_value) {
        (void)skeleton_.index(bone);
        Json array = Json::array();
        for (std::size_t k = 0; k < keys.size(); ++k) {
            assert(keys[k].v.size() == names.size());
            Json key = Json::object();
            if (keys[k].t != 0) key.set("time", keys[k].t);
            for (std::size_t i = 0; i < names.size(); ++i)
                if (std::abs(keys[k].v[i] - default_value) > 5e-5) key.set(names[i], keys[k].v[i]);
            add_curve(key, keys, k, ease);
            array.push(std::move(key));
        }
        bones_.at(bone).set(type, std::move(array));
    }

    // Tangent of value i at key k.
    double tangent(const std::vector<Key>& keys, std::size_t k, std::size_t i, Ease ease) const {
        if (ease != Ease::smooth) return 0;
        const std::size_t n = keys.size();
        bool wraps = loop_ && n > 2 && keys.front().t == 0 && std::abs(keys.back().t - duration_) < 1e-9;
        if (k == 0 || k == n - 1) {
            if (!wraps) return 0;
            return (keys[1].v[i] - keys[n - 2].v[i]) / (keys[1].t + duration_ - keys[n - 2].t);
        }
        return (keys[k + 1].v[i] - keys[k - 1].v[i]) / (keys[k + 1].t - keys[k - 1].t);
    }

    void add_curve(Json& key, const std::vector<Key>& keys, std::size_t k, Ease ease) const {
        if (k + 1 >= keys.size() || ease == Ease::linear) return;
        if (ease == Ease::stepped) {
            key.set("curve", "stepped");
            return;
        }
        const Key &a = keys[k], &b = keys[k + 1];
        double dt = b.t - a.t;
        std::vector<double> curve;
        bool linear = true;
        for (std::size_t i = 0; i < a.v.size(); ++i) {
            double cy1 = a.v[i] + tangent(keys, k, i, ease) * dt / 3;
            double cy2 = b.v[i] - tangent(keys, k + 1, i, ease) * dt / 3;
            double dv = b.v[i] - a.v[i];
            linear = linear && std::abs(cy1 - (a.v[i] + dv / 3)) < 1e-6 && std::abs(cy2 - (a.v[i] + 2 * dv / 3)) < 1e-6;
            curve.insert(curve.end(), {a.t + dt / 3, cy1, b.t - dt / 3, cy2});
        }
        if (!linear) key.set("curve", Json::numbers(curve));
    }

    const Skeleton& skeleton_;
    double duration_;
    bool loop_;
    Json slots_ = Json::object(), bones_ = Json::object(), attachments_ = Json::object();
    Json draw_order_ = Json::array(), events_ = Json::array();
};

// The same cycle half a period later: keys run from 0 to `duration` and one of them sits at duration - shift.
std::vector<Key> shifted(const std::vector<Key>& keys, double shift, double duration) {
    std::vector<Key> out;
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
        double t = std::fmod(keys[k].t + shift, duration);
        if (std::abs(t - duration) < 1e-9) t = 0;
        out.push_back({std::round(t * 10000) / 10000, keys[k].v});
    }
    std::sort(out.begin(), out.end(), [](const Key& a, const Key& b) { return a.t < b.t; });
    assert(out.front().t == 0);
    out.push_back({duration, out.front().v});
    return out;
}

// A periodic swing: value = centre + amplitude * cos(2 pi (t / period - phase)), keyed at its extremes.
std::vector<Key> swing(double duration, double cycles, double centre, double amplitude, double phase = 0) {
    std::vector<Key> keys;
    const double period = duration / cycles;
    auto value = [&](double t) { return centre + amplitude * std::cos(2 * std::numbers::pi * (t / period - phase)); };
    std::vector<double> times{0, duration};
    for (int k = -2; k <= static_cast<int>(cycles * 2) + 2; ++k) {
        double t = (phase + k * 0.5) * period;
        if (t > 1e-6 && t < duration - 1e-6) times.push_back(std::round(t * 10000) / 10000);
    }
    std::sort(times.begin(), times.end());
    for (double t : times) keys.push_back({t, {value(t)}});
    return keys;
}

// One-value keys as (v, v) pairs, for uniform scale.
std::vector<Key> uniform(std::vector<Key> keys) {
    for (Key& k : keys) k.v = {k.v[0], k.v[0]};
    return keys;
}

// Cape ripple: a wave running down the cape, strongest at the hem. `phase` in turns.
std::vector<Vec2> cape_ripple(const MeshDef& cape, double phase, double amplitude) {
    std::vector<Vec2> out;
    for (Vec2 p : cape.world) {
        double hang = clamp01((126 - p.y) / 90);
        double wave = std::sin(2 * std::numbers::pi * (phase + (126 - p.y) / 80 + p.x / 140));
        out.push_back({amplitude * hang * hang * wave, amplitude * 0.35 * hang * std::cos(2 * std::numbers::pi * phase + p.x / 20)});
    }
    return out;
}

void add_common(Anim& a, double flicker_delay) {
    a.sequence("crest", "flame", "loop", flicker_delay);
}

Anim idle(const Skeleton& s) {
    Anim a(s, 2.0, true);
    a.translate("hip", {{0, {0, 0}}, {1, {0, -2.2}}, {2, {0, 0}}});
    a.rotate("torso", {{0, {0}}, {1, {1.5}}, {2, {0}}});
    a.rotate("head", {{0, {0}}, {0.2, {0}}, {1.2, {-2.5}}, {2, {0}}});
    a.rotate("front-upper-arm", {{0, {0}}, {1, {4}}, {2, {0}}});
    a.rotate("front-lower-arm", {{0, {0}}, {1.1, {6}}, {2, {0}}});
    a.rotate("sword", {{0, {0}}, {1.1, {-4}}, {2, {0}}});
    a.rotate("back-upper-arm", {{0, {0}}, {1, {-4}}, {2, {0}}});
    a.rotate("back-lower-arm", {{0, {0}}, {1.1, {-6}}, {2, {0}}});
    a.rotate("cape1", swing(2, 1, 1.5, 1.5, 0.5));
    a.rotate("cape2", swing(2, 1, 2, 2.5, 0.6));
    a.rotate("cape3", swing(2, 1, 2.5, 3.5, 0.7));
    a.scale("crest", uniform(swing(2, 4, 1.04, 0.04)));
    a.translate("face", {{0, {0, 0}}, {0.35, {0, 0}}, {0.55, {6, 0.6}}, {1.05, {6, 0.6}}, {1.25, {-6, 0}},
                         {1.75, {-6, 0}}, {2, {0, 0}}},
                Ease::ease);
    a.attachment("eyes", {{0, "eyes-open"}, {1.45, "eyes-closed"}, {1.55, "eyes-open"}});
    a.attachment("mouth", {{0, "mouth-smile"}});
    a.rgba("crest-glow", {{0, "ffffffcc"}, {0.5, "ffffffff"}, {1, "ffffffaa"}, {1.5, "fffffff0"}, {2, "ffffffcc"}});
    a.rgba("gem", {{0, "e8e0e8ff"}, {1, "ffffffff"}, {2, "e8e0e8ff"}});
    // Breathing: the chest widens and rises a little.
    MeshDef torso = torso_mesh(s);
    std::vector<Vec2> breath;
    for (Vec2 p : torso.world) {
        double chest = smoothstep(84, 112, p.y);
        breath.push_back({p.x / 36 * 1.6 * chest, 1.2 * chest});
    }
    a.deform(torso, {{0, {}}, {1, breath}, {2, {}}});
    add_common(a, 0.1);
    return a;
}

Anim walk(const Skeleton& s) {
    const double d = 1.0;
    Anim a(s, d, true);
    // Feet (ankle IK targets, offsets from the setup ankles): planted from 0 to 0.5, swinging from 0.5 to 1.
    std::vector<Key> foot{{0, {16, 1.5}},    {0.5, {-22, 4}},  {0.62, {-15, 10}},
                          {0.75, {-2, 15}},  {0.88, {12, 9}},  {1, {16, 1.5}}};
    std::vector<Key> foot_rotation{{0, {12}}, {0.12, {0}}, {0.4, {0}}, {0.5, {-18}}, {0.7, {-8}}, {0.9, {14}}, {1, {12}}};
    a.translate("front-foot-ik", foot);
    a.translate("back-foot-ik", shifted(foot, 0.5, d));
    a.rotate("front-foot", foot_rotation);
    a.rotate("back-foot", shifted(foot_rotation, 0.5, d));
    a.translate("hip", {{0, {0, -3}}, {0.25, {0, 1}}, {0.5, {0, -3}}, {0.75, {0, 1}}, {1, {0, -3}}});
    a.rotate("torso", swing(d, 2, -4, 2, 0.5));
    a.rotate("head", swing(d, 2, 2, 2, 0.1));
    a.rotate("front-upper-arm", swing(d, 1, -4, 12, 0.5));
    a.rotate("front-lower-arm", swing(d, 1, 2, 8, 0.55));
    a.rotate("sword", swing(d, 1, -16, 6, 0.6));
    a.rotate("back-upper-arm", swing(d, 1, 1, 22, 0));
    a.rotate("back-lower-arm", swing(d, 1, 6, 10, 0.05));
    a.rotate("cape1", swing(d, 2, -6, 3, 0.1));
    a.rotate("cape2", swing(d, 2, -5, 4, 0.25));
    a.rotate("cape3", swing(d, 2, -6, 6, 0.4));
    a.rotate("crest", swing(d, 2, 6, 3, 0.2));
    a.scale("shadow", {{0, {1, 1}}, {0.25, {0.93, 1}}, {0.5, {1, 1}}, {0.75, {0.93, 1}}, {1, {1, 1}}});
    a.attachment("eyes", {{0, "eyes-open"}, {0.62, "eyes-closed"}, {0.7, "eyes-open"}});
    a.attachment("mouth", {{0, "mouth-smile"}});
    a.rgba("crest-glow", {{0, "ffffffcc"}, {0.5, "ffffffff"}, {1, "ffffffcc"}});
    MeshDef cape = cape_mesh(s);
    a.deform(cape, {{0, cape_ripple(cape, 0, 2.5)},
                    {0.25, cape_ripple(cape, 0.25, 2.5)},
                    {0.5, cape_ripple(cape, 0.5, 2.5)},
                    {0.75, cape_ripple(cape, 0.75, 2.5)},
                    {1, cape_ripple(cape, 0, 2.5)}},
             Ease::linear);
    a.event({0, "footstep", 0, std::nullopt, std::nullopt, -0.3, "stone"});
    a.event({0.5, "footstep", 1, std::nullopt, 0.9, 0.3, std::nullopt});
    add_common(a, 0.0833);
    return a;
}

Anim run(const Skeleton& s) {
    const double d = 0.6;
    Anim a(s, d, true);
    std::vector<Key> foot{{0, {26, 2}},       {0.24, {-26, 3}}, {0.3, {-30, 14}}, {0.39, {-8, 32}},
                          {0.48, {18, 24}},   {0.55, {28, 8}},  {0.6, {26, 2}}};
    std::vector<Key> foot_rotation{{0, {10}}, {0.08, {0}}, {0.2, {-10}}, {0.3, {-30}}, {0.45, {0}}, {0.55, {18}}, {0.6, {10}}};
    a.translate("front-foot-ik", foot);
    a.translate("back-foot-ik", shifted(foot, 0.3, d));
    a.rotate("front-foot", foot_rotation);
    a.rotate("back-foot", shifted(foot_rotation, 0.3, d));
    a.translate("hip", {{0, {4, -6}}, {0.15, {4, 3}}, {0.3, {4, -6}}, {0.45, {4, 3}}, {0.6, {4, -6}}});
    a.rotate("torso", swing(d, 2, -14, 2, 0.5));
    a.rotate("head", swing(d, 2, 9, 2, 0.1));
    a.rotate("front-upper-arm", swing(d, 1, -10, 28, 0.5));
    a.rotate("front-lower-arm", swing(d, 1, 30, 10, 0.55));
    // The sword stays levelled forward while the arm pumps: it turns against the arm.
    a.rotate("sword", swing(d, 1, -65, 30, 0.0));
    a.rotate("back-upper-arm", swing(d, 1, 0, 40, 0));
    a.rotate("back-lower-arm", swing(d, 1, 40, 12, 0.05));
    a.rotate("cape1", swing(d, 2, -35, 4, 0.1));
    a.rotate("cape2", swing(d, 2, -18, 6, 0.25));
    a.rotate("cape3", swing(d, 2, -14, 9, 0.4));
    a.rotate("crest", swing(d, 2, 18, 4, 0.2));
    a.scale("crest", uniform(swing(d, 4, 1.1, 0.06, 0)));
    a.scale("shadow", {{0, {1, 1}}, {0.15, {0.85, 0.9}}, {0.3, {1, 1}}, {0.45, {0.85, 0.9}}, {0.6, {1, 1}}});
    a.attachment("eyes", {{0, "eyes-angry"}});
    a.attachment("mouth", {{0, "mouth-open"}});
    a.rgba("crest-glow", {{0, "ffe0c0ff"}, {0.3, "ffffffff"}, {0.6, "ffe0c0ff"}});
    MeshDef cape = cape_mesh(s);
    a.deform(cape, {{0, cape_ripple(cape, 0, 4)},
                    {0.15, cape_ripple(cape, 0.25, 4)},
                    {0.3, cape_ripple(cape, 0.5, 4)},
                    {0.45, cape_ripple(cape, 0.75, 4)},
                    {0.6, cape_ripple(cape, 0, 4)}},
             Ease::linear);
    a.event({0, "footstep", 0, 1.5, 1.0, -0.3, std::nullopt});
    a.event({0.3, "footstep", 1, 1.5, 1.0, 0.3, std::nullopt});
    add_common(a, 0.05);
    return a;
}

Anim attack(const Skeleton& s, const std::vector<SlotDef>& slots) {
    Anim a(s, 1.0, false);
    const double windup = 0.28, strike = 0.42, follow = 0.55, end = 1.0;
    a.translate("hip", {{0, {0, 0}}, {windup, {-6, -8}}, {strike, {10, -10}}, {follow, {12, -9}}, {end, {0, 0}}});
    a.rotate("torso", {{0, {0}}, {windup, {14}}, {strike, {-20}}, {follow, {-22}}, {end, {0}}});
    a.rotate("head", {{0, {0}}, {windup, {-6}}, {strike, {10}}, {follow, {8}}, {end, {0}}});
    a.rotate("front-upper-arm", {{0, {0}}, {windup, {200}}, {strike, {70}}, {follow, {40}}, {end, {0}}});
    a.rotate("front-lower-arm", {{0, {0}}, {windup, {20}}, {strike, {-10}}, {follow, {0}}, {end, {0}}});
    a.rotate("sword", {{0, {0}}, {windup, {-80}}, {strike, {-85}}, {follow, {-60}}, {end, {0}}});
    a.rotate("back-upper-arm", {{0, {0}}, {windup, {35}}, {strike, {-35}}, {follow, {-30}}, {end, {0}}});
    a.rotate("back-lower-arm", {{0, {0}}, {windup, {20}}, {strike, {-10}}, {end, {0}}});
    a.rotate("cape1", {{0, {0}}, {windup, {6}}, {strike, {-25}}, {follow, {-28}}, {end, {0}}});
    a.rotate("cape2", {{0, {0}}, {windup, {4}}, {strike, {-10}}, {0.65, {-18}}, {end, {0}}});
    a.rotate("cape3", {{0, {0}}, {windup, {4}}, {strike, {-6}}, {0.7, {-22}}, {end, {0}}});
    a.translate("front-foot-ik", {{0, {0, 0}}, {0.3, {0, 0}}, {0.36, {12, 10}}, {strike, {24, 0}}, {0.75, {24, 0}},
                                  {end, {0, 0}}},
                Ease::ease);
    a.rotate("front-foot", {{0, {0}}, {0.3, {0}}, {0.36, {15}}, {strike, {0}}}, Ease::ease);
    a.scale("crest", {{0, {1, 1}}, {windup, {1.1, 1.1}}, {strike, {1.45, 1.45}}, {0.6, {1.2, 1.2}}, {end, {1, 1}}},
            Ease::ease);
    a.rotate("crest", {{0, {0}}, {windup, {-10}}, {strike, {25}}, {end, {0}}});
    a.attachment("eyes", {{0, "eyes-open"}, {0.15, "eyes-angry"}, {0.8, "eyes-open"}});
    a.attachment("mouth", {{0, "mouth-smile"}, {0.15, "mouth-open"}, {0.36, "mouth-shout"}, {0.8, "mouth-smile"}});
    a.rgba2("sword", {{0, "ffffffff", "000000"}, {windup, "ffe6c0ff", "ff5a1a"}, {0.5, "ffe6c0ff", "ff5a1a"},
                      {0.9, "ffffffff", "000000"}});
    a.rgba("crest-glow", {{0, "ffffffcc"}, {windup, "ffd8a0ff"}, {strike, "ffffffff"}, {end, "ffffffcc"}});
    a.rgba("gem", {{0, "e8e0e8ff"}, {0.36, "e8e0e8ff"}, {strike, "ffffffff"}, {0.7, "e8e0e8ff"}});
    // While the sword is raised behind the head, the sword arm is drawn behind the helmet.
    int crest = 0;
    for (std::size_t i = 0; i < slots.size(); ++i)
        if (slots[i].name == "crest") crest = static_cast<int>(i);
    std::vector<std::pair<std::string, int>> behind;
    int moved = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const std::string& n = slots[i].name;
        if (n == "sword" || n == "front-upper-arm" || n == "front-lower-arm" || n == "front-hand")
            behind.push_back({n, crest + moved++ - static_cast<int>(i)});
    }
    a.draw_order(0.12, behind);
    a.draw_order(0.4, {});
    a.event({0.33, "swing", std::nullopt, 1.2, std::nullopt, std::nullopt, std::nullopt});
    a.event({strike, "hit", 12, 0.8, std::nullopt, std::nullopt, "slash"});
    add_common(a, 0.05);
    return a;
}

}  // namespace

Json animations_json(const Skeleton& skeleton) {
    Json out = Json::object();
    out.set("attack", attack(skeleton, build_slots()).json());
    out.set("idle", idle(skeleton).json());
    out.set("run", run(skeleton).json());
    out.set("walk", walk(skeleton).json());
    return out;
}

}  // namespace spinegpu::rig
