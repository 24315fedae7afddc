//! A module partitioned over an ordered list of backends and every partition
//! that is not the CPU's compiled: other backends' through
//! `Backend::compile`, npu16's through its conversion and scheduler, with a
//! partition a backend cannot compile given to the next one of the list (the
//! CPU last) and the reason kept on its ops. No LLVM: `npu-translate
//! --emit=npu-asm` runs this without the CPU code generator; `npu-run`
//! compiles the CPU partitions afterwards.

use crate::phases;
use ir::{Body, Context, OpId};

/// The backends a `--target` list names, checked against the registry, the
/// CPU last; `npu` is short for `npu16,cpu`.
pub fn target_list(text: &str) -> Result<Vec<String>, String> {
    npu16::target::register();
    let list: Vec<String> = text.split(',').map(|s| s.trim()).map(|s| if s == "npu" { npu16::target::NAME.to_string() } else { s.to_string() }).collect();
    Ok(backend::resolve(&list)?.iter().map(|b| b.name().to_string()).collect())
}

/// A partition compiled by another backend through `Backend::compile`.
pub struct Executable {
    pub backend: String,
    pub partition: String,
    pub exe: Box<dyn backend::Executable>,
}

fn compile_other_backends(ctx: &Context, body: &mut Body, module: OpId, targets: &[String], refusals: &mut Refusals) -> Result<Vec<Executable>, String> {
    let mut out = vec![];
    for b in backend::resolve(targets)? {
        if b.name() == npu16::target::NAME || b.name() == backend::CPU {
            continue;
        }
        for f in backend::partition::partitions_of(body, module, b.name()) {
            let partition = body.op(f).str_attr("sym_name").unwrap_or("").to_string();
            phases::begin("other backends' compile");
            match b.compile(ctx, body, module, f) {
                Ok(exe) => out.push(Executable { backend: b.name().to_string(), partition, exe }),
                Err(e) => refusals.compile_failed(ctx, body, f, b.name(), &e),
            }
        }
    }
    Ok(out)
}

/// npu16's partitions lowered: after conversion (what the host reference
/// evaluates) and after scheduling. A partition npu16 cannot compile goes to
/// the CPU with the reason (`backend::partition::fall_back_to_cpu`) instead of
/// failing the model: when the whole module does not lower, each partition is
/// tried alone to find the ones that fail.
fn lower_npu16(ctx: &Context, body: &mut Body, module: OpId, refusals: &mut Refusals) -> Result<(Body, Body), String> {
    const CONVERT: &str = "builtin.module(convert-onnx-to-npu, canonicalize)";
    const SCHEDULE: &str = "builtin.module(npu-schedule)";
    let lower = |b: &Body| -> Result<(Body, Body), String> {
        phases::begin("npu16: conversion to the npu dialect");
        let mut converted = b.clone();
        crate::pipelines::run(ctx, &mut converted, module, CONVERT)?;
        phases::begin("npu16: scheduling (tiling, memory plan, instructions)");
        let mut scheduled = converted.clone();
        crate::pipelines::run(ctx, &mut scheduled, module, SCHEDULE)?;
        Ok((converted, scheduled))
    };
    let npu = npu16::target::NAME;
    let first = match lower(body) {
        Ok(r) => return Ok(r),
        Err(e) => e,
    };
    let mut failed = 0;
    for f in backend::partition::partitions_of(body, module, npu) {
        // This partition alone on npu16, every other one on the CPU.
        let mut alone = body.clone();
        for g in backend::partition::partitions_of(&alone, module, npu) {
            if g != f {
                alone.op_mut(g).attributes.set(ctx.ident(backend::partition::PARTITION_ATTR), ir::attributes::Attribute::string(backend::CPU));
            }
        }
        if let Err(e) = lower(&alone) {
            refusals.compile_failed(ctx, body, f, npu, &e);
            failed += 1;
        }
    }
    if failed == 0 {
        return Err(first);
    }
    lower(body)
}

/// Partitions `module` over `targets` and compiles every partition that is
/// not the CPU's: other backends' through `Backend::compile`, npu16's through
/// its conversion and scheduler. Partitioned and compiled again until no
/// backend with a successor before the CPU fails a partition: each round
/// records the failures on the ops (`backend::partition::refuse`), so the next
/// backend of the list is asked. `body` ends partitioned (with the fallbacks);
/// returns the other backends' executables and npu16's partitions after
/// conversion (for the host reference) and after scheduling.
pub fn partition_and_compile(ctx: &Context, body: &mut Body, module: OpId, targets: &[String], placement: Option<&str>) -> Result<(Vec<Executable>, Body, Body), String> {
    let placement = placement.map(|p| format!(" placement={}", p)).unwrap_or_default();
    let partition = format!("builtin.module(npu-partition{{targets={}{}}})", targets.join(","), placement);
    backend::partition::number_ops(ctx, body, module);
    let mut refused = body.clone();
    let mut round = 0;
    loop {
        round += 1;
        *body = refused.clone();
        phases::begin("partitioning over the backends");
        crate::pipelines::run(ctx, body, module, &partition)?;
        let mut refusals = Refusals { targets: targets.to_vec(), precise: round <= PRECISE_ROUNDS, again: vec![] };
        let executables = compile_other_backends(ctx, body, module, targets, &mut refusals)?;
        let (reference_body, scheduled) = lower_npu16(ctx, body, module, &mut refusals)?;
        // Each round marks ops that were not marked for that backend before
        // (a marked op is never placed there again), so the rounds end.
        let marked: usize = refusals.again.iter().map(|(ids, name, message)| backend::partition::refuse(ctx, &mut refused, module, ids, name, message)).sum();
        if marked == 0 {
            return Ok((executables, reference_body, scheduled));
        }
    }
}

