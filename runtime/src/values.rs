//! Sequence and optional values at the runtime's boundary. The compilers take
//! and give tensors only (`onnx-resolve-sequences` resolves sequences at
//! compile time), so a sequence or optional input or output travels as
//! tensors named by one convention: element `i` of sequence `s` is `s[i]`, an
//! empty sequence is one tensor of no elements named `s[]`, an optional with
//! a value is that value under the optional's own name (an optional sequence:
//! its elements), and an empty optional is no tensor at all.

use crate::tensor::HostTensor;
use onnx_translate::proto::{value_kind, GraphProto, ModelProto, NodeProto, OptionalProto, SequenceProto, TypeProto, TypeValue, ValueInfoProto};
use std::collections::HashMap;

/// A model input or output value.
#[derive(Clone, Debug)]
pub enum HostValue {
    Tensor(HostTensor),
    Seq(Vec<HostTensor>),
    Opt(Option<Box<HostValue>>),
}

/// The name element `i` of sequence `name` travels under.
pub fn element_name(name: &str, i: usize) -> String {
    format!("{}[{}]", name, i)
}

/// The name of the empty tensor that stands for an empty sequence `name`.
pub fn empty_name(name: &str) -> String {
    format!("{}[]", name)
}

/// What a declared type is, as far as values go.
enum Kind<'a> {
    Tensor,
    Seq,
    Opt(&'a TypeProto),
}

fn inner(e: &onnx_translate::proto::ElemTypeProto) -> Result<&TypeProto, String> {
    e.elem_type.as_deref().ok_or_else(|| "a sequence or optional type without an element type".to_string())
}

fn kind(tp: &TypeProto) -> Result<Kind<'_>, String> {
    fn is_tensor(t: &TypeProto) -> bool {
        matches!(t.value, Some(TypeValue::TensorType(_)) | None)
    }
    match &tp.value {
        Some(TypeValue::TensorType(_)) | None => Ok(Kind::Tensor),
        Some(TypeValue::SequenceType(e)) if is_tensor(inner(e)?) => Ok(Kind::Seq),
        Some(TypeValue::OptionalType(e)) => {
            let t = inner(e)?;
            match &t.value {
                Some(TypeValue::SequenceType(s)) if is_tensor(inner(s)?) => Ok(Kind::Opt(t)),
                Some(TypeValue::TensorType(_)) | None => Ok(Kind::Opt(t)),
                _ => Err("optional values of this type are not supported".into()),
            }
        }
        _ => Err("sequences of sequences, maps and sparse tensors are not supported".into()),
    }
}

impl HostValue {
    /// Reads a serialized value (a test data file) of the declared type.
    pub fn from_pb(bytes: &[u8], tp: &TypeProto) -> Result<HostValue, String> {
        let b = || bytes::Bytes::copy_from_slice(bytes);
        match kind(tp)? {
            Kind::Tensor => Ok(HostValue::Tensor(HostTensor::from_pb(bytes)?)),
            Kind::Seq => HostValue::from_sequence(&onnx_translate::proto::decode_sequence(b())?),
            Kind::Opt(_) => HostValue::from_optional(&onnx_translate::proto::decode_optional(b())?),
        }
    }

    fn from_sequence(s: &SequenceProto) -> Result<HostValue, String> {
        if !s.sequence_values.is_empty() || !s.optional_values.is_empty() {
            return Err("sequences of sequences or of optionals are not supported".into());
        }
        Ok(HostValue::Seq(s.tensor_values.iter().map(HostTensor::from_proto).collect::<Result<_, _>>()?))
    }

    fn from_optional(o: &OptionalProto) -> Result<HostValue, String> {
        let v = match o.elem_type.unwrap_or(value_kind::UNDEFINED) {
            value_kind::TENSOR => o.tensor_value.as_ref().map(|t| HostTensor::from_proto(t).map(HostValue::Tensor)).transpose()?,
            value_kind::SEQUENCE => o.sequence_value.as_deref().map(HostValue::from_sequence).transpose()?,
            value_kind::UNDEFINED => None,
            k => return Err(format!("optional values of kind {} are not supported", k)),
        };
        Ok(HostValue::Opt(v.map(Box::new)))
    }

