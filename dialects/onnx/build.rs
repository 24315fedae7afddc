//! Generates the onnx dialect's typed op accessors (`onnx::ops`, in OUT_DIR)
//! from the operator table, as MLIR's ODS generates accessors from op
//! definitions: a struct per operator (its newest schema) with its name, a
//! checked view of an op, its operands and results by their ONNX names and
//! its attributes by type, with the schema's defaults. The table stays the
//! one place an operator is declared.

#[allow(dead_code)]
#[path = "src/table.rs"]
mod table;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "src/op_table.rs"]
mod op_table;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use table::{AttrType, Default, OnnxOp, ParamKind};

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract",
    "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];
/// Method names every accessor struct has already.
const TAKEN: &[&str] = &["of", "op", "name"];

fn snake(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = i + 1 < chars.len() && chars[i + 1].is_ascii_lowercase() && i > 0 && chars[i - 1].is_ascii_uppercase();
            if (prev_lower || next_lower) && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            out.push('_');
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("r#{}", name)
    } else {
        name.to_string()
    }
}

/// A method name not yet used on this struct.
fn unique(base: String, suffix: &str, used: &mut HashSet<String>) -> String {
    let mut n = base.clone();
    if used.contains(&n) || TAKEN.contains(&n.as_str()) || n == "self" || n == "Self" || n == "crate" || n == "super" {
        n = format!("{}_{}", base, suffix);
    }
    let mut k = 2;
    while used.contains(&n) {
        n = format!("{}_{}{}", base, suffix, k);
        k += 1;
    }
    used.insert(n.clone());
    n
}

fn lit_f(x: f64) -> String {
    if x.is_finite() {
        format!("{:?}_f64", x)
    } else if x.is_nan() {
        "f64::NAN".into()
    } else if x > 0.0 {
        "f64::INFINITY".into()
    } else {
        "f64::NEG_INFINITY".into()
    }
}

