//! The shape of the generated operator table (`op_table.rs`) and lookups in it.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Single,
    Optional,
    Variadic,
}

#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub kind: ParamKind,
    /// A type constraint name (`T`) or a literal type (`tensor(int64)`).
    pub ty: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrType {
    Float,
    Int,
    String,
    Tensor,
    Graph,
    Floats,
    Ints,
    Strings,
    Tensors,
    Graphs,
    SparseTensor,
    SparseTensors,
    TypeProto,
    TypeProtos,
}

#[derive(Debug)]
pub enum Default {
    Float(f64),
    Int(i64),
    Str(&'static str),
    Floats(&'static [f64]),
    Ints(&'static [i64]),
    Strs(&'static [&'static str]),
}

#[derive(Debug)]
pub struct AttrSpec {
    pub name: &'static str,
    pub ty: AttrType,
    pub required: bool,
    pub default: Option<Default>,
}

#[derive(Debug)]
pub struct TypeConstraint {
    pub param: &'static str,
    pub allowed: &'static [&'static str],
}

/// One operator at one opset version.
#[derive(Debug)]
pub struct OnnxOp {
    /// The key: the ONNX name, prefixed for operators outside the default domain (`ml.Binarizer`).
    pub name: &'static str,
    /// The ONNX domain ("" for the default one).
    pub domain: &'static str,
    pub since: u32,
    pub deprecated: bool,
    pub min_inputs: u32,
    pub max_inputs: u32,
    pub min_outputs: u32,
    pub max_outputs: u32,
    pub inputs: &'static [Param],
    pub outputs: &'static [Param],
    pub types: &'static [TypeConstraint],
    pub attrs: &'static [AttrSpec],
}

/// The domains with operator tables and the prefix of their operators' keys
/// and op names (`onnx.ms.QLinearAdd`); `com.microsoft` reuses default-domain
/// names (`Attention`, `Gelu`), so every other domain has a prefix.
pub const DOMAINS: &[(&str, &str)] = &[("", ""), ("ai.onnx.ml", "ml."), ("ai.onnx.preview.training", "training."), ("ai.onnx.preview", "preview."), ("com.microsoft", "ms.")];

/// A domain as models spell it (`ai.onnx` is the default domain too) in the table's spelling.
pub fn canonical_domain(domain: &str) -> &str {
    if domain == "ai.onnx" {
        ""
    } else {
        domain
    }
}

/// A domain as messages name it: the default one as `ai.onnx`.
pub fn display_domain(domain: &str) -> &str {
    if domain.is_empty() {
        "ai.onnx"
    } else {
        domain
    }
}

/// The key of `op_type` of `domain`, if the domain has a table.
pub fn key(domain: &str, op_type: &str) -> Option<String> {
    let d = canonical_domain(domain);
    DOMAINS.iter().find(|(n, _)| *n == d).map(|(_, p)| format!("{}{}", p, op_type))
}

impl OnnxOp {
    /// The name a model's node carries (the key without its domain prefix).
    pub fn op_type(&self) -> &'static str {
        self.name.rsplit('.').next().unwrap_or(self.name)
    }

    pub fn attr(&self, name: &str) -> Option<&AttrSpec> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

impl OnnxOp {
    /// The graph attributes that become the op's regions, in region order:
    /// schema order (alphabetical), except that `then_branch` precedes
    /// `else_branch`, as regions of a conditional read everywhere else.
    pub fn region_attrs(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.attrs.iter().filter(|a| a.ty == AttrType::Graph).map(|a| a.name).collect();
        v.sort_by_key(|n| match *n {
            "then_branch" => 0,
            "else_branch" => 1,
            _ => 2,
        });
        v
    }
}

/// The schema of `name` (a key) in effect at `opset` (of its domain): the newest row not newer than it.
pub fn schema(name: &str, opset: u32) -> Option<&'static OnnxOp> {
    crate::op_table::OPS.iter().filter(|o| o.name == name && o.since <= opset).max_by_key(|o| o.since)
}

/// The newest opset any operator row of `domain` ("" for the default one) has.
pub fn newest_opset(domain: &str) -> u32 {
    crate::op_table::OPS.iter().filter(|o| o.domain == domain).map(|o| o.since).max().unwrap_or(1)
}

/// Every operator name, sorted, each with its newest row.
pub fn latest() -> Vec<&'static OnnxOp> {
    let mut v: Vec<&'static OnnxOp> = vec![];
    for o in crate::op_table::OPS {
        match v.last_mut() {
            Some(l) if l.name == o.name => {
                if o.since > l.since {
                    *l = o;
                }
            }
            _ => v.push(o),
        }
    }
    v
}

/// docs/onnx-ops.md: every operator, the opset versions it has a row for, and
/// what the importer does with it (generated; a test checks it is current).
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut s = format!(
        "# ONNX operators\n\nGenerated from the operator table (ONNX {} schemas, `scripts/gen_onnx_ops.py`); a test fails when this file is stale \
         (`npu-translate --list-onnx-ops > docs/onnx-ops.md`).\n\n\
         Import: every operator below imports into the `onnx` dialect at every listed version of its domain; older forms are \
         normalized to the newest (`normalize.rs`). Operators of the domains `ai.onnx.ml`, `ai.onnx.preview.training`, \
         `ai.onnx.preview` and ONNX Runtime's `com.microsoft` (from onnxruntime's schemas) are listed with a prefix (`ml.`, \
         `training.`, `preview.`, `ms.`) that is also in their op names (`onnx.ms.QLinearAdd`), and `npu-translate --export-onnx` writes each op back in its form at the model's opset. Shape \
         rules, folders and patterns live in `dialects/onnx/src/family/`, one file per family; lowering to the CPU and NPU paths comes with later work.\n\n\
         | operator | versions | inputs | outputs | attributes |\n|---|---|---|---|---|\n",
        crate::op_table::ONNX_VERSION
    );
    for op in latest() {
        let versions: Vec<String> = crate::op_table::OPS.iter().filter(|o| o.name == op.name).map(|o| o.since.to_string()).collect();
        let range = |a: u32, b: u32| if a == b { a.to_string() } else if b >= 1 << 20 { format!("{}+", a) } else { format!("{}–{}", a, b) };
        let attrs: Vec<&str> = op.attrs.iter().map(|a| a.name).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            op.name,
            versions.join(", "),
            range(op.min_inputs, op.max_inputs),
            range(op.min_outputs, op.max_outputs),
            attrs.join(", ")
        );
    }
    s
}
