//! The printer: MLIR's generic form exactly, or each op's custom form. Value
//! and block names are assigned in one pre-pass (numbering restarts inside
//! isolated-from-above ops, as MLIR's does) so forward references print right.

use crate::attributes::{write_dict_body, write_escaped, write_symbol_name, AttrDict, Attribute, Resource};
use crate::body::{Block, Body, OpId, Region, Value, ValueDef};
use crate::context::Context;
use crate::dialect::Trait;
use crate::location::Location;
use crate::types::{write_results, write_type_list, Type};
use std::fmt::Write;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in the generic form.
    pub generic: bool,
    /// Print locations.
    pub debug_info: bool,
}

const NONE: u32 = u32::MAX;
const ARG: u32 = 1 << 31;

pub struct Printer<'a> {
    pub ctx: &'a Context,
    pub body: &'a Body,
    pub out: String,
    pub opts: PrintOptions,
    indent: usize,
    value_names: Vec<u32>,
    block_names: Vec<u32>,
    resources: Vec<Arc<Resource>>,
    /// Dialect whose prefix custom op names may drop (from the enclosing op).
    default_dialect: Vec<&'static str>,
}

/// Prints `op` (usually the module) with a trailing resource section if needed.
pub fn print_op(ctx: &Context, body: &Body, op: OpId, opts: PrintOptions) -> String {
    let mut p = Printer::new(ctx, body, opts);
    p.assign_names(op);
    p.print_operation(op);
    p.print_resources();
    p.out
}