fn accessors(w: &mut String, op: &OnnxOp, ty: &str) {
    let full = format!("onnx.{}", op.name);
    let _ = writeln!(w, "/// `{}` (opset {}): its operands, results and attributes by their ONNX names.", full, op.since);
    let _ = writeln!(w, "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct {}(pub ir::OpId);\n", ty);
    let _ = writeln!(w, "impl {} {{", ty);
    let _ = writeln!(w, "    pub const NAME: &'static str = {:?};", full);
    let _ = writeln!(w, "    /// `op` as a `{}`, if it is one.", full);
    let _ = writeln!(w, "    pub fn of(body: &ir::Body, op: ir::OpId) -> Option<Self> {{\n        (body.name(op).as_str() == Self::NAME).then_some(Self(op))\n    }}");
    let _ = writeln!(w, "    pub fn op(self) -> ir::OpId {{\n        self.0\n    }}");
    let mut used: HashSet<String> = HashSet::new();
    // Operands: the ones before a variadic one by position; a variadic one takes the rest.
    for (i, p) in op.inputs.iter().enumerate() {
        let m = ident(&unique(snake(p.name), "operand", &mut used));
        match p.kind {
            ParamKind::Single => {
                let _ = writeln!(w, "    /// Operand {} (`{}`).\n    pub fn {}(self, body: &ir::Body) -> ir::Value {{\n        body.op(self.0).operand({})\n    }}", i, p.name, m, i);
            }
            ParamKind::Optional => {
                let _ = writeln!(
                    w,
                    "    /// Operand {} (`{}`), if given (not absent nor `onnx.NoValue`).\n    pub fn {}(self, body: &ir::Body) -> Option<ir::Value> {{\n        crate::dialect::present_operand(body, self.0, {})\n    }}",
                    i, p.name, m, i
                );
            }
            ParamKind::Variadic => {
                let _ = writeln!(
                    w,
                    "    /// Operands {}.. (`{}`, variadic).\n    pub fn {}(self, body: &ir::Body) -> &[ir::Value] {{\n        body.op(self.0).operands().get({}..).unwrap_or(&[])\n    }}",
                    i, p.name, m, i
                );
            }
        }
    }
    for (i, p) in op.outputs.iter().enumerate() {
        let m = ident(&unique(snake(p.name), "result", &mut used));
        match p.kind {
            ParamKind::Variadic => {
                let _ = writeln!(
                    w,
                    "    /// Results {}.. (`{}`, variadic).\n    pub fn {}(self, body: &ir::Body) -> &[ir::Value] {{\n        body.op(self.0).results().get({}..).unwrap_or(&[])\n    }}",
                    i, p.name, m, i
                );
            }
            ParamKind::Single => {
                let _ = writeln!(w, "    /// Result {} (`{}`).\n    pub fn {}(self, body: &ir::Body) -> ir::Value {{\n        body.op(self.0).result({})\n    }}", i, p.name, m, i);
            }
            ParamKind::Optional => {
                let _ = writeln!(
                    w,
                    "    /// Result {} (`{}`), if the op has it.\n    pub fn {}(self, body: &ir::Body) -> Option<ir::Value> {{\n        body.op(self.0).results().get({}).copied()\n    }}",
                    i, p.name, m, i
                );
            }
        }
    }
    for a in op.attrs {
        let m = ident(&unique(snake(a.name), "attr", &mut used));
        let n = a.name;
        let doc = format!("    /// Attribute `{}`", n);
        match (a.ty, &a.default) {
            (AttrType::Int, Some(Default::Int(d))) => {
                let _ = writeln!(w, "{} (default {}).\n    pub fn {}(self, body: &ir::Body) -> i64 {{\n        body.op(self.0).int_attr({:?}).unwrap_or({})\n    }}", doc, d, m, n, d);
            }
            (AttrType::Int, _) => {
                let _ = writeln!(w, "{}.\n    pub fn {}(self, body: &ir::Body) -> Option<i64> {{\n        body.op(self.0).int_attr({:?})\n    }}", doc, m, n);
            }
            (AttrType::Float, Some(Default::Float(d))) => {
                let _ = writeln!(w, "{} (default {}).\n    pub fn {}(self, body: &ir::Body) -> f64 {{\n        body.op(self.0).float_attr({:?}).unwrap_or({})\n    }}", doc, d, m, n, lit_f(*d));
            }
            (AttrType::Float, _) => {
                let _ = writeln!(w, "{}.\n    pub fn {}(self, body: &ir::Body) -> Option<f64> {{\n        body.op(self.0).float_attr({:?})\n    }}", doc, m, n);
            }
            (AttrType::String, Some(Default::Str(d))) => {
                let _ = writeln!(
                    w,
                    "{} (default {:?}).\n    pub fn {}(self, body: &ir::Body) -> &str {{\n        body.op(self.0).str_attr({:?}).unwrap_or({:?})\n    }}",
                    doc, d, m, n, d
                );
            }
            (AttrType::String, _) => {
                let _ = writeln!(w, "{}.\n    pub fn {}(self, body: &ir::Body) -> Option<&str> {{\n        body.op(self.0).str_attr({:?})\n    }}", doc, m, n);
            }
            (AttrType::Ints, Some(Default::Ints(d))) => {
                let _ = writeln!(
                    w,
                    "{} (default {:?}).\n    pub fn {}(self, body: &ir::Body) -> Vec<i64> {{\n        body.op(self.0).ints_attr({:?}).unwrap_or_else(|| vec!{:?})\n    }}",
                    doc, d, m, n, d
                );
            }
            (AttrType::Ints, _) => {
                let _ = writeln!(w, "{}.\n    pub fn {}(self, body: &ir::Body) -> Option<Vec<i64>> {{\n        body.op(self.0).ints_attr({:?})\n    }}", doc, m, n);
            }
            (AttrType::Floats, _) => {
                let _ = writeln!(w, "{}.\n    pub fn {}(self, body: &ir::Body) -> Option<Vec<f64>> {{\n        body.op(self.0).floats_attr({:?})\n    }}", doc, m, n);
            }
            (AttrType::Graph | AttrType::Graphs, _) => {}
            _ => {
                let _ = writeln!(w, "{}, as it is held.\n    pub fn {}(self, body: &ir::Body) -> Option<&ir::Attribute> {{\n        body.op(self.0).attr({:?})\n    }}", doc, m, n);
            }
        }
    }
    builder(w, op, ty);
    let _ = writeln!(w, "}}\n");
    attrs_struct(w, op, ty);
}

/// The Rust type of attribute kind `t` in a builder's attributes, and the
/// `crate::builder` function that makes its `ir::Attribute` (as the importer would).
fn attr_field(t: AttrType) -> Option<(&'static str, &'static str)> {
    Some(match t {
        AttrType::Int => ("i64", "int_attr"),
        AttrType::Float => ("f64", "float_attr"),
        AttrType::String => ("String", "str_attr"),
        AttrType::Ints => ("Vec<i64>", "ints_attr"),
        AttrType::Floats => ("Vec<f64>", "floats_attr"),
        AttrType::Graph | AttrType::Graphs => return None,
        _ => ("ir::Attribute", "as_is"),
    })
}

