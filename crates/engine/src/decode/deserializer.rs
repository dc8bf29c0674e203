//! The `serde::Deserializer` over a JSON body that both decodings run through: strict (it
//! records every field the types ignore and where a type error stands) and lenient
//! (`from_value`, serde_json's `from_value` with one copy of the decoding code).

use super::strict::*;
use crate::errors::go_quote;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// The deserializer over the JSON body.
pub(crate) struct De<'a, 'p, 'c> {
    pub(crate) v: &'a Value,
    pub(crate) path: Loc<'p>,
    pub(crate) go_struct: &'static str,
    pub(crate) go_field: Loc<'p>,
    pub(crate) ctx: &'c mut Ctx,
}

/// Fills in where an error happened, unless an inner level already did.
pub(crate) fn locate_at(mut e: DeError, path: &Loc, go_struct: &'static str, go_field: &Loc, v: &Value) -> DeError {
    if !e.located {
        e.located = true;
        e.path = path.render();
        e.go_struct = go_struct.to_string();
        e.go_field = go_field.render();
        if let DeErrorKind::Type { expected, .. } = &e.kind {
            e.value = value_desc(v, expected);
        }
    }
    e
}

/// Go's description of a JSON value in an `UnmarshalTypeError`.
pub(crate) fn value_desc(v: &Value, expected: &str) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
        Value::Number(n) => {
            // Into an integer type, Go quotes the literal (fractional or out of range).
            if matches!(expected, "i32" | "i64" | "u8" | "u16" | "u32" | "u64") {
                format!("number {n}")
            } else {
                "number".into()
            }
        }
    }
}

impl<'a> De<'a, '_, '_> {
    pub(crate) fn locate(&self, e: DeError) -> DeError {
        locate_at(e, &self.path, self.go_struct, &self.go_field, self.v)
    }

    pub(crate) fn any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let r = match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(0.0))
                }
            }
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => {
                return self.seq(items, visitor);
            }
            Value::Object(m) => {
                return self.map(Some(m), None, visitor);
            }
        };
        r.map_err(|e| self.locate(e))
    }

    /// An array (`items`; empty for a strict `null`) through `visit_seq`, in either mode: the
    /// strict mode locates an error, the lenient one (serde_json's) requires every element to
    /// be taken. One function for both, so each visitor type has one `visit_seq` call site.
    pub(crate) fn seq<V: Visitor<'a>>(self, items: &'a [Value], visitor: V) -> Result<V::Value, DeError> {
        let De { v, path, go_struct, go_field, ctx } = self;
        let lenient = ctx.lenient;
        let mut access = SeqDe { items: items.iter(), index: 0, path: &path, go_struct, go_field: &go_field, ctx };
        match visitor.visit_seq(&mut access) {
            Ok(out) => match seq_left(lenient, items.len(), access.items.len()) {
                None => Ok(out),
                Some(e) => Err(e),
            },
            Err(e) => Err(locate_unless(lenient, e, &path, go_struct, &go_field, v)),
        }
    }

    /// An object (`None`: no entries, a strict `null`) through `visit_map`, in either mode, as
    /// [`De::seq`] does for arrays.
    pub(crate) fn map<V: Visitor<'a>>(
        self,
        m: Option<&'a Map<String, Value>>,
        struct_name: Option<&'static str>,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let De { v, path, go_struct, go_field, ctx } = self;
        let lenient = ctx.lenient;
        let mut access = MapDe {
            iter: m.map(|m| m.iter()),
            value: None,
            path: &path,
            struct_name,
            go_struct,
            go_field: &go_field,
            ctx,
        };
        match visitor.visit_map(&mut access) {
            Ok(out) => match map_left(lenient, m, access.iter.map_or(0, |i| i.len())) {
                None => Ok(out),
                Some(e) => Err(e),
            },
            Err(e) => Err(locate_unless(lenient, e, &path, go_struct, &go_field, v)),
        }
    }
}

/// The lenient mode's error for an array whose elements were not all taken.
pub(crate) fn seq_left(lenient: bool, len: usize, left: usize) -> Option<DeError> {
    (lenient && left != 0).then(|| de::Error::invalid_length(len, &"fewer elements in array"))
}

/// The lenient mode's error for an object whose entries were not all taken.
pub(crate) fn map_left(lenient: bool, m: Option<&Map<String, Value>>, left: usize) -> Option<DeError> {
    (lenient && left != 0).then(|| de::Error::invalid_length(m.map_or(0, Map::len), &"fewer elements in map"))
}

