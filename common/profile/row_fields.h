// A row type's fields described once: for each, its one name (the profile
// record's JSON key, the dataset's column and the study database's column),
// its type, when it is null, and what it means (the words nx(7) and
// `nx-query --list tables` show).  The tables of summary_rows.h are built
// from these; the record's JSON (row_fields_json.h), the dataset's tables and the
// database's walk them, and none spells a field itself.
//
//   field<&EngineStat::instructions>("instructions", "instructions the engine ran")
//   field<&CollectiveOp::bytes, NullWhen::negative>("bytes", "bytes it moved")
//   field_in<&ExecutionStat::window, &ExecutionWindow::index>("execution_index", "...")
//   field_at<&ExecutionStat::busy_ns, 0>("tensor_busy_ns", "...")
//   derived<ExecutionStat>("dur_ns", FieldType::int64, "...", [](const ExecutionStat& e) -> FieldValue {...})
//
// A member of an enum type is text through its TextCodec (below).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace nx {

enum class FieldType : uint8_t { int64, int32, float64, text };

// A field's value; monostate is null.  Text views the row's own string (or
// the reader's input) and is valid while that lives.
using FieldValue = std::variant<std::monostate, int64_t, double, std::string_view>;

// When a member's value stands for "not known": written as null (the
// record leaves the key out), read back as that value.
enum class NullWhen : uint8_t { never, negative, not_positive, empty, not_finite };

template <class Row>
struct Field {
    std::string_view name;
    FieldType type;
    bool nullable;
    std::string_view meaning;
    FieldValue (*get)(const Row&);
    // From a value of the field's type, or null when the input lacks it
    // (the member keeps its default); false when the value does not parse
    // (an engine nx does not know), which drops the row being read.
    // nullptr: a figure derived from the others, never read back.
    bool (*set)(Row&, const FieldValue&);
    std::string_view was = {};  // the name an older nx wrote it under, read too
    bool sequential = false;    // changes little from row to row (Parquet: deltas)
    bool free_text = false;     // long prose: no min/max statistics
    bool required = false;      // a row read without it is not kept
};

// Text for an enum member, and back: specialise with
//   static std::string_view text(T);  static std::optional<T> parse(std::string_view);
template <class T>
struct TextCodec;

