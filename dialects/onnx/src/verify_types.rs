//! The onnx ops' type constraints, checked by the verifier from the op
//! table (ONNX's schemas): each operand's and result's element type against
//! its parameter's allowed types, one element type per type variable across
//! the op (`T` of Add's A, B and C), and the attributes the schema requires
//! (Cast's `to`). Values that are not tensors (absent optionals, sequences)
//! and variadic parameters' type sharing (Loop's carried values differ) are
//! left to the ops' own rules.

use crate::table::{AttrType, OnnxOp, Param, ParamKind};
use ir::types::{FloatKind, Signedness, Type, TypeData};
use ir::{Body, Context, OpId, Value};
use std::collections::HashMap;
use std::sync::OnceLock;

/// ONNX's element type names, in the order of their bits in a [`Param`]'s mask.
const NAMES: [&str; 26] = [
    "float", "double", "float16", "bfloat16", "float8e4m3fn", "float8e5m2", "float8e4m3fnuz", "float8e5m2fnuz", "float8e8m0", "float4e2m1", "bool", "int2", "int4", "int8", "int16",
    "int32", "int64", "uint2", "uint4", "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "string",
];

/// A parameter's rule, made once from the table: the element types its
/// tensors may have in any opset version (a bit per [`NAMES`] entry: a model
/// of an older opset keeps its types when its ops are normalized to the
/// newest form, so opset 6's Dropout mask stays a float), and its type
/// variable when that is the same in every version.
struct Rule {
    param: &'static Param,
    var: Option<&'static str>,
    mask: u32,
}

/// An op's rules: the attributes every version requires, its inputs' and outputs'.
type Rules = (Vec<&'static str>, Vec<Rule>, Vec<Rule>);

/// The rules of an op's parameters (inputs or outputs, as `params` picks
/// them from a row) over all its versions, newest first.
fn param_rules(versions: &[&'static OnnxOp], params: fn(&'static OnnxOp) -> &'static [Param]) -> Vec<Rule> {
    let newest = versions[0];
    let mask_of = |row: &'static OnnxOp, p: &'static Param| NAMES.iter().enumerate().filter(|(_, n)| admits(allowed(row, p).1, n)).fold(0u32, |m, (i, _)| m | 1 << i);
    params(newest)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = |row: &'static OnnxOp| params(row).get(i).or_else(|| params(row).last().filter(|q| q.kind == ParamKind::Variadic));
            let mask = versions.iter().filter_map(|r| at(r).map(|q| mask_of(r, q))).fold(0, |a, b| a | b);
            // A variable binds only where no version gave the parameter other types.
            let var = allowed(newest, p).0.filter(|_| mask == mask_of(newest, p));
            Rule { param: p, var, mask }
        })
        .collect()
}

/// Each op's rules, by its name without `onnx.`.
fn rules() -> &'static HashMap<&'static str, Rules> {
    static RULES: OnceLock<HashMap<&'static str, Rules>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut by_name: HashMap<&'static str, Vec<&'static OnnxOp>> = HashMap::new();
        for o in crate::op_table::OPS {
            by_name.entry(o.name).or_default().push(o);
        }
        by_name
            .into_iter()
            .map(|(name, mut versions)| {
                versions.sort_by_key(|o| std::cmp::Reverse(o.since));
                // Required in every version (Concat's axis was optional before opset 4).
                let required = versions[0]
                    .attrs
                    .iter()
                    .filter(|a| a.ty != AttrType::Graph && versions.iter().all(|v| v.attrs.iter().any(|b| b.name == a.name && b.required)))
                    .map(|a| a.name)
                    .collect();
                let rules = (required, param_rules(&versions, |o| o.inputs), param_rules(&versions, |o| o.outputs));
                (name, rules)
            })
            .collect()
    })
}