/// Strict errors are located where they happened; lenient ones go up as they are.
pub(crate) fn locate_unless(
    lenient: bool,
    e: DeError,
    path: &Loc,
    go_struct: &'static str,
    go_field: &Loc,
    v: &Value,
) -> DeError {
    if lenient {
        e
    } else {
        locate_at(e, path, go_struct, go_field, v)
    }
}

/// Go's `CorruptInputError` offset for a string `encoding/base64.StdEncoding` refuses.
pub(crate) fn go_base64_error(s: &str) -> Option<usize> {
    let src = s.as_bytes();
    let valid = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let mut si = 0;
    loop {
        // One quantum of up to four characters.
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                return match j {
                    0 => None,
                    _ => Some(si - j),
                };
            }
            let c = src[si];
            si += 1;
            if valid(c) {
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Some(si - 1);
            }
            // Padding.
            match j {
                0 | 1 => return Some(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Some(src.len());
                    }
                    if src[si] != b'=' {
                        return Some(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                return Some(si);
            }
            return None;
        }
    }
}

/// Whether the visitor describes what it expects as `want` (compared as it is written, without
/// building the description).
pub(crate) fn expects<'de, V: Visitor<'de>>(v: &V, want: &str) -> bool {
    struct Compare<'w> {
        rest: &'w str,
        same: bool,
    }
    impl fmt::Write for Compare<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match self.rest.strip_prefix(s) {
                Some(rest) if self.same => self.rest = rest,
                _ => self.same = false,
            }
            Ok(())
        }
    }
    let mut c = Compare { rest: want, same: true };
    let _ = fmt::write(&mut c, format_args!("{}", v as &dyn de::Expected));
    c.same && c.rest.is_empty()
}

macro_rules! forward_zero {
    ($($method:ident => $zero:expr, $lenient:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
                if self.ctx.lenient {
                    return self.$lenient(visitor);
                }
                if self.v.is_null() {
                    let r = $zero(visitor);
                    return r.map_err(|e| self.locate(e));
                }
                self.any(visitor)
            }
        )*
    };
}

impl<'a> de::Deserializer<'a> for De<'a, '_, '_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return self.lenient_any(visitor);
        }
        if expects(&visitor, "IntOrString") {
            return self.int_or_string(visitor);
        }
        self.any(visitor)
    }

    forward_zero!(
        deserialize_bool => |v: V| v.visit_bool(false), lenient_bool,
        deserialize_i8 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i16 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i32 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i64 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_u8 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u16 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u32 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u64 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_f32 => |v: V| v.visit_f64(0.0), lenient_number,
        deserialize_f64 => |v: V| v.visit_f64(0.0), lenient_number,
        deserialize_char => |v: V| v.visit_str(""), lenient_str,
        deserialize_string => |v: V| v.visit_str(""), lenient_str,
        deserialize_bytes => |v: V| v.visit_bytes(&[]), lenient_bytes,
        deserialize_byte_buf => |v: V| v.visit_bytes(&[]), lenient_bytes,
        deserialize_unit => |v: V| v.visit_unit(), lenient_unit,
        deserialize_identifier => |v: V| v.visit_str(""), lenient_str,
    );

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return self.lenient_str(visitor);
        }
        if let Value::String(s) = self.v {
            if expects(&visitor, "a base64-encoded string") {
                if let Some(at) = go_base64_error(s) {
                    return Err(self.locate(DeError::message(format!("illegal base64 data at input byte {at}"))));
                }
                if s.contains(['\n', '\r']) {
                    let clean: String = s.chars().filter(|c| *c != '\n' && *c != '\r').collect();
                    return visitor.visit_string(clean).map_err(|e| self.locate(e));
                }
            }
        }
        if self.v.is_null() {
            return visitor.visit_str("").map_err(|e| self.locate(e));
        }
        self.any(visitor)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.v.is_null() {
            return visitor.visit_none().map_err(|e| self.locate(e));
        }
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return visitor.visit_newtype_struct(self);
        }
        match (name, self.v) {
            ("Quantity", Value::Null) => visitor.visit_str("").map_err(|e| self.locate(e)),
            ("Quantity", v) => {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if let Err(msg) = parse_quantity(&text) {
                    return Err(self.locate(DeError::message(msg)));
                }
                visitor.visit_string(text).map_err(|e| self.locate(e))
            }
            ("Time" | "MicroTime", Value::String(s)) => {
                let s = s.clone();
                visitor
                    .visit_newtype_struct(De {
                        v: self.v,
                        path: self.path,
                        go_struct: self.go_struct,
                        go_field: self.go_field,
                        ctx: self.ctx,
                    })
                    .map_err(|_| {
                        let mut e = DeError::message(format!(
                            "parsing time {} as \"2006-01-02T15:04:05Z07:00\": cannot parse {} as \"2006\"",
                            go_quote(&s),
                            go_quote(&s)
                        ));
                        e.located = true;
                        e
                    })
            }
            ("Time" | "MicroTime", Value::Null) => visitor.visit_newtype_struct(self),
            ("Time" | "MicroTime", v) => {
                let desc = match v {
                    Value::Bool(_) => "bool",
                    Value::Number(_) => "number",
                    Value::Array(_) => "array",
                    _ => "object",
                };
                Err(self
                    .locate(DeError::message(format!("json: cannot unmarshal {desc} into Go value of type string"))))
            }
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Array(items) => self.seq(items, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.seq(&[], visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), None, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.map(None, None, visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), Some(name), visitor),
            Value::Array(items) if self.ctx.lenient => self.seq(items, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.map(None, Some(name), visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()).map_err(|e| self.locate(e)),
            Value::Object(m) if self.ctx.lenient => self.lenient_enum(m, visitor),
            v if self.ctx.lenient => Err(de::Error::invalid_type(unexpected(v), &"string or map")),
            _ => self.any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        // The type has no such field: strict decoding reports it and skips its value.
        if !self.ctx.lenient {
            self.ctx.unknown_field(&self.path);
        }
        visitor.visit_unit()
    }
}

