//! ONNX's textual syntax (`.onnxtext`, as `onnx.parser` reads it) as an input:
//! text → `ModelProto` → the same importer as binary models, so lit tests need
//! no binary fixtures. A hand lexer and a lalrpop grammar give the structure;
//! this module gives it meaning (element types, attribute kinds, tensor data)
//! and reports every error at line:column. Model-local functions after the
//! graph become `FunctionProto`s (the importer inlines them).

pub mod ast;
mod lexer;

#[allow(clippy::all)]
mod grammar {
    include!(concat!(env!("OUT_DIR"), "/text/grammar.rs"));
}

use crate::proto::{
    attribute_type as at, data_type as dt, AttributeProto, DimValue, Dimension, ElemTypeProto, FunctionProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto,
    TensorProto, TensorShapeProto, TensorTypeProto, TypeProto, TypeValue, ValueInfoProto,
};
use ast::*;
use lalrpop_util::ParseError;
use lexer::{LexError, Lexer, Tok};

/// An error at a byte offset of the text.
#[derive(Debug)]
pub struct TextError {
    pub pos: usize,
    pub message: String,
}

fn at(pos: usize, message: impl Into<String>) -> TextError {
    TextError { pos, message: message.into() }
}

/// 1-based line and column of a byte offset.
pub fn line_col(src: &str, pos: usize) -> (u32, u32) {
    let before = &src[..pos.min(src.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) as u32 + 1;
    (line, col)
}

fn tok_name(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{}'", s),
        Tok::Int(i) => format!("integer {}", i),
        Tok::Float(f) => format!("number {}", f),
        Tok::Str(s) => format!("string \"{}\"", s),
        other => format!("'{}'", match other {
            Tok::LAngle => "<",
            Tok::RAngle => ">",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Equals => "=",
            Tok::Arrow => "=>",
            Tok::Question => "?",
            Tok::At => "@",
            _ => ".",
        }),
    }
}

/// Parses a model in the textual syntax.
pub fn parse_model(src: &str) -> Result<ModelProto, TextError> {
    let model = grammar::ModelParser::new().parse(Lexer::new(src)).map_err(|e| match e {
        ParseError::User { error: LexError { pos, message } } => at(pos, message),
        ParseError::UnrecognizedToken { token: (pos, t, _), expected } => {
            let exp: Vec<String> = expected.iter().map(|e| e.trim_matches('"').to_string()).collect();
            at(pos, format!("unexpected {}; expected one of: {}", tok_name(&t), exp.join(" ")))
        }
        ParseError::UnrecognizedEof { location, .. } => at(location, "unexpected end of input"),
        ParseError::InvalidToken { location } => at(location, "invalid token"),
        ParseError::ExtraToken { token: (pos, t, _) } => at(pos, format!("unexpected {}", tok_name(&t))),
    })?;
    build_model(&model)
}

fn build_model(m: &Model) -> Result<ModelProto, TextError> {
    let mut proto = ModelProto { ir_version: Some(8), ..Default::default() };
    for (key, value, pos) in &m.header {
        match (key.as_str(), value) {
            ("ir_version", Meta::Int(v)) => proto.ir_version = Some(*v),
            ("model_version", Meta::Int(v)) => proto.model_version = Some(*v),
            ("producer_name", Meta::Str(s)) => proto.producer_name = Some(s.clone()),
            ("producer_version", Meta::Str(s)) => proto.producer_version = Some(s.clone()),
            ("domain", Meta::Str(s)) => proto.domain = Some(s.clone()),
            ("doc_string", Meta::Str(s)) => proto.doc_string = Some(s.clone()),
            ("opset_import", Meta::Pairs(v)) => proto.opset_import = opset_imports(v),
            (k, _) => return Err(at(*pos, format!("unknown or mistyped model field '{}'", k))),
        }
    }
    proto.graph = Some(build_graph(&m.graph)?);
    proto.functions = m.functions.iter().map(build_function).collect::<Result<_, _>>()?;
    Ok(proto)
}