    /// Adds the tensors this value travels as under `name` to `out`.
    pub fn flatten_into(&self, name: &str, out: &mut HashMap<String, HostTensor>) {
        match self {
            HostValue::Tensor(t) => {
                out.insert(name.to_string(), t.clone());
            }
            HostValue::Seq(xs) if xs.is_empty() => {
                out.insert(empty_name(name), HostTensor::zeros(onnx_translate::proto::data_type::FLOAT, &[0]).expect("an empty tensor"));
            }
            HostValue::Seq(xs) => {
                for (i, x) in xs.iter().enumerate() {
                    out.insert(element_name(name, i), x.clone());
                }
            }
            HostValue::Opt(Some(v)) => v.flatten_into(name, out),
            HostValue::Opt(None) => {}
        }
    }

    /// The value of declared type `tp` named `name` among named tensors (the
    /// inverse of [`HostValue::flatten_into`]).
    pub fn gather(name: &str, tp: &TypeProto, named: &HashMap<String, HostTensor>) -> Result<HostValue, String> {
        let seq = || -> Option<HostValue> {
            if named.contains_key(&empty_name(name)) {
                return Some(HostValue::Seq(vec![]));
            }
            let xs: Vec<HostTensor> = (0..).map_while(|i| named.get(&element_name(name, i)).cloned()).collect();
            (!xs.is_empty()).then_some(HostValue::Seq(xs))
        };
        match kind(tp)? {
            Kind::Tensor => named.get(name).cloned().map(HostValue::Tensor).ok_or_else(|| format!("no value for '{}'", name)),
            Kind::Seq => seq().ok_or_else(|| format!("no elements for sequence '{}'", name)),
            Kind::Opt(inner) => Ok(HostValue::Opt(match kind(inner)? {
                Kind::Seq => seq().map(Box::new),
                _ => named.get(name).cloned().map(|t| Box::new(HostValue::Tensor(t))),
            })),
        }
    }

    /// Compares with an expected value: the same structure, tensors by `compare`.
    pub fn compare(&self, want: &HostValue, compare: &dyn Fn(&HostTensor, &HostTensor) -> Result<(), String>) -> Result<(), String> {
        match (self, want) {
            (HostValue::Tensor(a), HostValue::Tensor(b)) => compare(a, b),
            (HostValue::Seq(a), HostValue::Seq(b)) => {
                if a.len() != b.len() {
                    return Err(format!("a sequence of {} tensors, {} expected", a.len(), b.len()));
                }
                a.iter().zip(b).enumerate().try_for_each(|(i, (x, y))| compare(x, y).map_err(|e| format!("element {}: {}", i, e)))
            }
            (HostValue::Opt(a), HostValue::Opt(b)) => match (a, b) {
                (Some(a), Some(b)) => a.compare(b, compare),
                (None, None) => Ok(()),
                (Some(_), None) => Err("a value where an empty optional is expected".into()),
                (None, Some(_)) => Err("an empty optional where a value is expected".into()),
            },
            // A tensor output typed optional by the model but compared as a tensor.
            (a, HostValue::Opt(Some(b))) => a.compare(b, compare),
            _ => Err("a value of another kind than expected (tensor, sequence or optional)".into()),
        }
    }
}

/// The exact tensor type of a value (for a graph input made from it).
pub(crate) fn tensor_type(t: &HostTensor) -> TypeProto {
    let dims = t.shape.iter().map(|d| onnx_translate::proto::Dimension { value: Some(onnx_translate::proto::DimValue::DimValue(*d)), ..Default::default() }).collect();
    TypeProto {
        value: Some(TypeValue::TensorType(onnx_translate::proto::TensorTypeProto { elem_type: Some(t.dtype), shape: Some(onnx_translate::proto::TensorShapeProto { dim: dims }) })),
        ..Default::default()
    }
}

fn node(op: &str, inputs: Vec<String>, output: &str) -> NodeProto {
    NodeProto { op_type: Some(op.into()), input: inputs, output: vec![output.to_string()], name: Some(format!("{}#input", output)), ..Default::default() }
}

/// The element type of a sequence type.
fn seq_elem_dtype(tp: &TypeProto) -> Option<i32> {
    match &tp.value {
        Some(TypeValue::SequenceType(e)) => match e.elem_type.as_deref().and_then(|t| t.value.as_ref()) {
            Some(TypeValue::TensorType(t)) => t.elem_type.filter(|d| *d != 0),
            _ => None,
        },
        _ => None,
    }
}