impl<'a> De<'a, '_, '_> {
    /// `intstr.IntOrString`: a string, or a JSON number that fits an int32.
    pub(crate) fn int_or_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let desc = match self.v {
            Value::String(s) => return visitor.visit_borrowed_str(s).map_err(|e| self.locate(e)),
            Value::Null => return visitor.visit_i64(0).map_err(|e| self.locate(e)),
            Value::Number(n) => match n.as_i64() {
                Some(i) if i32::try_from(i).is_ok() => return visitor.visit_i64(i).map_err(|e| self.locate(e)),
                _ => format!("number {n}"),
            },
            Value::Bool(_) => "bool".into(),
            Value::Array(_) => "array".into(),
            Value::Object(_) => "object".into(),
        };
        Err(self.locate(DeError::message(format!("json: cannot unmarshal {desc} into Go value of type int32"))))
    }
}

// ---------------------------------------------------------------------------------------
// The lenient mode: serde_json's `from_value`, through the same deserializer type
// ---------------------------------------------------------------------------------------

/// Builds a typed value from JSON exactly as `serde_json::from_value` does (the same values and
/// the same error messages; unknown fields are ignored), but through this module's deserializer.
/// Every type's `Deserialize` code is generic over the deserializer, so a second deserializer
/// type (serde_json's `Value`) would be a second copy of the whole k8s-openapi decoding tree in
/// the wasm; with this one, strict and lenient decoding share one copy.
pub fn from_value<T: de::DeserializeOwned>(v: &Value) -> Result<T, serde_json::Error> {
    let mut ctx = Ctx { unknown: Vec::new(), lenient: true };
    T::deserialize(De { v, path: Loc::Root, go_struct: "", go_field: Loc::Root, ctx: &mut ctx })
        .map_err(|e| de::Error::custom(e.json_message()))
}

/// How serde_json's `Value` describes itself in an `invalid type` error.
pub(crate) fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            (None, None) => de::Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// A number as serde_json visits it: non-negative integers as `u64`, negative ones as `i64`.
pub(crate) fn visit_number<'a, V: Visitor<'a>>(n: &Number, visitor: V) -> Result<V::Value, DeError> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => visitor.visit_u64(u),
        (None, Some(i)) => visitor.visit_i64(i),
        (None, None) => visitor.visit_f64(n.as_f64().unwrap_or_default()),
    }
}