fn opset_imports(v: &[(String, i64)]) -> Vec<OperatorSetIdProto> {
    v.iter().map(|(d, n)| OperatorSetIdProto { domain: Some(d.clone()), version: Some(*n) }).collect()
}

fn build_function(f: &Function) -> Result<FunctionProto, TextError> {
    let mut proto = FunctionProto { name: Some(f.name.clone()), input: f.inputs.clone(), output: f.outputs.clone(), ..Default::default() };
    for (key, value, pos) in &f.meta {
        match (key.as_str(), value) {
            ("domain", Meta::Str(s)) => proto.domain = Some(s.clone()),
            ("overload", Meta::Str(s)) => proto.overload = Some(s.clone()),
            ("doc_string", Meta::Str(s)) => proto.doc_string = Some(s.clone()),
            ("opset_import", Meta::Pairs(v)) => proto.opset_import = opset_imports(v),
            (k, _) => return Err(at(*pos, format!("unknown or mistyped function field '{}'", k))),
        }
    }
    for a in &f.attrs {
        match &a.default {
            Some(d) => proto.attribute_proto.push(attribute(d)?),
            None => proto.attribute.push(a.name.clone()),
        }
    }
    proto.node = f.nodes.iter().map(build_node).collect::<Result<_, _>>()?;
    Ok(proto)
}

fn build_graph(g: &Graph) -> Result<GraphProto, TextError> {
    let mut proto = GraphProto { name: Some(g.name.clone()), ..Default::default() };
    for vi in &g.inputs {
        if vi.data.is_some() {
            proto.initializer.push(initializer(vi)?);
        }
        proto.input.push(value_info(vi)?);
    }
    for vi in &g.outputs {
        proto.output.push(value_info(vi)?);
    }
    for vi in &g.initializers {
        if vi.data.is_none() {
            return Err(at(vi.pos, format!("initializer '{}' has no value", vi.name)));
        }
        proto.initializer.push(initializer(vi)?);
    }
    for n in &g.nodes {
        proto.node.push(build_node(n)?);
    }
    Ok(proto)
}

fn build_node(n: &Node) -> Result<NodeProto, TextError> {
    let (domain, op) = match n.op.rsplit_once('.') {
        Some((d, o)) => (d.to_string(), o.to_string()),
        None => (String::new(), n.op.clone()),
    };
    let mut node = NodeProto { input: n.inputs.clone(), output: n.outputs.clone(), name: n.label.clone(), op_type: Some(op), domain: Some(domain), ..Default::default() };
    for a in &n.attrs {
        node.attribute.push(attribute(a)?);
    }
    Ok(node)
}

/// The ONNX data type of an element type name.
fn elem_code(name: &str, pos: usize) -> Result<i32, TextError> {
    Ok(match name {
        "float" => dt::FLOAT,
        "uint8" => dt::UINT8,
        "int8" => dt::INT8,
        "uint16" => dt::UINT16,
        "int16" => dt::INT16,
        "int32" => dt::INT32,
        "int64" => dt::INT64,
        "string" => dt::STRING,
        "bool" => dt::BOOL,
        "float16" => dt::FLOAT16,
        "double" => dt::DOUBLE,
        "uint32" => dt::UINT32,
        "uint64" => dt::UINT64,
        "bfloat16" => dt::BFLOAT16,
        other => return Err(at(pos, format!("unknown element type '{}'", other))),
    })
}

