//! ONNX element types in IR terms: the `TensorProto.DataType` codes that
//! attributes such as Cast's `to` carry, the IR element type of each, and the
//! `!onnx.Seq`/`!onnx.Opt` wrappers. The protobuf side (value types, tensor
//! data) is the translation's (`onnx_translate::convert`).

use ir::types::{FloatKind, Signedness, Type, TypeData};
use ir::Context;
use data_type as dt;

/// `TensorProto.DataType`.
pub mod data_type {
    pub const FLOAT: i32 = 1;
    pub const UINT8: i32 = 2;
    pub const INT8: i32 = 3;
    pub const UINT16: i32 = 4;
    pub const INT16: i32 = 5;
    pub const INT32: i32 = 6;
    pub const INT64: i32 = 7;
    pub const STRING: i32 = 8;
    pub const BOOL: i32 = 9;
    pub const FLOAT16: i32 = 10;
    pub const DOUBLE: i32 = 11;
    pub const UINT32: i32 = 12;
    pub const UINT64: i32 = 13;
    pub const COMPLEX64: i32 = 14;
    pub const COMPLEX128: i32 = 15;
    pub const BFLOAT16: i32 = 16;
    pub const FLOAT8E4M3FN: i32 = 17;
    pub const FLOAT8E4M3FNUZ: i32 = 18;
    pub const FLOAT8E5M2: i32 = 19;
    pub const FLOAT8E5M2FNUZ: i32 = 20;
    pub const UINT4: i32 = 21;
    pub const INT4: i32 = 22;
    pub const FLOAT4E2M1: i32 = 23;
    pub const FLOAT8E8M0: i32 = 24;
    pub const UINT2: i32 = 25;
    pub const INT2: i32 = 26;
}

/// The IR element type of an ONNX data type.
pub fn elem_type(ctx: &Context, t: i32) -> Result<Type, String> {
    let int = |w: u32, s: Signedness| ctx.int_type_signed(w, s);
    let float = |k: FloatKind| ctx.intern_type(TypeData::Float(k));
    Ok(match t {
        dt::FLOAT => ctx.f32(),
        dt::DOUBLE => ctx.f64(),
        dt::FLOAT16 => float(FloatKind::F16),
        dt::BFLOAT16 => float(FloatKind::BF16),
        dt::FLOAT8E4M3FN => float(FloatKind::F8E4M3FN),
        dt::FLOAT8E5M2 => float(FloatKind::F8E5M2),
        dt::FLOAT8E4M3FNUZ => float(FloatKind::F8E4M3FNUZ),
        dt::FLOAT8E5M2FNUZ => float(FloatKind::F8E5M2FNUZ),
        dt::FLOAT8E8M0 => float(FloatKind::F8E8M0FNU),
        dt::FLOAT4E2M1 => float(FloatKind::F4E2M1FN),
        dt::INT2 => int(2, Signedness::Signless),
        dt::UINT2 => int(2, Signedness::Unsigned),
        dt::INT8 => int(8, Signedness::Signless),
        dt::INT16 => int(16, Signedness::Signless),
        dt::INT32 => ctx.i32(),
        dt::INT64 => ctx.i64(),
        dt::INT4 => int(4, Signedness::Signless),
        dt::UINT8 => int(8, Signedness::Unsigned),
        dt::UINT16 => int(16, Signedness::Unsigned),
        dt::UINT32 => int(32, Signedness::Unsigned),
        dt::UINT64 => int(64, Signedness::Unsigned),
        dt::UINT4 => int(4, Signedness::Unsigned),
        dt::BOOL => ctx.i1(),
        dt::COMPLEX64 => ctx.intern_type(TypeData::Complex(ctx.f32())),
        dt::COMPLEX128 => ctx.intern_type(TypeData::Complex(ctx.f64())),
        dt::STRING => ctx.intern_type(TypeData::Opaque { dialect: "onnx".into(), body: ".String".into() }),
        other => return Err(format!("unsupported ONNX element type {}", data_type_name(other))),
    })
}

/// The ONNX data type of an element type: the inverse of `elem_type`, found
/// through it so the two cannot disagree.
pub fn data_type(ctx: &Context, elem: &Type) -> Option<i32> {
    (1..=26).find(|c| elem_type(ctx, *c).ok().as_ref() == Some(elem))
}

pub fn data_type_name(t: i32) -> String {
    let names = [
        "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32",
        "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
        "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2",
    ];
    names.get(t as usize).map(|s| s.to_string()).unwrap_or_else(|| format!("#{}", t))
}

/// `!onnx.Seq<inner>` or `!onnx.Opt<inner>` (`kind` is `Seq` or `Opt`).
pub fn wrap(ctx: &Context, kind: &str, inner: &Type) -> Type {
    ctx.intern_type(TypeData::Opaque { dialect: "onnx".into(), body: format!(".{}<{}>", kind, inner) })
}

/// The element type of a `!onnx.Seq<...>` or `!onnx.Opt<...>`.
pub fn unwrap(ctx: &Context, t: &Type, kind: &str) -> Option<Type> {
    let TypeData::Opaque { dialect, body } = t.data() else { return None };
    let inner = body.strip_prefix(&format!(".{}<", kind))?.strip_suffix('>')?;
    if dialect != "onnx" {
        return None;
    }
    ir::parser::Parser::new(ctx, inner, "", 1).parse_type().ok()
}