/// The lenient mode's side of each `deserialize_*` method: what serde_json's `Value` does.
impl<'a> De<'a, '_, '_> {
    pub(crate) fn wrong_type<V: Visitor<'a>, T>(&self, visitor: &V) -> Result<T, DeError> {
        Err(de::Error::invalid_type(unexpected(self.v), visitor))
    }

    pub(crate) fn lenient_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(m) => self.map(Some(m), None, visitor),
        }
    }

    pub(crate) fn lenient_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => self.wrong_type(&visitor),
        }
    }

    pub(crate) fn lenient_number<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Number(n) => visit_number(n, visitor),
            _ => self.wrong_type(&visitor),
        }
    }

    pub(crate) fn lenient_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            _ => self.wrong_type(&visitor),
        }
    }

    pub(crate) fn lenient_bytes<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            _ => self.wrong_type(&visitor),
        }
    }

    pub(crate) fn lenient_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            _ => self.wrong_type(&visitor),
        }
    }

    /// An enum written as an object of one key, the variant, holding its content.
    pub(crate) fn lenient_enum<V: Visitor<'a>>(
        self,
        m: &'a Map<String, Value>,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let mut entries = m.iter();
        let (Some((variant, v)), None) = (entries.next(), entries.next()) else {
            return Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key"));
        };
        let De { path, go_struct, go_field, ctx, .. } = self;
        visitor.visit_enum(LenientEnum { variant, content: De { v, path, go_struct, go_field, ctx } })
    }
}

pub(crate) struct LenientEnum<'a, 'p, 'c> {
    pub(crate) variant: &'a str,
    pub(crate) content: De<'a, 'p, 'c>,
}

impl<'a, 'p, 'c> de::EnumAccess<'a> for LenientEnum<'a, 'p, 'c> {
    type Error = DeError;
    type Variant = De<'a, 'p, 'c>;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, Self::Variant), DeError> {
        let variant: de::value::BorrowedStrDeserializer<'a, DeError> =
            de::value::BorrowedStrDeserializer::new(self.variant);
        Ok((seed.deserialize(variant)?, self.content))
    }
}

/// The content of an enum variant (lenient mode only: strict decoding takes variants as
/// strings).
impl<'a> de::VariantAccess<'a> for De<'a, '_, '_> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<S::Value, DeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Array(items) if items.is_empty() => visitor.visit_unit(),
            Value::Array(items) => self.seq(items, visitor),
            v => Err(de::Error::invalid_type(unexpected(v), &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'a>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), None, visitor),
            v => Err(de::Error::invalid_type(unexpected(v), &"struct variant")),
        }
    }
}

pub(crate) struct SeqDe<'a, 'p, 'c> {
    pub(crate) items: std::slice::Iter<'a, Value>,
    pub(crate) index: usize,
    pub(crate) path: &'p Loc<'p>,
    pub(crate) go_struct: &'static str,
    pub(crate) go_field: &'p Loc<'p>,
    pub(crate) ctx: &'c mut Ctx,
}

impl<'a> SeqAccess<'a> for SeqDe<'a, '_, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        let Some(v) = self.items.next() else { return Ok(None) };
        let path = Loc::Index(self.path, self.index);
        self.index += 1;
        seed.deserialize(De { v, path, go_struct: self.go_struct, go_field: *self.go_field, ctx: self.ctx }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

pub(crate) struct MapDe<'a, 'p, 'c> {
    /// The entries; `None` for a strict `null` (no entries).
    pub(crate) iter: Option<serde_json::map::Iter<'a>>,
    pub(crate) value: Option<(&'a String, &'a Value)>,
    pub(crate) path: &'p Loc<'p>,
    /// Set when the map is a struct: its fields extend Go's field path.
    pub(crate) struct_name: Option<&'static str>,
    pub(crate) go_struct: &'static str,
    pub(crate) go_field: &'p Loc<'p>,
    pub(crate) ctx: &'c mut Ctx,
}

impl<'a> MapAccess<'a> for MapDe<'a, '_, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        let Some((k, v)) = self.iter.as_mut().and_then(Iterator::next) else { return Ok(None) };
        self.value = Some((k, v));
        let key: de::value::BorrowedStrDeserializer<'a, DeError> = de::value::BorrowedStrDeserializer::new(k);
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((k, v)) = self.value.take() else { return Err(de::Error::custom("value without a key")) };
        let path = Loc::Key(self.path, k);
        let (go_struct, go_field) = match self.struct_name {
            Some(name) => (name, Loc::Key(self.go_field, k)),
            None => (self.go_struct, *self.go_field),
        };
        seed.deserialize(De { v, path, go_struct, go_field, ctx: self.ctx })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.as_ref().map_or(0, ExactSizeIterator::len))
    }
}
