//! The importer: an ONNX `ModelProto` → a module holding one `func.func` named
//! after the graph. Inputs and outputs keep their ONNX names (`onnx.name`
//! argument/result attributes, symbolic dimensions in `onnx.dims`), nodes
//! become `onnx.*` ops located at their node names, initializers and
//! `Constant`s become `onnx.Constant`, subgraphs become regions ending in
//! `onnx.Yield`, model-local functions are inlined first (`functions`). Every
//! node that cannot be imported is reported, not just the first.

use crate::proto::{self, attribute_type as at, AttributeProto, GraphProto, ModelProto, NodeProto, ValueInfoProto};
use onnx::table::{self, OnnxOp, ParamKind};
use crate::convert as types;
use onnx::ops;
use onnx::types::elem_type;
use ir::attributes::{ArrayData, AttrData, AttrDict, Attribute};
use ir::diagnostics::Diagnostic;
use ir::types::{Type, TypeData};
use ir::{Block, Body, Context, InsertPoint, Location, OpId, OperationState, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub struct ImportOptions {
    /// The model file (for locations and external data).
    pub model_path: Option<PathBuf>,
    /// Tensors of at least this many bytes become `dense_resource` blobs.
    pub resource_threshold: usize,
    /// Use the types the model declares for intermediate values and outputs.
    /// When false, results get only what the schema implies (to measure shape
    /// inference), and each output's declared type is kept as `onnx.declared_type`.
    pub use_declared_types: bool,
    /// Free dimensions bound to a value (`--dim batch=1`, as ONNX Runtime's free dimension override).
    pub dims: HashMap<String, i64>,
    /// Graph inputs whose values are known ahead of time (`--bind-input name=file.pb`):
    /// each becomes a constant, as an initializer would, so shapes it carries
    /// (Reshape targets, Resize scales, Reduce axes) fold to static ones.
    pub bound_inputs: Vec<(String, proto::TensorProto)>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { model_path: None, resource_threshold: 1024, use_declared_types: true, dims: HashMap::new(), bound_inputs: vec![] }
    }
}

pub struct Imported {
    pub body: Body,
    pub module: OpId,
    pub opset: u32,
}

struct Importer<'a> {
    ctx: &'a Context,
    body: Body,
    /// The default domain's opset.
    opset: u32,
    /// Every imported domain with a table (canonical spelling) and its version.
    opsets: HashMap<&'static str, u32>,
    imports_default: bool,
    opts: &'a ImportOptions,
    file: std::sync::Arc<str>,
    errors: Vec<Diagnostic>,
    /// Name → value, one map per graph scope (subgraphs see outer values).
    scopes: Vec<HashMap<String, Value>>,
    /// Declared types of values (graph value_info and outputs).
    declared: Vec<HashMap<String, Type>>,
    resources: HashSet<String>,
}

/// Imports a serialized model (copies it; see `import_model_bytes` to hand it over).
pub fn import_model(ctx: &Context, bytes: &[u8], opts: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    import_model_bytes(ctx, bytes::Bytes::copy_from_slice(bytes), opts)
}

/// Imports a serialized model held in `bytes`: large initializers become
/// `dense_resource` blobs that share the buffer, so the weights are not copied.
pub fn import_model_bytes(ctx: &Context, bytes: bytes::Bytes, opts: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let file: std::sync::Arc<str> = opts.model_path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "<model>".into()).into();
    let top = Location::file(file.clone(), 0, 0);
    let model = proto::decode_model(bytes).map_err(|e| vec![Diagnostic::error(top.clone(), e)])?;
    import_proto(ctx, &model, opts)
}

