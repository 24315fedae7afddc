//! The exporter (`npu-translate --export-onnx`): a module holding one
//! `func.func` of `onnx` ops back to a `ModelProto`, so a model can be imported,
//! transformed by our onnx-level passes and run again in ONNX Runtime.
//!
//! The dialect keeps one (the newest) form per operator; the exporter writes
//! each op in the form its schema has at the function's opset (`onnx.opset`):
//! a constant operand whose input was an attribute at that opset (`axes`,
//! `split`, `pads`, Slice's bounds, Clip's `min`/`max`, ...) goes back to being
//! that attribute. The mapping comes from the operator table, not per-op code.

use ir::function_like::{io_attr, Io};
use crate::proto::{
    attribute_type as at, AttributeProto, DimValue, Dimension, ElemTypeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto,
    TensorProto, TensorShapeProto, TensorTypeProto, TypeProto, TypeValue, ValueInfoProto,
};
use onnx::table::{self, AttrType, OnnxOp, ParamKind};
use onnx::ops;
use onnx::types::data_type;
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::diagnostics::Diagnostic;
use ir::location::LocData;
use ir::types::{Type, TypeData, DYNAMIC};
use ir::{Block, Body, Context, Location, OpId, Value};
use std::collections::{HashMap, HashSet};

/// Inputs whose attribute of old had another name.
const ATTR_ALIASES: &[(&str, &str, &str)] = &[("Pad", "constant_value", "value"), ("TopK", "K", "k")];

/// The IR version that goes with an opset (the oldest that admits it).
fn ir_version(opset: i64) -> i64 {
    match opset {
        ..=8 => 3,
        9 => 4,
        10 => 5,
        11 => 6,
        12..=14 => 7,
        15..=18 => 8,
        19..=20 => 9,
        21..=22 => 10,
        _ => 11,
    }
}

struct Exporter<'a> {
    ctx: &'a Context,
    body: &'a Body,
    opset: u32,
    /// Other domains' versions (`onnx.opset.<domain>` of the function), and the ones nodes used.
    opsets: HashMap<String, u32>,
    used_domains: std::collections::BTreeSet<&'static str>,
    names: HashMap<Value, String>,
    used: HashSet<String>,
    errors: Vec<Diagnostic>,
}

pub fn export_module(ctx: &Context, body: &Body, module: OpId) -> Result<ModelProto, Vec<Diagnostic>> {
    let err = |loc: Location, m: String| vec![Diagnostic::error(loc, m)];
    let top = body.op(module).loc.clone();
    let block = body.entry_block(module).ok_or_else(|| err(top.clone(), "the module has no body".into()))?;
    let funcs: Vec<OpId> = body.block_ops(block).filter(|o| body.name(*o).as_str() == func::ops::FUNC).collect();
    let [f] = funcs[..] else { return Err(err(top, format!("export needs exactly one func.func in the module, found {}", funcs.len()))) };
    let declared = body.op(f).attributes.get("onnx.opset").and_then(|a| a.as_int());
    let opset = declared.unwrap_or(21) as i64;
    let opsets: HashMap<String, u32> = body
        .op(f)
        .attributes
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().strip_prefix("onnx.opset.")?.to_string(), v.as_int()? as u32)))
        .collect();
    let mut ex = Exporter { ctx, body, opset: opset as u32, opsets, used_domains: Default::default(), names: HashMap::new(), used: HashSet::new(), errors: vec![] };
    let graph = ex.main_graph(f);
    if !ex.errors.is_empty() {
        return Err(ex.errors);
    }
    let mut opset_import = vec![];
    if declared.is_some() || ex.used_domains.contains("") {
        opset_import.push(OperatorSetIdProto { domain: Some(String::new()), version: Some(opset) });
    }
    for d in ex.used_domains.iter().filter(|d| !d.is_empty()) {
        opset_import.push(OperatorSetIdProto { domain: Some(d.to_string()), version: Some(ex.domain_opset(d) as i64) });
    }
    Ok(ModelProto {
        ir_version: Some(ir_version(opset)),
        opset_import,
        producer_name: Some("npu-translate".into()),
        producer_version: Some(env!("CARGO_PKG_VERSION").into()),
        graph: Some(graph),
        ..Default::default()
    })
}