/// ONNX's name of an element type (`float`, `int64`, `bool`), as schemas write it.
fn onnx_name(t: &Type) -> Option<&'static str> {
    Some(match t.data() {
        TypeData::Float(k) => match k {
            FloatKind::F32 => "float",
            FloatKind::F64 => "double",
            FloatKind::F16 => "float16",
            FloatKind::BF16 => "bfloat16",
            FloatKind::F8E4M3FN => "float8e4m3fn",
            FloatKind::F8E5M2 => "float8e5m2",
            FloatKind::F8E4M3FNUZ => "float8e4m3fnuz",
            FloatKind::F8E5M2FNUZ => "float8e5m2fnuz",
            FloatKind::F8E8M0FNU => "float8e8m0",
            FloatKind::F4E2M1FN => "float4e2m1",
            _ => return None,
        },
        TypeData::Integer { width, signedness } => match (width, *signedness == Signedness::Unsigned) {
            (1, false) => "bool",
            (2, false) => "int2",
            (4, false) => "int4",
            (8, false) => "int8",
            (16, false) => "int16",
            (32, false) => "int32",
            (64, false) => "int64",
            (2, true) => "uint2",
            (4, true) => "uint4",
            (8, true) => "uint8",
            (16, true) => "uint16",
            (32, true) => "uint32",
            (64, true) => "uint64",
            _ => return None,
        },
        TypeData::Complex(e) => match e.data() {
            TypeData::Float(FloatKind::F32) => "complex64",
            TypeData::Float(FloatKind::F64) => "complex128",
            _ => return None,
        },
        TypeData::Opaque { dialect, body } if dialect == "onnx" && body == ".String" => "string",
        _ => return None,
    })
}

/// The element type's bit (in [`NAMES`]) of a tensor value; `None` for anything else.
fn tensor_elem(body: &Body, v: Value) -> Option<usize> {
    match body.value_type(v).data() {
        TypeData::RankedTensor { elem, .. } | TypeData::UnrankedTensor { elem } => onnx_name(elem).and_then(|n| NAMES.iter().position(|x| *x == n)),
        _ => None,
    }
}

/// Whether `allowed` (`tensor(float)`, `optional(tensor(float))`, …) admits a tensor of `name`.
fn admits(allowed: &[&str], name: &str) -> bool {
    allowed.iter().any(|a| a.match_indices("tensor(").any(|(i, _)| a[i + 7..].strip_prefix(name).is_some_and(|r| r.starts_with(')'))))
}

/// The types a parameter allows: its type variable's, or its own literal type.
fn allowed(row: &'static OnnxOp, p: &'static Param) -> (Option<&'static str>, &'static [&'static str]) {
    match row.types.iter().find(|c| c.param == p.ty) {
        Some(c) => (Some(c.param), c.allowed),
        None => (None, std::slice::from_ref(&p.ty)),
    }
}

/// A type variable's element type, with the value that bound it.
struct Bound {
    var: &'static str,
    elem: usize,
    index: usize,
    what: &'static str,
}

/// Checks `values` (operands or results) against their parameters' rules.
fn check(rules: &[Rule], values: &[Value], what: &'static str, body: &Body, bound: &mut Vec<Bound>) -> Result<(), String> {
    for (i, &v) in values.iter().enumerate() {
        // Parameters in order; a variadic one takes the rest.
        let Some(r) = rules.get(i).or_else(|| rules.last().filter(|r| r.param.kind == ParamKind::Variadic)) else { continue };
        // Parameters of no tensor type (sequences, optionals of them) are the ops' own business.
        if r.mask == 0 {
            continue;
        }
        let Some(e) = tensor_elem(body, v) else { continue };
        if r.mask & 1 << e == 0 {
            let list: Vec<&str> = NAMES.iter().enumerate().filter(|(k, _)| r.mask & 1 << k != 0).map(|(_, n)| *n).collect();
            return Err(match r.var {
                Some(v) => format!("{} #{} ('{}') has element type {}, not one of {}'s ({})", what, i, r.param.name, NAMES[e], v, list.join(", ")),
                None if list.len() == 1 => format!("{} #{} ('{}') has element type {}, not {}", what, i, r.param.name, NAMES[e], list[0]),
                None => format!("{} #{} ('{}') has element type {}, not one of ({})", what, i, r.param.name, NAMES[e], list.join(", ")),
            });
        }
        let Some(var) = r.var.filter(|_| r.param.kind != ParamKind::Variadic) else { continue };
        match bound.iter().find(|b| b.var == var) {
            Some(b) if b.elem != e => {
                return Err(format!("{} #{} ('{}') is {} but {} #{} is {}: both are {}", what, i, r.param.name, NAMES[e], b.what, b.index, NAMES[b.elem], var));
            }
            Some(_) => {}
            None => bound.push(Bound { var, elem: e, index: i, what }),
        }
    }
    Ok(())
}

/// The verifier of every op of the table.
pub fn verify(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let name = body.name(op);
    let Some((required, ins, outs)) = name.as_str().strip_prefix("onnx.").and_then(|n| rules().get(n)) else { return Ok(()) };
    let o = body.op(op);
    for a in required {
        if o.properties.get(a).is_none() && o.attr(a).is_none() {
            return Err(format!("needs the attribute '{}'", a));
        }
    }
    let mut bound = vec![];
    check(ins, o.operands(), "operand", body, &mut bound)?;
    check(outs, o.results(), "result", body, &mut bound)
}