fn type_proto(t: &Ty) -> Result<TypeProto, TextError> {
    let value = match t {
        Ty::Tensor(e, dims, pos) => {
            let shape = dims.as_ref().map(|d| TensorShapeProto {
                dim: d
                    .iter()
                    .map(|d| Dimension {
                        value: match d {
                            Dim::Unknown => None,
                            Dim::Value(v) => Some(DimValue::DimValue(*v)),
                            Dim::Param(p) => Some(DimValue::DimParam(p.clone())),
                        },
                        denotation: None,
                    })
                    .collect(),
            });
            TypeValue::TensorType(TensorTypeProto { elem_type: Some(elem_code(e, *pos)?), shape })
        }
        Ty::Seq(inner) => TypeValue::SequenceType(Box::new(ElemTypeProto { elem_type: Some(Box::new(type_proto(inner)?)) })),
        Ty::Optional(inner) => TypeValue::OptionalType(Box::new(ElemTypeProto { elem_type: Some(Box::new(type_proto(inner)?)) })),
        Ty::Other(k, pos) => return Err(at(*pos, format!("'{}' types are not supported", k))),
    };
    Ok(TypeProto { value: Some(value), denotation: None })
}

fn value_info(vi: &ValueInfo) -> Result<ValueInfoProto, TextError> {
    Ok(ValueInfoProto { name: Some(vi.name.clone()), r#type: vi.ty.as_ref().map(type_proto).transpose()?, doc_string: None })
}

fn initializer(vi: &ValueInfo) -> Result<TensorProto, TextError> {
    let ty = vi.ty.as_ref().ok_or_else(|| at(vi.pos, "an initializer needs a type"))?;
    tensor(ty, Some(vi.name.clone()), vi.data.as_deref().unwrap_or(&[]), vi.pos)
}

/// A tensor of `ty` holding `data`, stored in the typed fields ONNX uses for it.
fn tensor(ty: &Ty, name: Option<String>, data: &[Prim], pos: usize) -> Result<TensorProto, TextError> {
    let Ty::Tensor(e, dims, tpos) = ty else { return Err(at(pos, "a tensor constant needs a tensor type")) };
    let code = elem_code(e, *tpos)?;
    let dims: Vec<i64> = match dims {
        // One value and no dims is a scalar, as ONNX's parser reads it; several make a vector.
        None if data.len() == 1 => vec![],
        None => vec![data.len() as i64],
        Some(d) => d.iter().map(|d| if let Dim::Value(v) = d { Ok(*v) } else { Err(at(pos, "a tensor constant needs static dims")) }).collect::<Result<_, _>>()?,
    };
    let n: i64 = dims.iter().product();
    if n != data.len() as i64 {
        return Err(at(pos, format!("tensor of {} elements given {} values", n, data.len())));
    }
    let mut t = TensorProto { dims, data_type: Some(code), name, ..Default::default() };
    let num = |p: &Prim| match p {
        Prim::Int(i) => Ok(*i as f64),
        Prim::Float(f) => Ok(*f),
        Prim::Str(_) => Err(at(pos, "a string where a number is expected")),
    };
    let int = |p: &Prim| match p {
        Prim::Int(i) => Ok(*i),
        _ => Err(at(pos, format!("{} tensors take integers", e))),
    };
    match code {
        dt::FLOAT => t.float_data = data.iter().map(|p| num(p).map(|x| x as f32)).collect::<Result<_, _>>()?,
        dt::DOUBLE => t.raw_data = Some(data.iter().map(num).collect::<Result<Vec<f64>, _>>()?.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into()),
        dt::INT64 => t.int64_data = data.iter().map(int).collect::<Result<_, _>>()?,
        dt::UINT64 => t.raw_data = Some(data.iter().map(int).collect::<Result<Vec<i64>, _>>()?.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into()),
        dt::UINT32 => t.raw_data = Some(data.iter().map(int).collect::<Result<Vec<i64>, _>>()?.iter().flat_map(|x| (*x as u32).to_le_bytes()).collect::<Vec<u8>>().into()),
        dt::STRING => {
            t.string_data = data.iter().map(|p| if let Prim::Str(s) = p { Ok(s.clone().into_bytes()) } else { Err(at(pos, "string tensors take strings")) }).collect::<Result<_, _>>()?
        }
        dt::FLOAT16 | dt::BFLOAT16 => {
            let kind = if code == dt::FLOAT16 { ir::types::FloatKind::F16 } else { ir::types::FloatKind::BF16 };
            t.int32_data = data.iter().map(|p| num(p).map(|x| ir::float::f64_to_bits(x, kind).unwrap_or(0) as i32)).collect::<Result<_, _>>()?
        }
        // int8/16/32, uint8/16, bool: int32_data.
        _ => t.int32_data = data.iter().map(|p| int(p).map(|x| x as i32)).collect::<Result<_, _>>()?,
    }
    Ok(t)
}

/// `AttributeProto.AttributeType` of a type name as the syntax writes it.
fn attr_type_code(name: &str) -> Option<i32> {
    Some(match name {
        "float" => at::FLOAT,
        "int" => at::INT,
        "string" => at::STRING,
        "tensor" => at::TENSOR,
        "graph" => at::GRAPH,
        "floats" => at::FLOATS,
        "ints" => at::INTS,
        "strings" => at::STRINGS,
        _ => return None,
    })
}

fn attribute(a: &Attr) -> Result<AttributeProto, TextError> {
    let mut p = AttributeProto { name: Some(a.name.clone()), ..Default::default() };
    let declared = a.ty.as_deref();
    match &a.value {
        // A reference to an attribute of the enclosing function (`alpha: float = @alpha`).
        AttrValue::Ref(r) => {
            p.ref_attr_name = Some(r.clone());
            p.r#type = match declared {
                None => None,
                Some(t) => Some(attr_type_code(t).ok_or_else(|| at(a.pos, format!("unknown attribute type '{}'", t)))?),
            };
        }
        AttrValue::Prim(Prim::Int(i)) if declared != Some("float") => {
            p.r#type = Some(at::INT);
            p.i = Some(*i);
        }
        AttrValue::Prim(Prim::Int(i)) => {
            p.r#type = Some(at::FLOAT);
            p.f = Some(*i as f32);
        }
        AttrValue::Prim(Prim::Float(f)) => {
            p.r#type = Some(at::FLOAT);
            p.f = Some(*f as f32);
        }
        AttrValue::Prim(Prim::Str(s)) => {
            p.r#type = Some(at::STRING);
            p.s = Some(s.clone().into_bytes());
        }
        AttrValue::Tensor(ty, name, data) => {
            p.r#type = Some(at::TENSOR);
            p.t = Some(tensor(ty, name.clone(), data, a.pos)?);
        }
        AttrValue::Graph(g) => {
            p.r#type = Some(at::GRAPH);
            p.g = Some(Box::new(build_graph(g)?));
        }
        AttrValue::List(items) => {
            let all = |f: fn(&AttrValue) -> bool| items.iter().all(f);
            let kind = match declared {
                Some("ints") => at::INTS,
                Some("floats") => at::FLOATS,
                Some("strings") => at::STRINGS,
                Some(other) => return Err(at(a.pos, format!("unknown list attribute type '{}'", other))),
                None if items.is_empty() => return Err(at(a.pos, "an empty list needs its type (`name: ints = []`)")),
                None if all(|v| matches!(v, AttrValue::Prim(Prim::Int(_)))) => at::INTS,
                None if all(|v| matches!(v, AttrValue::Prim(Prim::Int(_) | Prim::Float(_)))) => at::FLOATS,
                None if all(|v| matches!(v, AttrValue::Prim(Prim::Str(_)))) => at::STRINGS,
                None => return Err(at(a.pos, "a list attribute must hold only numbers or only strings")),
            };
            p.r#type = Some(kind);
            for v in items {
                match (kind, v) {
                    (at::INTS, AttrValue::Prim(Prim::Int(i))) => p.ints.push(*i),
                    (at::FLOATS, AttrValue::Prim(Prim::Int(i))) => p.floats.push(*i as f32),
                    (at::FLOATS, AttrValue::Prim(Prim::Float(f))) => p.floats.push(*f as f32),
                    (at::STRINGS, AttrValue::Prim(Prim::Str(s))) => p.strings.push(s.clone().into_bytes()),
                    _ => return Err(at(a.pos, format!("a value of the wrong kind in a list of {}", declared.unwrap_or("values")))),
                }
            }
        }
    }
    Ok(p)
}