/// `onnx.name` of each of a function's `n` arguments or results (`fallback<i>` when unnamed).
fn names_of(body: &Body, f: OpId, io: Io, n: usize, fallback: &str) -> Vec<String> {
    (0..n).map(|i| io_attr(body, f, io, i, "onnx.name").and_then(|a| a.as_str()).map(str::to_string).unwrap_or_else(|| format!("{}{}", fallback, i))).collect()
}

/// `onnx.dims` (a name per dim, "" for none) of each of a function's `n` arguments or results.
fn dims_of(body: &Body, f: OpId, io: Io, n: usize) -> Vec<Vec<String>> {
    (0..n)
        .map(|i| {
            let dims = io_attr(body, f, io, i, "onnx.dims").and_then(|a| a.as_array());
            dims.map(|a| a.iter().map(|d| d.as_str().unwrap_or("").to_string()).collect()).unwrap_or_default()
        })
        .collect()
}

/// Unknown dims of `vi` that have a name become `dim_param`s.
fn name_dims(vi: &mut ValueInfoProto, names: &[String]) {
    let Some(TypeValue::TensorType(tt)) = vi.r#type.as_mut().and_then(|t| t.value.as_mut()) else { return };
    for (d, n) in tt.shape.iter_mut().flat_map(|s| s.dim.iter_mut()).zip(names) {
        if d.value.is_none() && !n.is_empty() {
            d.value = Some(DimValue::DimParam(n.clone()));
        }
    }
}