/// `g` with the bound inputs turned into initializers, after checking that
/// each names a graph input and agrees with its declared element type and static dims.
fn bind_inputs(g: &GraphProto, bound: &[(String, proto::TensorProto)]) -> Result<GraphProto, String> {
    use proto::{DimValue, TypeValue};
    let mut g = g.clone();
    for (name, t) in bound {
        let vi = g.input.iter().find(|vi| vi.name.as_deref() == Some(name.as_str())).ok_or_else(|| {
            let names: Vec<&str> = g.input.iter().filter_map(|vi| vi.name.as_deref()).collect();
            format!("--bind-input: the graph has no input '{}' (its inputs: {})", name, names.join(", "))
        })?;
        if let Some(TypeValue::TensorType(tt)) = vi.r#type.as_ref().and_then(|t| t.value.as_ref()) {
            if tt.elem_type.is_some() && tt.elem_type != t.data_type {
                return Err(format!("--bind-input: input '{}' is declared with element type {} but the tensor has {}", name, tt.elem_type.unwrap_or(0), t.data_type.unwrap_or(0)));
            }
            if let Some(shape) = &tt.shape {
                let declared: Vec<Option<i64>> = shape.dim.iter().map(|d| match &d.value {
                    Some(DimValue::DimValue(v)) => Some(*v),
                    _ => None,
                }).collect();
                let fits = declared.len() == t.dims.len() && declared.iter().zip(&t.dims).all(|(d, v)| d.is_none_or(|d| d == *v));
                if !fits {
                    return Err(format!("--bind-input: input '{}' is declared with shape {:?} but the tensor has dims {:?}", name, declared, t.dims));
                }
            }
        }
        let mut t = t.clone();
        t.name = Some(name.clone());
        g.initializer.retain(|i| i.name.as_deref() != Some(name.as_str()));
        g.initializer.push(t);
    }
    Ok(g)
}

pub fn import_proto(ctx: &Context, model: &ModelProto, opts: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let file: std::sync::Arc<str> = opts.model_path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "<model>".into()).into();
    let top = Location::file(file.clone(), 0, 0);
    let err1 = |m: String| vec![Diagnostic::error(top.clone(), m)];
    // The imported version of each domain with a table; others only matter if a node uses them.
    let mut opsets: HashMap<&'static str, u32> = HashMap::new();
    for o in &model.opset_import {
        let d = table::canonical_domain(o.domain.as_deref().unwrap_or(""));
        let Some(&(known, _)) = table::DOMAINS.iter().find(|(n, _)| *n == d) else { continue };
        let v = o.version.unwrap_or(0);
        if !(1..=10_000).contains(&v) {
            return Err(err1(format!("invalid opset version {} of domain '{}'", v, table::display_domain(d))));
        }
        if opsets.insert(known, v as u32).is_some() {
            return Err(err1(format!("the model imports domain '{}' twice", table::display_domain(d))));
        }
    }
    // A model of other domains only (an `ai.onnx.ml` classifier) is read at the newest default opset.
    let imports_default = opsets.contains_key("");
    let opset = *opsets.entry("").or_insert_with(|| table::newest_opset("")) as i64;
    let graph = model.graph.as_ref().ok_or_else(|| err1("the model has no graph".into()))?;
    let bound;
    let graph = if opts.bound_inputs.is_empty() {
        graph
    } else {
        bound = bind_inputs(graph, &opts.bound_inputs).map_err(err1)?;
        &bound
    };
    let inlined = crate::functions::inline_functions(model, graph, opset).map_err(err1)?;
    let graph = inlined.as_ref().unwrap_or(graph);
    let mut im = Importer {
        ctx,
        body: Body::new(),
        opset: opset as u32,
        opsets,
        imports_default,
        opts,
        file,
        errors: vec![],
        scopes: vec![],
        declared: vec![],
        resources: HashSet::new(),
    };
    let module_region = im.body.new_region();
    let module_block = im.body.add_block(module_region, &[]);
    let module = im.body.create_op(OperationState::new(ctx.op_name("builtin.module"), top.clone()).region(module_region));
    im.import_main(graph, module_block, model);
    if !im.errors.is_empty() {
        return Err(im.errors);
    }
    if let Err(e) = ir::verifier::verify(ctx, &im.body, module) {
        return Err(e);
    }
    Ok(Imported { body: im.body, module, opset: opset as u32 })
}

impl<'a> Importer<'a> {
    fn loc_of(&self, node: &NodeProto, index: usize) -> Location {
        match node.name.as_deref() {
            Some(n) if !n.is_empty() => Location::new(ir::location::LocData::Name { name: n.to_string(), child: None }),
            _ => Location::new(ir::location::LocData::Name {
                name: format!("{}#{}", node.op_type.as_deref().unwrap_or("?"), index),
                child: Some(Location::file(self.file.clone(), 0, 0)),
            }),
        }
    }