impl<'a> Printer<'a> {
    pub fn new(ctx: &'a Context, body: &'a Body, opts: PrintOptions) -> Printer<'a> {
        Printer {
            ctx,
            body,
            // About 64 bytes of text per op: one allocation instead of a doubling series.
            out: String::with_capacity(body.op_capacity().saturating_mul(64).max(1 << 12)),
            opts,
            indent: 0,
            value_names: vec![NONE; body.value_capacity()],
            block_names: vec![NONE; body.block_capacity()],
            resources: vec![],
            default_dialect: vec!["builtin"],
        }
    }

    // ---- naming --------------------------------------------------------------

    pub fn assign_names(&mut self, op: OpId) {
        let (mut v, mut a) = (0u32, 0u32);
        self.name_op(op, &mut v, &mut a);
    }

    fn name_op(&mut self, op: OpId, next_val: &mut u32, next_arg: &mut u32) {
        let d = self.body.op(op);
        if !d.results().is_empty() {
            for &r in d.results() {
                self.value_names[r.index()] = *next_val;
            }
            *next_val += 1;
        }
        let isolated = d.name.def().is_some_and(|x| x.has_trait(Trait::IsolatedFromAbove));
        let (mut v, mut a) = if isolated { (0, 0) } else { (*next_val, *next_arg) };
        for &r in d.regions() {
            for (i, &b) in self.body.region_blocks(r).iter().enumerate() {
                self.block_names[b.index()] = i as u32;
                for &arg in self.body.block_args(b) {
                    self.value_names[arg.index()] = ARG | a;
                    a += 1;
                }
                let mut cur = self.body.first_op(b);
                while let Some(o) = cur {
                    self.name_op(o, &mut v, &mut a);
                    cur = self.body.next_op(o);
                }
            }
        }
        if !isolated {
            *next_val = v;
            *next_arg = a;
        }
    }

    // ---- low-level output -------------------------------------------------------

    pub fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    pub fn print_value(&mut self, v: Value) {
        let n = self.value_names.get(v.index()).copied().unwrap_or(NONE);
        if n == NONE {
            self.out.push_str("<<UNKNOWN SSA VALUE>>");
            return;
        }
        if n & ARG != 0 {
            let _ = write!(self.out, "%arg{}", n & !ARG);
            return;
        }
        let _ = write!(self.out, "%{}", n);
        if let ValueDef::OpResult { op, index } = self.body.value_def(v) {
            if self.body.op(op).results().len() > 1 {
                let _ = write!(self.out, "#{}", index);
            }
        }
    }

    pub fn print_values(&mut self, vs: &[Value]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_value(*v);
        }
    }

    pub fn print_type(&mut self, t: &Type) {
        let _ = write!(self.out, "{}", t);
    }

    pub fn print_types(&mut self, ts: &[Type]) {
        let _ = write_type_list(&mut self.out, ts);
    }

    /// The types of values, comma separated.
    pub fn print_value_types(&mut self, vs: &[Value]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}", self.body.value_type(*v));
        }
    }

    pub fn print_attr(&mut self, a: &Attribute) {
        a.collect_resources(&mut self.resources);
        let _ = write!(self.out, "{}", a);
    }

    pub fn print_symbol_name(&mut self, s: &str) {
        let _ = write_symbol_name(&mut self.out, s);
    }

    pub fn print_string(&mut self, s: &str) {
        let _ = write_escaped(&mut self.out, s.as_bytes());
    }

    /// ` {a = 1}` unless empty once `elided` names are dropped.
    pub fn print_attr_dict(&mut self, d: &AttrDict, elided: &[&str]) {
        self.print_attr_dict_impl(d, elided, "")
    }

    /// ` attributes {a = 1}` unless empty once `elided` names are dropped.
    pub fn print_attr_dict_with_keyword(&mut self, d: &AttrDict, elided: &[&str]) {
        self.print_attr_dict_impl(d, elided, " attributes")
    }

    fn print_attr_dict_impl(&mut self, d: &AttrDict, elided: &[&str], kw: &str) {
        let mut kept = AttrDict::new();
        for (k, v) in d.iter() {
            if !elided.contains(&k.as_str()) {
                kept.set(*k, v.clone());
                v.collect_resources(&mut self.resources);
            }
        }
        if kept.is_empty() {
            return;
        }
        self.out.push_str(kw);
        self.out.push_str(" {");
        let _ = write_dict_body(&mut self.out, &kept);
        self.out.push('}');
    }

    pub fn print_loc(&mut self, l: &Location) {
        let _ = write!(self.out, "{}", l);
    }

    /// ` loc(...)` when printing debug info.
    pub fn print_optional_loc(&mut self, l: Option<&Location>) {
        if self.opts.debug_info {
            if let Some(l) = l {
                self.out.push(' ');
                self.print_loc(l);
            }
        }
    }

    pub fn print_block_name(&mut self, b: Block) {
        let n = self.block_names.get(b.index()).copied().unwrap_or(NONE);
        if n == NONE {
            self.out.push_str("<<UNKNOWN BLOCK>>");
        } else {
            let _ = write!(self.out, "^bb{}", n);
        }
    }

    /// `%arg0: i32 loc(...)`.
    pub fn print_block_arg(&mut self, v: Value) {
        self.print_value(v);
        self.out.push_str(": ");
        let t = self.body.value_type(v).clone();
        self.print_type(&t);
        let l = self.body.value_loc(v).cloned();
        self.print_optional_loc(l.as_ref());
    }

    // ---- operations ------------------------------------------------------------------

    pub fn print_operation(&mut self, op: OpId) {
        let d = self.body.op(op);
        let results = d.results();
        if !results.is_empty() {
            let n = self.value_names.get(results[0].index()).copied().unwrap_or(NONE);
            if n == NONE || n & ARG != 0 {
                self.print_value(results[0]);
            } else {
                let _ = write!(self.out, "%{}", n);
            }
            if results.len() > 1 {
                let _ = write!(self.out, ":{}", results.len());
            }
            self.out.push_str(" = ");
        }
        let custom = if self.opts.generic { None } else { d.name.def().and_then(|x| x.assembly) };
        match custom {
            Some(asm) => {
                let name = d.name.as_str();
                let short = match name.split_once('.') {
                    Some((dia, rest)) if self.default_dialect.last() == Some(&dia) && dia != "builtin" => rest,
                    Some(("builtin", rest)) => rest,
                    _ => name,
                };
                self.out.push_str(short);
                (asm.print)(self, op);
            }
            None => self.print_generic(op),
        }
        let l = self.body.op(op).loc.clone();
        self.print_optional_loc(Some(&l));
    }

    fn print_generic(&mut self, op: OpId) {
        let d = self.body.op(op);
        let _ = write_escaped(&mut self.out, d.name.as_str().as_bytes());
        self.out.push('(');
        self.print_values(d.operands());
        self.out.push(')');
        if !d.successors().is_empty() {
            self.out.push('[');
            for (i, b) in d.successors().iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_block_name(*b);
            }
            self.out.push(']');
        }
        if !d.properties.is_empty() {
            for (_, v) in d.properties.iter() {
                v.collect_resources(&mut self.resources);
            }
            self.out.push_str(" <{");
            let _ = write_dict_body(&mut self.out, &d.properties);
            self.out.push_str("}>");
        }
        if !d.regions().is_empty() {
            self.out.push_str(" (");
            let regions: Vec<Region> = d.regions().to_vec();
            for (i, r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region(op, *r, true, true);
            }
            self.out.push(')');
        }
        let d = self.body.op(op);
        self.print_attr_dict(&d.attributes.clone(), &[]);
        self.out.push_str(" : (");
        let d = self.body.op(op);
        for (i, v) in d.operands().iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}", self.body.value_type(*v));
        }
        self.out.push_str(") -> ");
        let rt: Vec<Type> = d.results().iter().map(|r| self.body.value_type(*r).clone()).collect();
        let _ = write_results(&mut self.out, &rt);
    }

    /// `{ blocks }`. `owner` is the op holding the region (for default dialects).
    pub fn print_region(&mut self, owner: OpId, r: Region, print_entry_args: bool, print_empty_block: bool) {
        self.out.push('{');
        let dd = self.body.op(owner).name.def().and_then(|d| d.default_dialect);
        if let Some(d) = dd {
            self.default_dialect.push(d);
        }
        self.indent += 2;
        let blocks = self.body.region_blocks(r);
        for (i, &b) in blocks.iter().enumerate() {
            let args = self.body.block_args(b);
            let show_header = i > 0
                || (print_entry_args && !args.is_empty())
                || (print_empty_block && args.is_empty() && self.body.block_is_empty(b) && blocks.len() == 1);
            if show_header {
                self.indent -= 2;
                self.newline();
                self.print_block_name(b);
                if !args.is_empty() {
                    self.out.push('(');
                    for (j, a) in args.iter().enumerate() {
                        if j > 0 {
                            self.out.push_str(", ");
                        }
                        self.print_block_arg(*a);
                    }
                    self.out.push(')');
                }
                self.out.push(':');
                self.indent += 2;
            }
            let mut cur = self.body.first_op(b);
            while let Some(o) = cur {
                self.newline();
                self.print_operation(o);
                cur = self.body.next_op(o);
            }
        }
        self.indent -= 2;
        if dd.is_some() {
            self.default_dialect.pop();
        }
        self.newline();
        self.out.push('}');
    }

    /// The trailing `{-# dialect_resources #-}` section for referenced blobs.
    pub fn print_resources(&mut self) {
        let res: Vec<_> = self.resources.iter().filter(|r| r.blob.get().is_some()).cloned().collect();
        if res.is_empty() {
            self.out.push_str("\n\n");
            return;
        }
        self.out.push_str("\n\n{-#\n  dialect_resources: {\n    builtin: {\n");
        for (i, r) in res.iter().enumerate() {
            let blob = r.blob.get().unwrap();
            self.out.push_str("      ");
            if crate::attributes::is_bare_identifier(&r.name) {
                self.out.push_str(&r.name);
            } else {
                let _ = write_escaped(&mut self.out, r.name.as_bytes());
            }
            self.out.push_str(": \"0x");
            push_hex(&mut self.out, &blob.alignment.to_le_bytes());
            push_hex(&mut self.out, blob.bytes());
            self.out.push('"');
            if i + 1 < res.len() {
                self.out.push(',');
            }
            self.out.push('\n');
        }
        self.out.push_str("    }\n  }\n#-}\n\n");
    }
}

/// Appends bytes as uppercase hex (blobs of 100 MB models: no per-byte formatting).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = Vec::with_capacity(bytes.len() * 2);
    for b in bytes {
        buf.push(HEX[(b >> 4) as usize]);
        buf.push(HEX[(b & 15) as usize]);
    }
    // Only ASCII hex digits were pushed.
    out.push_str(std::str::from_utf8(&buf).unwrap_or_default());
}