/// The fields of `{ty}Attrs`: (field, ONNX name, Rust type, converter).
fn attr_fields(op: &OnnxOp) -> Vec<(String, &'static str, &'static str, &'static str)> {
    let mut used = HashSet::new();
    op.attrs.iter().filter_map(|a| attr_field(a.ty).map(|(rt, conv)| (ident(&unique(snake(a.name), "attr", &mut used)), a.name, rt, conv))).collect()
}

fn has_graphs(op: &OnnxOp) -> bool {
    op.attrs.iter().any(|a| matches!(a.ty, AttrType::Graph | AttrType::Graphs))
}

/// `build`: the op at a builder's point from its operands by ONNX name. Ops
/// with subgraph attributes (If, Loop, Scan) have none: their regions are
/// built by hand.
fn builder(w: &mut String, op: &OnnxOp, ty: &str) {
    if has_graphs(op) {
        return;
    }
    let mut used: HashSet<String> = ["b", "results", "attrs", "slots", "rest"].iter().map(|s| s.to_string()).collect();
    let mut params = vec!["b: &mut crate::builder::Builder".to_string()];
    let mut slots = vec![];
    let mut rest = "&[]".to_string();
    for p in op.inputs {
        let m = ident(&unique(snake(p.name), "operand", &mut used));
        match p.kind {
            ParamKind::Single => {
                params.push(format!("{}: ir::Value", m));
                slots.push(format!("Some({})", m));
            }
            ParamKind::Optional => {
                params.push(format!("{}: Option<ir::Value>", m));
                slots.push(m);
            }
            ParamKind::Variadic => {
                params.push(format!("{}: &[ir::Value]", m));
                rest = m;
            }
        }
    }
    params.push("results: &[ir::Type]".into());
    let fields = attr_fields(op);
    if !fields.is_empty() {
        params.push(format!("attrs: &{}Attrs", ty));
    }
    let _ = writeln!(
        w,
        "    /// Builds `onnx.{}` at `b`'s point: its operands by ONNX name (an absent optional one `None`), its results' types{}.",
        op.name,
        if fields.is_empty() { "" } else { " and the attributes `attrs` sets (the others read as the schema's defaults)" }
    );
    let _ = writeln!(w, "    #[allow(clippy::too_many_arguments)]
    pub fn build({}) -> Self {{", params.join(", "));
    let _ = writeln!(w, "        {}props: Vec<(&'static str, ir::Attribute)> = Vec::new();", if fields.is_empty() { "let " } else { "let mut " });
    for (f, name, _, conv) in &fields {
        let _ = writeln!(w, "        if let Some(v) = &attrs.{} {{
            props.push(({:?}, crate::builder::{}(b.ctx, v)));
        }}", f, name, conv);
    }
    let _ = writeln!(w, "        Self(b.build_op(Self::NAME, &[{}], {}, results, &props))
    }}", slots.join(", "), rest);
}

/// `{ty}Attrs`: the attributes a builder sets, each `None` unless given.
fn attrs_struct(w: &mut String, op: &OnnxOp, ty: &str) {
    let fields = attr_fields(op);
    if has_graphs(op) || fields.is_empty() {
        return;
    }
    let _ = writeln!(w, "/// The attributes `{}::build` sets; `None` reads as the schema's default (a required one left `None`
/// builds an op the verifier refuses).
#[derive(Clone, Debug, Default)]
pub struct {}Attrs {{", ty, ty);
    for (f, name, rt, _) in &fields {
        let _ = writeln!(w, "    /// `{}`
    pub {}: Option<{}>,", name, f, rt);
    }
    let _ = writeln!(w, "}}
");
}

fn main() {
    println!("cargo:rerun-if-changed=src/op_table.rs");
    println!("cargo:rerun-if-changed=src/table.rs");
    println!("cargo:rerun-if-changed=build.rs");
    // Module per key prefix (`ms.QLinearAdd` -> `ms::QLinearAdd`).
    let mut modules: BTreeMap<String, Vec<(&OnnxOp, String)>> = BTreeMap::new();
    for op in table::latest() {
        let (module, ty) = match op.name.split_once('.') {
            Some((m, t)) => (m.to_string(), t.to_string()),
            None => (String::new(), op.name.to_string()),
        };
        modules.entry(module).or_default().push((op, ty));
    }
    let mut w = String::from("// Generated by dialects/onnx/build.rs from the operator table. Do not edit.\n\n");
    for (module, ops) in &modules {
        if !module.is_empty() {
            let _ = writeln!(w, "/// The `onnx.{}.*` operators.\npub mod {} {{", module, ident(module));
        }
        for (op, ty) in ops {
            accessors(&mut w, op, ty);
        }
        if !module.is_empty() {
            let _ = writeln!(w, "}}\n");
        }
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("ops.rs");
    std::fs::write(out, w).expect("OUT_DIR is writable");
}