    fn err(&mut self, loc: Location, m: String) {
        self.errors.push(Diagnostic::error(loc, m));
    }

    fn lookup(&self, name: &str) -> Option<Value> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn declared_type(&self, name: &str) -> Option<Type> {
        self.declared.iter().rev().find_map(|s| s.get(name).cloned())
    }

    fn value_info_type(&mut self, vi: &ValueInfoProto, dims: &mut Vec<String>) -> Result<Type, String> {
        match &vi.r#type {
            Some(t) => types::value_type_with(self.ctx, t, dims, &self.opts.dims),
            None => Err(format!("'{}' has no type", vi.name.as_deref().unwrap_or(""))),
        }
    }

    fn import_main(&mut self, g: &GraphProto, module_block: Block, model: &ModelProto) {
        let top = Location::file(self.file.clone(), 0, 0);
        let initializers: HashSet<&str> = g.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
        let mut arg_types = vec![];
        let mut arg_attrs = vec![];
        let mut arg_names = vec![];
        for vi in g.input.iter().filter(|vi| !initializers.contains(vi.name.as_deref().unwrap_or(""))) {
            let mut dims = vec![];
            match self.value_info_type(vi, &mut dims) {
                Ok(t) => {
                    arg_types.push(t);
                    arg_attrs.push(self.name_attrs(vi.name.as_deref().unwrap_or(""), &dims));
                    arg_names.push(vi.name.clone().unwrap_or_default());
                }
                Err(e) => self.err(top.clone(), format!("graph input: {}", e)),
            }
        }
        let mut res_types = vec![];
        let mut res_attrs = vec![];
        // An output without a type (as a model cut into stages writes them)
        // takes its value's, as any output does where declarations are not trusted.
        let untyped: Vec<bool> = g.output.iter().map(|vi| vi.r#type.is_none()).collect();
        for vi in &g.output {
            let mut dims = vec![];
            if vi.r#type.is_none() {
                res_types.push(self.ctx.intern_type(TypeData::None));
                res_attrs.push(self.name_attrs(vi.name.as_deref().unwrap_or(""), &dims));
                continue;
            }
            match self.value_info_type(vi, &mut dims) {
                Ok(t) => {
                    res_types.push(t);
                    res_attrs.push(self.name_attrs(vi.name.as_deref().unwrap_or(""), &dims));
                }
                Err(e) => self.err(top.clone(), format!("graph output: {}", e)),
            }
        }
        if !self.errors.is_empty() {
            return;
        }
        let region = self.body.new_region();
        let entry = self.body.add_block(region, &arg_types);
        let mut scope = HashMap::new();
        for (i, n) in arg_names.iter().enumerate() {
            scope.insert(n.clone(), self.body.block_args(entry)[i]);
        }
        self.scopes.push(scope);
        let outs: Vec<String> = g.output.iter().map(|o| o.name.clone().unwrap_or_default()).collect();
        let returned = self.import_graph_body(g, entry, &outs);
        self.scopes.pop();
        let Some(vals) = returned else { return };
        for (k, v) in vals.iter().enumerate() {
            // Node outputs take their declared type when it is trusted; an
            // initializer or a graph input returned as it is keeps its own
            // type, which the declaration may leave symbolic or out.
            let have = self.body.value_type(*v).clone();
            if untyped[k] {
                res_types[k] = have;
                continue;
            }
            if self.opts.use_declared_types && have == res_types[k] {
                continue;
            }
            if self.opts.use_declared_types && have.scalar() != res_types[k].scalar() && res_types[k].element_type().is_some() {
                self.err(top.clone(), format!("graph output '{}' is declared as {} but its value is {}", outs[k], res_types[k], have));
                continue;
            }
            let declared = std::mem::replace(&mut res_types[k], have);
            res_attrs[k].set(self.ctx.ident("onnx.declared_type"), Attribute::type_attr(declared));
        }
        if !self.errors.is_empty() {
            return;
        }
        let fname = types::sanitize(g.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("main_graph"));
        let fty = self.ctx.intern_type(TypeData::Function { inputs: arg_types.clone(), results: res_types.clone() });
        let mut st = OperationState::new(self.ctx.op_name(func::ops::FUNC), top.clone())
            .property(self.ctx.ident("function_type"), Attribute::type_attr(fty))
            .property(self.ctx.ident("sym_name"), Attribute::string(&fname))
            .region(region);
        let dicts = |v: Vec<AttrDict>| Attribute::new(AttrData::Array(v.into_iter().map(|d| Attribute::new(AttrData::Dict(d))).collect()));
        if !arg_attrs.is_empty() {
            st.properties.set(self.ctx.ident("arg_attrs"), dicts(arg_attrs));
        }
        if !res_attrs.is_empty() {
            st.properties.set(self.ctx.ident("res_attrs"), dicts(res_attrs));
        }
        if let Some(p) = model.producer_name.as_deref().filter(|p| !p.is_empty()) {
            st.attributes.set(self.ctx.ident("onnx.producer"), Attribute::string(p));
        }
        // A model of other domains only imports no default opset, and its export imports none either.
        if self.imports_default {
            st.attributes.set(self.ctx.ident("onnx.opset"), Attribute::integer(self.opset as i128, self.ctx.i64()));
        }
        let mut others: Vec<(&str, u32)> = self.opsets.iter().filter(|(d, _)| !d.is_empty()).map(|(d, v)| (*d, *v)).collect();
        others.sort();
        for (d, v) in others {
            st.attributes.set(self.ctx.ident(&format!("onnx.opset.{}", d)), Attribute::integer(v as i128, self.ctx.i64()));
        }
        self.body.build(st, InsertPoint::AtEnd(module_block));
        let st = OperationState::new(self.ctx.op_name(func::ops::RETURN), top).operands(&vals);
        self.body.build(st, InsertPoint::AtEnd(entry));
    }

    fn name_attrs(&self, name: &str, dims: &[String]) -> AttrDict {
        let mut d = AttrDict::new();
        d.set(self.ctx.ident("onnx.name"), Attribute::string(name));
        if dims.iter().any(|s| !s.is_empty()) {
            let v = dims.iter().map(|s| Attribute::string(s)).collect();
            d.set(self.ctx.ident("onnx.dims"), Attribute::new(AttrData::Array(v)));
        }
        d
    }

    /// Imports initializers and nodes into `block`; returns the values named `outputs`.
    fn import_graph_body(&mut self, g: &GraphProto, block: Block, outputs: &[String]) -> Option<Vec<Value>> {
        let mut decl = HashMap::new();
        let trusted: Vec<&ValueInfoProto> = if self.opts.use_declared_types { g.value_info.iter().chain(g.output.iter()).collect() } else { vec![] };
        for vi in trusted {
            if let Ok(t) = self.value_info_type(vi, &mut vec![]) {
                decl.insert(vi.name.clone().unwrap_or_default(), t);
            }
        }
        self.declared.push(decl);
        let mut novalue: Option<Value> = None;
        for t in &g.initializer {
            let loc = Location::new(ir::location::LocData::Name { name: t.name.clone().unwrap_or_default(), child: None });
            match types::tensor_attr(self.ctx, t, self.opts.model_path.as_deref().and_then(Path::parent), self.opts.resource_threshold, &mut self.resources) {
                Ok(a) => self.named_constant(t.name.clone().unwrap_or_default(), loc, a, block),
                Err(e) => self.err(loc, format!("initializer '{}': {}", t.name.as_deref().unwrap_or(""), e)),
            }
        }
        for sp in &g.sparse_initializer {
            let name = sp.values.as_ref().and_then(|v| v.name.clone()).unwrap_or_default();
            let loc = Location::new(ir::location::LocData::Name { name: name.clone(), child: None });
            match crate::sparse::sparse_tensor_attr(self.ctx, sp, self.opts.model_path.as_deref().and_then(Path::parent), &mut self.resources) {
                Ok(a) => self.named_constant(name, loc, a, block),
                Err(e) => self.err(loc, format!("sparse initializer '{}': {}", name, e)),
            }
        }
        for (i, node) in g.node.iter().enumerate() {
            self.import_node(node, i, block, &mut novalue);
        }
        self.declared.pop();
        let mut vals = vec![];
        for o in outputs {
            match self.lookup(o) {
                Some(v) => vals.push(v),
                None => {
                    self.err(Location::file(self.file.clone(), 0, 0), format!("graph output '{}' is not produced by any node", o));
                    return None;
                }
            }
        }
        Some(vals)
    }

    /// An initializer: an `onnx.Constant` of `value` at the end of `block`, known by `name`.
    fn named_constant(&mut self, name: String, loc: Location, value: Attribute, block: Block) {
        let ty = value.typ().cloned().unwrap();
        let st = OperationState::new(self.ctx.op_name(ops::Constant::NAME), loc).property(self.ctx.ident("value"), value).results(&[ty]);
        let op = self.body.build(st, InsertPoint::AtEnd(block));
        let v = self.body.op(op).result(0);
        self.scopes.last_mut().unwrap().insert(name, v);
    }

    fn import_node(&mut self, node: &NodeProto, index: usize, block: Block, novalue: &mut Option<Value>) {
        let loc = self.loc_of(node, index);
        let op_type = node.op_type.clone().unwrap_or_default();
        let domain = node.domain.clone().unwrap_or_default();
        let domain = table::canonical_domain(&domain).to_string();
        let opset = self.opsets.get(domain.as_str()).copied().filter(|_| !domain.is_empty() || self.imports_default);
        let where_ = || {
            let d = table::display_domain(&domain);
            match opset {
                Some(v) => format!("node '{}' ({} in domain '{}', opset {})", node.name.as_deref().unwrap_or(""), op_type, d, v),
                None => format!("node '{}' ({} in domain '{}')", node.name.as_deref().unwrap_or(""), op_type, d),
            }
        };
        // ONNX graphs name each value once (ONNX Runtime refuses a model that
        // defines one twice): a node's outputs are new names.
        let scope = self.scopes.last().expect("a graph's scope");
        let taken = |k: usize, o: &String| !o.is_empty() && (scope.contains_key(o) || node.output[..k].contains(o));
        if let Some((_, o)) = node.output.iter().enumerate().find(|(k, o)| taken(*k, o)) {
            return self.err(loc, format!("{}: output '{}' is already defined (a graph input, an initializer or an earlier output): an ONNX graph names each value once", where_(), o));
        }
        let Some(key) = table::key(&domain, &op_type) else {
            let known: Vec<&str> = table::DOMAINS.iter().map(|(d, _)| table::display_domain(d)).collect();
            return self.err(loc, format!("{}: unsupported domain (operators are known for {})", where_(), known.join(", ")));
        };
        let Some(opset) = opset else {
            return self.err(loc, format!("{}: the model imports no opset of this domain", where_()));
        };
        let Some(schema) = table::schema(&key, opset) else {
            return self.err(loc, format!("{}: unknown operator", where_()));
        };
        let op_type = key;
        if (node.input.len() as u32) > schema.max_inputs || (node.input.len() as u32) < schema.min_inputs && !trailing_optional(schema, node.input.len()) {
            return self.err(loc, format!("{}: {} inputs, the operator takes {}..{}", where_(), node.input.len(), schema.min_inputs, schema.max_inputs));
        }
        // Operands: an empty name is an absent optional input.
        let mut operands = vec![];
        for name in &node.input {
            if name.is_empty() {
                let v = *novalue.get_or_insert_with(|| onnx::dialect::no_value(self.ctx, &mut self.body, InsertPoint::AtStart(block), Location::unknown()));
                operands.push(v);
                continue;
            }
            match self.lookup(name) {
                Some(v) => operands.push(v),
                None => return self.err(loc, format!("{}: input '{}' is not defined before the node (the graph must be topologically sorted)", where_(), name)),
            }
        }
        // Attributes → properties; graphs → regions.
        let mut props = AttrDict::new();
        let mut regions = vec![];
        for a in &node.attribute {
            let an = a.name.clone().unwrap_or_default();
            let Some(spec) = schema.attr(&an) else {
                return self.err(loc, format!("{}: unknown attribute '{}'", where_(), an));
            };
            if a.ref_attr_name.as_deref().is_some_and(|r| !r.is_empty()) {
                return self.err(loc, format!("{}: attribute '{}' refers to a function attribute", where_(), an));
            }
            if a.r#type == Some(at::GRAPH) {
                match self.import_subgraph(a, &loc) {
                    Ok(r) => regions.push((an.clone(), r)),
                    Err(e) => return self.err(loc, format!("{}: attribute '{}': {}", where_(), an, e)),
                }
                continue;
            }
            match self.attribute(a, spec.ty) {
                Ok(v) => {
                    props.set(self.ctx.ident(&an), v);
                }
                Err(e) => return self.err(loc, format!("{}: attribute '{}': {}", where_(), an, e)),
            }
        }
        for spec in schema.attrs.iter().filter(|s| s.required) {
            if !props.contains(spec.name) && !regions.iter().any(|(n, _)| n == spec.name) {
                return self.err(loc, format!("{}: required attribute '{}' is missing", where_(), spec.name));
            }
        }
        // Regions in the schema's region order (then_branch before else_branch).
        let order = schema.region_attrs();
        regions.sort_by_key(|(n, _)| order.iter().position(|s| s == n).unwrap_or(usize::MAX));
        // `Constant` of every form is `onnx.Constant` with a `value` elements attribute.
        let op_name = if op_type == "Constant" { "onnx.Constant".to_string() } else { format!("onnx.{}", op_type) };
        if op_type == "Constant" {
            match constant_value(self.ctx, &props) {
                Ok(v) => {
                    props = AttrDict::new();
                    props.set(self.ctx.ident("value"), v);
                }
                Err(e) => return self.err(loc, format!("{}: {}", where_(), e)),
            }
        }
        let result_types: Vec<Type> = node
            .output
            .iter()
            .enumerate()
            .map(|(k, o)| {
                if op_type == "Constant" {
                    if let Some(t) = props.get("value").and_then(|a| a.typ()) {
                        return t.clone();
                    }
                }
                self.declared_type(o).unwrap_or_else(|| self.infer_elem(schema, k, &operands))
            })
            .collect();
        // Older forms become the newest (attributes that became inputs, Upsample → Resize).
        let mut parts = crate::normalize::NodeParts { op_name, operands, props, reshape_like: None };
        if let Err(e) = crate::normalize::normalize(self.ctx, &mut self.body, block, &loc, &op_type, schema.since, &mut parts) {
            return self.err(loc, format!("{}: {}", where_(), e));
        }
        let crate::normalize::NodeParts { op_name, operands, props, reshape_like } = parts;
        // Reshaped back afterwards: the op itself computes on another shape.
        let op_types: Vec<Type> = match reshape_like {
            Some(_) => result_types.iter().map(|t| self.ctx.intern_type(TypeData::UnrankedTensor { elem: t.scalar().clone() })).collect(),
            None => result_types.clone(),
        };
        let mut st = OperationState::new(self.ctx.op_name(&op_name), loc.clone()).operands(&operands).results(&op_types);
        st.properties = props;
        st.regions = regions.into_iter().map(|(_, r)| r).collect();
        let op = self.body.build(st, InsertPoint::AtEnd(block));
        let mut results = self.body.op(op).results().to_vec();
        if let (Some(like), Some(first)) = (reshape_like, results.first_mut()) {
            let rank = self.body.value_type(like).shape().map_or(ir::types::DYNAMIC, |s| s.len() as i64);
            let shape_ty = self.ctx.intern_type(TypeData::RankedTensor { shape: vec![rank], elem: self.ctx.i64(), encoding: None });
            let shape = self.body.build(OperationState::new(self.ctx.op_name(ops::Shape::NAME), loc.clone()).operands(&[like]).results(&[shape_ty]), InsertPoint::AtEnd(block));
            let shape = self.body.op(shape).result(0);
            let back = OperationState::new(self.ctx.op_name(ops::Reshape::NAME), loc.clone()).operands(&[*first, shape]).results(&[result_types[0].clone()]);
            let back = self.body.build(back, InsertPoint::AtEnd(block));
            *first = self.body.op(back).result(0);
        }
        for (k, o) in node.output.iter().enumerate() {
            if !o.is_empty() {
                self.scopes.last_mut().unwrap().insert(o.clone(), results[k]);
            }
        }
    }

    /// An unranked tensor whose element type follows from the schema (a fixed
    /// type, or the type of an input with the same constraint); `none` when unknown.
    fn infer_elem(&self, schema: &OnnxOp, output: usize, operands: &[Value]) -> Type {
        let Some(p) = schema.outputs.get(output).or(schema.outputs.last()) else { return self.ctx.none_type() };
        let fixed = |ty: &str| -> Option<Type> {
            let inner = ty.strip_prefix("tensor(")?.strip_suffix(')')?;
            let code = match inner {
                "float" => crate::proto::data_type::FLOAT,
                "double" => crate::proto::data_type::DOUBLE,
                "float16" => crate::proto::data_type::FLOAT16,
                "bfloat16" => crate::proto::data_type::BFLOAT16,
                "int8" => crate::proto::data_type::INT8,
                "int16" => crate::proto::data_type::INT16,
                "int32" => crate::proto::data_type::INT32,
                "int64" => crate::proto::data_type::INT64,
                "uint8" => crate::proto::data_type::UINT8,
                "uint16" => crate::proto::data_type::UINT16,
                "uint32" => crate::proto::data_type::UINT32,
                "uint64" => crate::proto::data_type::UINT64,
                "bool" => crate::proto::data_type::BOOL,
                _ => return None,
            };
            elem_type(self.ctx, code).ok()
        };
        let elem = fixed(p.ty)
            .or_else(|| schema.types.iter().find(|t| t.param == p.ty).filter(|t| t.allowed.len() == 1).and_then(|t| fixed(t.allowed[0])))
            .or_else(|| {
                // The first input bound to the same constraint.
                let mut k = 0;
                for ip in schema.inputs {
                    let n = if ip.kind == ParamKind::Variadic { operands.len().saturating_sub(k) } else { 1 };
                    if ip.ty == p.ty {
                        let v = operands.get(k)?;
                        return self.body.value_type(*v).element_type().cloned();
                    }
                    k += n;
                }
                None
            });
        match elem {
            Some(e) => self.ctx.intern_type(TypeData::UnrankedTensor { elem: e }),
            None => self.ctx.none_type(),
        }
    }

    fn import_subgraph(&mut self, a: &AttributeProto, _loc: &Location) -> Result<ir::Region, String> {
        let g = a.g.as_deref().ok_or("graph attribute without a graph")?;
        let mut types_ = vec![];
        for vi in &g.input {
            types_.push(self.value_info_type(vi, &mut vec![]).unwrap_or_else(|_| self.ctx.none_type()));
        }
        let region = self.body.new_region();
        let block = self.body.add_block(region, &types_);
        let mut scope = HashMap::new();
        for (i, vi) in g.input.iter().enumerate() {
            scope.insert(vi.name.clone().unwrap_or_default(), self.body.block_args(block)[i]);
        }
        self.scopes.push(scope);
        let outs: Vec<String> = g.output.iter().map(|o| o.name.clone().unwrap_or_default()).collect();
        let before = self.errors.len();
        let vals = self.import_graph_body(g, block, &outs);
        self.scopes.pop();
        if self.errors.len() > before {
            return Err("the subgraph has errors (reported separately)".into());
        }
        let vals = vals.ok_or("the subgraph's outputs are missing")?;
        let st = OperationState::new(self.ctx.op_name(ops::YIELD), Location::unknown()).operands(&vals);
        self.body.build(st, InsertPoint::AtEnd(block));
        Ok(region)
    }

    fn attribute(&mut self, a: &AttributeProto, expected: table::AttrType) -> Result<Attribute, String> {
        use table::AttrType as T;
        let ctx = self.ctx;
        let ty = a.r#type.unwrap_or(0);
        let want = match expected {
            T::Float => at::FLOAT,
            T::Int => at::INT,
            T::String => at::STRING,
            T::Tensor => at::TENSOR,
            T::Floats => at::FLOATS,
            T::Ints => at::INTS,
            T::Strings => at::STRINGS,
            T::TypeProto => at::TYPE_PROTO,
            T::SparseTensor => at::SPARSE_TENSOR,
            T::Graph => at::GRAPH,
            T::Tensors => at::TENSORS,
            T::Graphs => at::GRAPHS,
            T::SparseTensors => at::SPARSE_TENSORS,
            T::TypeProtos => at::TYPE_PROTOS,
        };
        if ty != want {
            return Err(format!("has kind {} but the operator expects {:?}", ty, expected));
        }
        Ok(match ty {
            at::FLOAT => Attribute::float(a.f.unwrap_or(0.0) as f64, ctx.f32()),
            at::INT => Attribute::integer(a.i.unwrap_or(0) as i128, ctx.i64()),
            at::STRING => Attribute::new(AttrData::String { bytes: a.s.clone().unwrap_or_default().into(), ty: None }),
            at::FLOATS => Attribute::new(AttrData::DenseArray { elem: ctx.f32(), data: ArrayData::Float(a.floats.iter().map(|f| *f as f64).collect()) }),
            at::INTS => Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ArrayData::Int(a.ints.clone()) }),
            at::STRINGS => Attribute::new(AttrData::Array(a.strings.iter().map(|s| Attribute::new(AttrData::String { bytes: s.clone().into(), ty: None })).collect())),
            at::TENSOR => {
                let t = a.t.as_ref().ok_or("tensor attribute without a tensor")?;
                let dir = self.opts.model_path.as_deref().and_then(Path::parent);
                types::tensor_attr(ctx, t, dir, self.opts.resource_threshold, &mut self.resources)?
            }
            at::SPARSE_TENSOR => {
                let sp = a.sparse_tensor.as_ref().ok_or("sparse tensor attribute without a tensor")?;
                crate::sparse::sparse_tensor_attr(ctx, sp, self.opts.model_path.as_deref().and_then(Path::parent), &mut self.resources)?
            }
            at::TYPE_PROTO => Attribute::type_attr(types::value_type(ctx, a.tp.as_deref().ok_or("type attribute without a type")?, &mut vec![])?),
            other => return Err(format!("attributes of kind {} are not supported yet", other)),
        })
    }
}