/// Rewrites `model` so that its sequence and optional inputs are the tensors
/// `given` holds for them (named by the convention above): a sequence input
/// becomes its elements and a SequenceConstruct (or a SequenceEmpty), an
/// optional input with a value becomes that value, an empty one an Optional
/// with no input. Whether any input was rewritten.
pub fn flatten_inputs(model: &mut ModelProto, given: &HashMap<String, HostTensor>) -> Result<bool, String> {
    let Some(g) = model.graph.as_mut() else { return Ok(false) };
    let inits: Vec<String> = g.initializer.iter().filter_map(|t| t.name.clone()).collect();
    let taken: std::collections::HashSet<String> = g.input.iter().filter_map(|v| v.name.clone()).chain(inits.iter().cloned()).collect();
    let mut inputs = Vec::new();
    let mut nodes = Vec::new();
    let mut changed = false;
    for vi in std::mem::take(&mut g.input) {
        let name = vi.name.clone().unwrap_or_default();
        let Some(tp) = vi.r#type.as_ref().filter(|_| !inits.contains(&name)) else {
            inputs.push(vi);
            continue;
        };
        let k = kind(tp).map_err(|e| format!("input '{}': {}", name, e))?;
        let seq = |tp: &TypeProto, inputs: &mut Vec<ValueInfoProto>, nodes: &mut Vec<NodeProto>, out: &str| -> Result<bool, String> {
            if given.contains_key(&empty_name(&name)) {
                let mut n = node("SequenceEmpty", vec![], out);
                n.attribute.push(onnx_translate::proto::AttributeProto { name: Some("dtype".into()), i: Some(seq_elem_dtype(tp).unwrap_or(onnx_translate::proto::data_type::FLOAT) as i64), r#type: Some(onnx_translate::proto::attribute_type::INT), ..Default::default() });
                nodes.push(n);
                return Ok(true);
            }
            let names: Vec<String> = (0..).map(|i| element_name(&name, i)).take_while(|n| given.contains_key(n)).collect();
            if names.is_empty() {
                return Ok(false);
            }
            let declared = seq_elem_dtype(tp);
            for n in &names {
                if taken.contains(n) {
                    return Err(format!("sequence input '{}' travels as '{}', which is also the name of another input; rename one", name, n));
                }
                if let Some(d) = declared.filter(|d| *d != given[n].dtype) {
                    return Err(format!("'{}' is {}, but the model declares sequence '{}' of {}", n, onnx::types::data_type_name(given[n].dtype), name, onnx::types::data_type_name(d)));
                }
            }
            for n in &names {
                inputs.push(ValueInfoProto { name: Some(n.clone()), r#type: Some(tensor_type(&given[n])), ..Default::default() });
            }
            nodes.push(node("SequenceConstruct", names, out));
            Ok(true)
        };
        match k {
            Kind::Tensor => inputs.push(vi),
            Kind::Seq => {
                if !seq(tp, &mut inputs, &mut nodes, &name)? {
                    return Err(format!("sequence input '{}' needs its elements as '{}', '{}', … (or '{}' for an empty sequence)", name, element_name(&name, 0), element_name(&name, 1), empty_name(&name)));
                }
                changed = true;
            }
            Kind::Opt(inner) => {
                changed = true;
                let present = match kind(inner)? {
                    Kind::Seq => seq(inner, &mut inputs, &mut nodes, &name)?,
                    _ => match given.get(&name) {
                        Some(t) => {
                            inputs.push(ValueInfoProto { name: Some(name.clone()), r#type: Some(tensor_type(t)), ..Default::default() });
                            true
                        }
                        None => false,
                    },
                };
                if !present {
                    let mut n = node("Optional", vec![], &name);
                    n.attribute.push(onnx_translate::proto::AttributeProto { name: Some("type".into()), tp: Some(Box::new(inner.clone())), r#type: Some(onnx_translate::proto::attribute_type::TYPE_PROTO), ..Default::default() });
                    nodes.push(n);
                }
            }
        }
    }
    g.input = inputs;
    nodes.append(&mut g.node);
    g.node = nodes;
    Ok(changed)
}

/// The declared outputs of a model's graph: names and types.
pub fn declared_outputs(g: &GraphProto) -> Vec<(String, TypeProto)> {
    g.output.iter().map(|o| (o.name.clone().unwrap_or_default(), o.r#type.clone().unwrap_or_default())).collect()
}

/// The names of the graph inputs that are not initializers, in order.
pub fn input_names(model: &[u8]) -> Result<Vec<String>, String> {
    graph_input_names(&onnx_translate::proto::decode_model(bytes::Bytes::copy_from_slice(model))?)
}

pub fn graph_input_names(m: &onnx_translate::proto::ModelProto) -> Result<Vec<String>, String> {
    let g = m.graph.as_ref().ok_or("model has no graph")?;
    let inits: Vec<&str> = g.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
    Ok(g.input.iter().filter_map(|v| v.name.clone()).filter(|n| !inits.contains(&n.as_str())).collect())
}