/// Rounds of partitioning in which a compile error naming its ops refuses only
/// them; after these a failed partition leaves its backend whole.
const PRECISE_ROUNDS: usize = 6;

/// `module` (imported, shapes inferred) partitioned over npu16 and the CPU
/// and scheduled, as `npu-translate --emit=npu-asm` writes it: a partition
/// npu16 cannot compile is left to the CPU (with its reason on the ops)
/// instead of failing, as in `npu-run`.
pub fn schedule_for_npu16(ctx: &Context, body: &mut Body, module: OpId) -> Result<(), String> {
    npu16::target::register();
    let targets = [npu16::target::NAME.to_string(), backend::CPU.to_string()];
    let (_, _, scheduled) = partition_and_compile(ctx, body, module, &targets, None)?;
    *body = scheduled;
    Ok(())
}

/// Puts each `BACKEND.KEY=VALUE` of `settings` into that backend's hardware
/// description on the module (`backend.hw.<name>`), checked against its keys.
pub fn apply_backend_settings(ctx: &Context, body: &mut Body, module: OpId, targets: &[String], settings: &[String]) -> Result<(), String> {
    for s in settings {
        let (name, rest) = s.split_once('.').ok_or_else(|| format!("--set {}: expected BACKEND.KEY=VALUE", s))?;
        if !targets.iter().any(|t| t == name) {
            return Err(format!("--set {}: backend '{}' is not in the target list ({})", s, name, targets.join(",")));
        }
        let b = backend::resolve(&[name.to_string()])?.remove(0);
        let keys = b.hw_keys();
        if keys.is_empty() {
            return Err(format!("--set {}: backend '{}' has no hardware description keys", s, name));
        }
        let mut desc = backend::hw::HwDesc::of_module(body, module, name, &keys)?;
        desc.set(&keys, rest).map_err(|e| format!("--set {}: {}", s, e))?;
        body.op_mut(module).attributes.set(ctx.ident(&backend::hw::attr_name(name)), desc.to_attr(ctx));
    }
    Ok(())
}

/// The partitions backends could not compile in one attempt. Each goes to the
/// CPU at once; when the failed backend has another before the CPU in the
/// list, its ops are also recorded, so that partitioning again without it
/// gives them to that next backend. When the error names the ops at fault,
/// only they are recorded, and the others are partitioned and compiled again.
struct Refusals {
    targets: Vec<String>,
    /// Whether an error naming its ops refuses only them (not after a few rounds: each costs a compile).
    precise: bool,
    /// (the ops' numbers, the backend, why): for the next attempt.
    again: Vec<(Vec<i64>, String, String)>,
}

impl Refusals {
    fn compile_failed(&mut self, ctx: &Context, body: &mut Body, f: OpId, name: &str, error: &str) {
        let message = format!("{} could not compile its partition: {}", name, bare_message(error));
        let next = self.targets.iter().position(|t| t == name).and_then(|i| self.targets.get(i + 1));
        let named = backend::partition::named_op_numbers(body, f, error);
        if next.is_some_and(|n| n != backend::CPU) {
            self.again.push((backend::partition::op_numbers(body, f), name.to_string(), message.clone()));
        } else if self.precise && !named.is_empty() && named.len() < backend::partition::op_numbers(body, f).len() {
            // The error names the ops at fault: only they leave the backend; the rest is compiled again.
            self.again.push((named, name.to_string(), message.clone()));
        }
        backend::partition::fall_back_to_cpu(ctx, body, f, &backend::Unsupported::new(backend::Reason::CompileFailed, message));
    }
}

/// A diagnostic's first line without its locations and severity
/// (`loc(...): error: loc("gap"): npu.pool: ...` → `npu.pool: ...`).
fn bare_message(e: &str) -> String {
    let mut s = e.lines().next().unwrap_or("").trim();
    loop {
        if let Some(rest) = s.strip_prefix("error: ") {
            s = rest;
            continue;
        }
        if s.starts_with("loc(") {
            let mut depth = 0;
            let end = s.char_indices().find_map(|(i, c)| {
                depth += (c == '(') as i32 - (c == ')') as i32;
                (c == ')' && depth == 0).then_some(i)
            });
            if let Some(rest) = end.and_then(|i| s[i + 1..].strip_prefix(": ")) {
                s = rest;
                continue;
            }
        }
        return s.to_string();
    }
}