/// Too few inputs is fine when the missing ones are trailing optional inputs.
fn trailing_optional(schema: &OnnxOp, given: usize) -> bool {
    schema.inputs.iter().skip(given).all(|p| p.kind != ParamKind::Single)
}

/// The elements attribute of a `Constant` node, whatever attribute it was given as.
fn constant_value(ctx: &Context, props: &AttrDict) -> Result<Attribute, String> {
    let (name, a) = props.iter().next().ok_or("Constant without a value")?;
    if props.len() != 1 {
        return Err("Constant must have exactly one value attribute".into());
    }
    let tensor = |elem: Type, shape: Vec<i64>, bytes: Vec<u8>| {
        let w = ir::attributes::element_bytes(&elem).unwrap_or(1);
        let n = shape.iter().product::<i64>().max(0) as usize;
        let ty = ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
        Attribute::new(AttrData::Dense { ty, data: ir::attributes::DenseData::canonical(bytes, w, n) })
    };
    Ok(match (name.as_str(), a.data()) {
        ("value", _) | ("sparse_value", _) => a.clone(),
        ("value_float", AttrData::Float { bits, .. }) => tensor(ctx.f32(), vec![], (*bits as u32).to_le_bytes().to_vec()),
        ("value_int", AttrData::Integer { value, .. }) => tensor(ctx.i64(), vec![], (*value as i64).to_le_bytes().to_vec()),
        ("value_floats", AttrData::DenseArray { data: ArrayData::Float(v), .. }) => {
            tensor(ctx.f32(), vec![v.len() as i64], v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect())
        }
        ("value_ints", AttrData::DenseArray { data: ArrayData::Int(v), .. }) => tensor(ctx.i64(), vec![v.len() as i64], v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        (n, _) => return Err(format!("Constant's '{}' form is not supported yet", n)),
    })
}