namespace field_detail {

template <auto Member>
struct MemberOf;
template <class R, class T, T R::*Member>
struct MemberOf<Member> {
    using Row = R;
    using Type = T;
};

template <class T>
constexpr FieldType type_of() {
    if constexpr (std::is_same_v<T, std::string>) return FieldType::text;
    else if constexpr (std::is_enum_v<T>) return FieldType::text;
    else if constexpr (std::is_floating_point_v<T>) return FieldType::float64;
    else if constexpr (sizeof(T) <= 4) return FieldType::int32;
    else return FieldType::int64;
}

template <class T, NullWhen N>
FieldValue value_of(const T& v) {
    if constexpr (std::is_same_v<T, std::string>) {
        if (N == NullWhen::empty && v.empty()) return {};
        return std::string_view(v);
    } else if constexpr (std::is_enum_v<T>) {
        return TextCodec<T>::text(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        if (N == NullWhen::not_finite && !std::isfinite(v)) return {};
        if (N == NullWhen::not_positive && !(v > 0)) return {};
        return static_cast<double>(v);
    } else {
        if (N == NullWhen::negative && v < 0) return {};
        if (N == NullWhen::not_positive && v <= 0) return {};
        return static_cast<int64_t>(v);
    }
}

template <class T>
bool assign(T& out, const FieldValue& v) {
    if (std::holds_alternative<std::monostate>(v)) {
        if constexpr (std::is_enum_v<T>) return false;  // a row without its key
        else return true;
    }
    if constexpr (std::is_same_v<T, std::string>) {
        if (const auto* s = std::get_if<std::string_view>(&v)) out.assign(s->data(), s->size());
    } else if constexpr (std::is_enum_v<T>) {
        const auto* s = std::get_if<std::string_view>(&v);
        std::optional<T> parsed = s ? TextCodec<T>::parse(*s) : std::nullopt;
        if (!parsed) return false;
        out = *parsed;
    } else if constexpr (std::is_floating_point_v<T>) {
        if (const auto* d = std::get_if<double>(&v)) out = static_cast<T>(*d);
        else if (const auto* i = std::get_if<int64_t>(&v)) out = static_cast<T>(*i);
    } else {
        if (const auto* i = std::get_if<int64_t>(&v)) out = static_cast<T>(*i);
    }
    return true;
}

template <auto Member, NullWhen N>
FieldValue get(const typename MemberOf<Member>::Row& row) {
    return value_of<typename MemberOf<Member>::Type, N>(row.*Member);
}
template <auto Member>
bool set(typename MemberOf<Member>::Row& row, const FieldValue& v) {
    return assign(row.*Member, v);
}

template <auto Outer, auto Inner, NullWhen N>
FieldValue get_in(const typename MemberOf<Outer>::Row& row) {
    return value_of<typename MemberOf<Inner>::Type, N>((row.*Outer).*Inner);
}
template <auto Outer, auto Inner>
bool set_in(typename MemberOf<Outer>::Row& row, const FieldValue& v) {
    return assign((row.*Outer).*Inner, v);
}

template <auto Array, size_t I>
FieldValue get_at(const typename MemberOf<Array>::Row& row) {
    return value_of<std::remove_cvref_t<decltype((row.*Array)[I])>, NullWhen::never>((row.*Array)[I]);
}
template <auto Array, size_t I>
bool set_at(typename MemberOf<Array>::Row& row, const FieldValue& v) {
    return assign((row.*Array)[I], v);
}

}  // namespace field_detail

template <auto Member, NullWhen N = NullWhen::never>
constexpr Field<typename field_detail::MemberOf<Member>::Row> field(std::string_view name, std::string_view meaning) {
    using T = typename field_detail::MemberOf<Member>::Type;
    return {name, field_detail::type_of<T>(), N != NullWhen::never, meaning, &field_detail::get<Member, N>,
            &field_detail::set<Member>};
}

// A member of a member (ExecutionStat::window.index).
template <auto Outer, auto Inner, NullWhen N = NullWhen::never>
constexpr Field<typename field_detail::MemberOf<Outer>::Row> field_in(std::string_view name, std::string_view meaning) {
    using T = typename field_detail::MemberOf<Inner>::Type;
    return {name, field_detail::type_of<T>(), N != NullWhen::never, meaning, &field_detail::get_in<Outer, Inner, N>,
            &field_detail::set_in<Outer, Inner>};
}

// Element I of an array member (ExecutionStat::busy_ns[0]).
template <auto Array, size_t I>
constexpr Field<typename field_detail::MemberOf<Array>::Row> field_at(std::string_view name, std::string_view meaning) {
    using Row = typename field_detail::MemberOf<Array>::Row;
    using T = std::remove_cvref_t<decltype((std::declval<const Row&>().*Array)[I])>;
    return {name, field_detail::type_of<T>(), false, meaning, &field_detail::get_at<Array, I>,
            &field_detail::set_at<Array, I>};
}

// A figure made from the others (a duration from its ends): written, never
// read back.
template <class Row>
constexpr Field<Row> derived(std::string_view name, FieldType type, std::string_view meaning,
                             FieldValue (*get)(const Row&), bool nullable = false) {
    return {name, type, nullable, meaning, get, nullptr};
}

// The same field read under the name an older nx wrote, or with another
// rule for a value the input lacks.
template <class Row>
constexpr Field<Row> formerly(Field<Row> f, std::string_view was) {
    f.was = was;
    return f;
}
template <class Row>
constexpr Field<Row> read_with(Field<Row> f, bool (*set)(Row&, const FieldValue&)) {
    f.set = set;
    return f;
}
template <class Row>
constexpr Field<Row> sequential(Field<Row> f) {
    f.sequential = true;
    return f;
}
template <class Row>
constexpr Field<Row> required(Field<Row> f) {
    f.required = true;
    return f;
}
template <class Row>
constexpr Field<Row> free_text(Field<Row> f) {
    f.free_text = true;
    return f;
}

template <class Row>
using Fields = std::span<const Field<Row>>;

// The field named `name`, or nullptr.
template <class Row>
const Field<Row>* find_field(Fields<Row> fields, std::string_view name) {
    for (const Field<Row>& f : fields)
        if (f.name == name) return &f;
    return nullptr;
}

constexpr std::string_view to_string(FieldType t) {
    switch (t) {
        case FieldType::int64: return "int64";
        case FieldType::int32: return "int32";
        case FieldType::float64: return "float64";
        case FieldType::text: return "text";
    }
    return "?";
}

}  // namespace nx