impl Exporter<'_> {
    fn error(&mut self, loc: &Location, m: String) {
        self.errors.push(Diagnostic::error(loc.clone(), m));
    }

    /// A name not used before, as close to `want` as possible (ONNX reserves "" for "absent").
    fn fresh(&mut self, want: &str) -> String {
        crate::convert::unique_name(if want.is_empty() { "v" } else { want }, &mut self.used)
    }

    fn name(&mut self, v: Value) -> String {
        if let Some(n) = self.names.get(&v) {
            return n.clone();
        }
        let n = self.fresh(&format!("v{}", self.names.len()));
        self.names.insert(v, n.clone());
        n
    }

    fn main_graph(&mut self, f: OpId) -> GraphProto {
        let body = self.body;
        let sym = body.op(f).properties.get("sym_name").and_then(|a| a.as_str()).unwrap_or("main_graph").to_string();
        let Some(entry) = body.entry_block(f) else {
            self.error(&body.op(f).loc, "cannot export a function without a body".into());
            return GraphProto::default();
        };
        let args = body.block_args(entry).to_vec();
        let arg_names = names_of(body, f, Io::Arg, args.len(), "input_");
        let ret = body.last_op(entry);
        let returned: Vec<Value> = ret.map(|r| body.op(r).operands().to_vec()).unwrap_or_default();
        let res_names = names_of(body, f, Io::Result, returned.len(), "output_");
        let mut input = vec![];
        for ((a, n), dims) in args.iter().zip(&arg_names).zip(dims_of(body, f, Io::Arg, args.len())) {
            let n = self.fresh(n);
            self.names.insert(*a, n.clone());
            let mut vi = self.value_info(&n, body.value_type(*a));
            name_dims(&mut vi, &dims);
            input.push(vi);
        }
        // Reserve the output names, so intermediate values do not take them.
        for n in &res_names {
            self.used.insert(n.clone());
        }
        let mut g = self.graph(entry, &sym, &returned, &res_names);
        for (vi, dims) in g.output.iter_mut().zip(dims_of(body, f, Io::Result, returned.len())) {
            name_dims(vi, &dims);
        }
        g.input = input;
        g
    }

    /// The graph of `block`, returning `returned` under the (reserved) names
    /// `out_names`. A value the block defines and returns once is given its
    /// output name before any node is written, so every use (nested subgraphs
    /// too) says it; block arguments, outer values and repeats go through an Identity.
    fn graph(&mut self, block: Block, name: &str, returned: &[Value], out_names: &[String]) -> GraphProto {
        let body = self.body;
        let mut through_identity = vec![];
        for (v, want) in returned.iter().zip(out_names) {
            let here = body.defining_op(*v).is_some_and(|d| body.op(d).parent_block() == Some(block));
            if here && !self.names.contains_key(v) {
                self.names.insert(*v, want.clone());
            } else {
                through_identity.push((*v, want.clone()));
            }
        }
        let mut g = self.graph_body(block, name);
        for (v, want) in through_identity {
            let input = self.name(v);
            g.node.push(NodeProto { input: vec![input], output: vec![want], op_type: Some("Identity".into()), ..Default::default() });
        }
        g.output = returned.iter().zip(out_names).map(|(v, n)| self.value_info(n, body.value_type(*v))).collect();
        // The types of the values computed in between, where known (what
        // ONNX's shape inference writes): a reader need not infer them again.
        for op in body.block_ops(block) {
            if !body.name(op).as_str().starts_with("onnx.") || matches!(body.name(op).as_str(), ops::Constant::NAME | ops::NO_VALUE) {
                continue;
            }
            for r in body.op(op).results() {
                let Some(n) = self.names.get(r).filter(|n| !n.is_empty() && !out_names.contains(n)) else { continue };
                let vi = self.value_info(n, body.value_type(*r));
                if vi.r#type.is_some() {
                    g.value_info.push(vi);
                }
            }
        }
        g
    }

    fn graph_body(&mut self, block: Block, name: &str) -> GraphProto {
        let mut g = GraphProto { name: Some(name.to_string()), ..Default::default() };
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        for op in ops {
            let n = self.body.name(op).as_str().to_string();
            match n.as_str() {
                func::ops::RETURN | ops::YIELD => {}
                ops::NO_VALUE => {
                    let r = self.body.op(op).result(0);
                    self.names.insert(r, String::new());
                }
                _ if n.starts_with("onnx.") => {
                    if let Some(node) = self.node(op, &n["onnx.".len()..]) {
                        g.node.push(node);
                    }
                }
                _ => {
                    let loc = self.body.op(op).loc.clone();
                    self.error(&loc, format!("cannot export '{}': only onnx dialect ops have an ONNX form", n));
                }
            }
        }
        g
    }

    /// The version a domain is written at: the one imported, else its newest.
    fn domain_opset(&self, domain: &str) -> u32 {
        if domain.is_empty() {
            return self.opset;
        }
        self.opsets.get(domain).copied().unwrap_or_else(|| table::newest_opset(domain))
    }

    fn node(&mut self, op: OpId, op_type: &str) -> Option<NodeProto> {
        // Operators of other domains: their key carries a prefix (`ms.QLinearAdd`).
        if let Some(newest) = table::schema(op_type, u32::MAX).filter(|s| !s.domain.is_empty()) {
            let version = self.domain_opset(newest.domain);
            let Some(target) = table::schema(op_type, version) else {
                let loc = self.body.op(op).loc.clone();
                self.error(&loc, format!("onnx.{} has no form at version {} of domain '{}'", op_type, version, newest.domain));
                return None;
            };
            self.used_domains.insert(newest.domain);
            let mut node = self.node_of(op, op_type, target, newest)?;
            node.op_type = Some(newest.op_type().into());
            node.domain = Some(newest.domain.into());
            return Some(node);
        }
        self.used_domains.insert("");
        let body = self.body;
        let d = body.op(op);
        let loc = d.loc.clone();
        let node_name = node_name(&loc);
        let mut node = NodeProto { op_type: Some(op_type.into()), name: node_name, ..Default::default() };
        if op_type == "Constant" {
            let v = d.properties.get("value")?;
            let t = match self.tensor(v) {
                Ok(t) => t,
                Err(e) => {
                    self.error(&loc, format!("onnx.Constant: {}", e));
                    return None;
                }
            };
            node.attribute.push(AttributeProto { name: Some("value".into()), r#type: Some(at::TENSOR), t: Some(t), ..Default::default() });
            node.output.push(self.name(d.result(0)));
            return Some(node);
        }
        // Resize did not exist before opset 10: it was Upsample.
        let (op_type, target) = match (table::schema(op_type, self.opset), op_type) {
            (None, "Resize") => ("Upsample", table::schema("Upsample", self.opset)),
            (s, t) => (t, s),
        };
        let Some(target) = target else {
            self.error(&loc, format!("onnx.{} has no form at opset {}", op_type, self.opset));
            return None;
        };
        let newest = table::schema(d.name.as_str().trim_start_matches("onnx."), u32::MAX).unwrap_or(target);
        let mut node = self.node_of(op, op_type, target, newest)?;
        node.op_type = Some(op_type.into());
        Some(node)
    }

    /// The node of `op` in the form of schema row `target` (`newest` names its operands).
    fn node_of(&mut self, op: OpId, op_type: &str, target: &'static OnnxOp, newest: &'static OnnxOp) -> Option<NodeProto> {
        let body = self.body;
        let d = body.op(op);
        let loc = d.loc.clone();
        let node_name = node_name(&loc);
        let mut node = NodeProto { name: node_name, ..Default::default() };
        let mut attrs: Vec<AttributeProto> = vec![];
        let mut inputs: Vec<String> = vec![];
        for (i, v) in d.operands().iter().enumerate() {
            let param = newest.inputs.get(i).or_else(|| newest.inputs.last().filter(|p| p.kind == ParamKind::Variadic));
            let pname = param.map(|p| p.name).unwrap_or("");
            // By name, or by position where the older form names that input
            // differently (BatchNormalization's `mean` became `input_mean` at 14).
            let renamed = target.inputs.get(i).is_some_and(|t| t.name != pname && !newest.inputs.iter().any(|n| n.name == t.name));
            let in_target = renamed
                || target.inputs.iter().any(|p| p.name == pname)
                || target.inputs.last().is_some_and(|p| p.kind == ParamKind::Variadic && i >= target.inputs.len());
            let absent = body.defining_op(*v).is_some_and(|o| body.name(o).as_str() == ops::NO_VALUE);
            if in_target {
                inputs.push(if absent { String::new() } else { self.name(*v) });
                continue;
            }
            if absent {
                continue;
            }
            let aname = ATTR_ALIASES.iter().find(|(o, i, _)| *o == op_type && *i == pname).map(|(_, _, a)| *a).unwrap_or(pname);
            match target.attr(aname).map(|s| s.ty).and_then(|ty| self.operand_attr(*v, aname, ty)) {
                Some(a) => attrs.push(a),
                None => {
                    self.error(&loc, format!("onnx.{}: operand '{}' has no form at opset {} (it must be a constant to become attribute '{}')", op_type, pname, self.opset, aname));
                    return None;
                }
            }
        }
        while inputs.last().is_some_and(|s| s.is_empty()) {
            inputs.pop();
        }
        node.input = inputs;
        for (k, v) in d.properties.iter() {
            let k = k.as_str();
            let Some(spec) = target.attr(k) else {
                self.error(&loc, format!("onnx.{}: attribute '{}' does not exist at opset {}", op_type, k, self.opset));
                return None;
            };
            match self.attribute(k, v, spec.ty) {
                Ok(a) => attrs.push(a),
                Err(e) => {
                    self.error(&loc, format!("onnx.{}: attribute '{}': {}", op_type, k, e));
                    return None;
                }
            }
        }
        // Regions are the graph attributes, in the schema's region order.
        let graph_attrs = target.region_attrs();
        for (r, gname) in d.regions().to_vec().into_iter().zip(graph_attrs) {
            let g = self.subgraph(r, gname)?;
            attrs.push(AttributeProto { name: Some(gname.into()), r#type: Some(at::GRAPH), g: Some(Box::new(g)), ..Default::default() });
        }
        node.attribute = attrs;
        node.output = d.results().to_vec().into_iter().map(|r| self.name(r)).collect();
        Some(node)
    }

    fn subgraph(&mut self, r: ir::Region, name: &str) -> Option<GraphProto> {
        let body = self.body;
        let block = *body.region_blocks(r).first()?;
        let mut input = vec![];
        for a in body.block_args(block).to_vec() {
            let n = self.name(a);
            input.push(self.value_info(&n, body.value_type(a)));
        }
        let yielded: Vec<Value> = body.last_op(block).map(|t| body.op(t).operands().to_vec()).unwrap_or_default();
        let outs: Vec<String> = yielded.iter().map(|_| self.fresh(&format!("{}_out", name))).collect();
        let mut g = self.graph(block, name, &yielded, &outs);
        g.input = input;
        // Subgraph outputs keep only their element type: shapes we inferred inside a
        // branch are no promise the ONNX checker should hold the other branch to.
        for o in &mut g.output {
            if let Some(TypeValue::TensorType(t)) = o.r#type.as_mut().and_then(|t| t.value.as_mut()) {
                t.shape = None;
            }
        }
        Some(g)
    }

    /// A constant operand as the attribute it was at an older opset.
    fn operand_attr(&self, v: Value, name: &str, ty: AttrType) -> Option<AttributeProto> {
        let mut a = AttributeProto { name: Some(name.into()), ..Default::default() };
        match ty {
            AttrType::Ints => {
                a.r#type = Some(at::INTS);
                a.ints = onnx::infer::const_ints(self.body, v)?;
            }
            AttrType::Int => {
                a.r#type = Some(at::INT);
                a.i = Some(*onnx::infer::const_ints(self.body, v)?.first()?);
            }
            AttrType::Floats => {
                a.r#type = Some(at::FLOATS);
                a.floats = onnx::infer::const_f64s(self.body, v)?.into_iter().map(|x| x as f32).collect();
            }
            AttrType::Float => {
                a.r#type = Some(at::FLOAT);
                a.f = Some(*onnx::infer::const_f64s(self.body, v)?.first()? as f32);
            }
            _ => return None,
        }
        Some(a)
    }

    fn attribute(&self, name: &str, v: &Attribute, ty: AttrType) -> Result<AttributeProto, String> {
        let mut a = AttributeProto { name: Some(name.into()), ..Default::default() };
        match (ty, v.data()) {
            (AttrType::Int, _) => {
                a.r#type = Some(at::INT);
                a.i = Some(v.as_int().ok_or("expected an integer")? as i64);
            }
            (AttrType::Float, _) => {
                a.r#type = Some(at::FLOAT);
                a.f = Some(v.as_float().ok_or("expected a float")? as f32);
            }
            (AttrType::String, AttrData::String { bytes, .. }) => {
                a.r#type = Some(at::STRING);
                a.s = Some(bytes.to_vec());
            }
            (AttrType::Ints, AttrData::DenseArray { data: ArrayData::Int(x), .. }) => {
                a.r#type = Some(at::INTS);
                a.ints = x.clone();
            }
            (AttrType::Floats, AttrData::DenseArray { data: ArrayData::Float(x), .. }) => {
                a.r#type = Some(at::FLOATS);
                a.floats = x.iter().map(|f| *f as f32).collect();
            }
            (AttrType::Strings, AttrData::Array(items)) => {
                a.r#type = Some(at::STRINGS);
                for i in items {
                    match i.data() {
                        AttrData::String { bytes, .. } => a.strings.push(bytes.to_vec()),
                        _ => return Err("expected strings".into()),
                    }
                }
            }
            (AttrType::Tensor, _) => {
                a.r#type = Some(at::TENSOR);
                a.t = Some(self.tensor(v)?);
            }
            (AttrType::TypeProto, _) => {
                a.r#type = Some(at::TYPE_PROTO);
                a.tp = Some(Box::new(self.type_proto(v.as_type().ok_or("expected a type")?).ok_or("a type ONNX cannot express")?));
            }
            (k, _) => return Err(format!("cannot write {} as an attribute of kind {:?}", v, k)),
        }
        Ok(a)
    }

    /// A dense elements attribute as a TensorProto with `raw_data` (splats expanded).
    fn tensor(&self, v: &Attribute) -> Result<TensorProto, String> {
        let (ty, bytes, splat): (&Type, &[u8], bool) = match v.data() {
            AttrData::Dense { ty, data } => (ty, &data.bytes, data.splat),
            AttrData::DenseResource { ty, resource } => (ty, resource.blob.get().ok_or("a dense_resource without its blob")?.bytes(), false),
            _ => return Err(format!("{} is not a tensor", v)),
        };
        let elem = ty.scalar();
        if elem.int_width().is_some_and(|w| w < 8 && w != 1) {
            return Err(format!("exporting {}-bit integer tensors is not supported yet", elem.int_width().unwrap_or(0)));
        }
        let code = data_type(self.ctx, elem).ok_or_else(|| format!("element type {} has no ONNX data type", elem))?;
        let n = ty.num_elements().ok_or("a tensor of unknown size")? as usize;
        let raw = if splat { bytes.repeat(n) } else { bytes.to_vec() };
        Ok(TensorProto { dims: ty.shape().unwrap_or(&[]).to_vec(), data_type: Some(code), raw_data: Some(raw.into()), ..Default::default() })
    }

    fn type_proto(&self, t: &Type) -> Option<TypeProto> {
        let tensor = |elem: &Type, shape: Option<&[i64]>| -> Option<TypeProto> {
            let shape = shape.map(|s| TensorShapeProto {
                dim: s.iter().map(|d| Dimension { value: (*d != DYNAMIC).then_some(DimValue::DimValue(*d)), denotation: None }).collect(),
            });
            Some(TypeProto { value: Some(TypeValue::TensorType(TensorTypeProto { elem_type: Some(data_type(self.ctx, elem)?), shape })), denotation: None })
        };
        match t.data() {
            TypeData::RankedTensor { shape, elem, .. } => tensor(elem, Some(shape)),
            TypeData::UnrankedTensor { elem } => tensor(elem, None),
            _ => {
                for (kind, make) in [("Seq", TypeValue::SequenceType as fn(Box<ElemTypeProto>) -> TypeValue), ("Opt", TypeValue::OptionalType)] {
                    if let Some(inner) = onnx::types::unwrap(self.ctx, t, kind) {
                        let inner = self.type_proto(&inner)?;
                        return Some(TypeProto { value: Some(make(Box::new(ElemTypeProto { elem_type: Some(Box::new(inner)) }))), denotation: None });
                    }
                }
                None
            }
        }
    }

    fn value_info(&self, name: &str, t: &Type) -> ValueInfoProto {
        ValueInfoProto { name: Some(name.into()), r#type: self.type_proto(t), doc_string: None }
    }
}

/// Serialized bytes of the exported model.
pub fn export_bytes(ctx: &Context, body: &Body, module: OpId) -> Result<Vec<u8>, Vec<Diagnostic>> {
    use prost::Message;
    Ok(export_module(ctx, body, module)?.encode_to_vec())
}

/// The node name a `loc("name"(...))` carries (the importer's form).
fn node_name(loc: &Location) -> Option<String> {
    match &*loc.data() {
        LocData::Name { name, .. } => Some(name.clone()),
        _ => None,
    }
}
