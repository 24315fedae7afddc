//! `npu-schedule`: each NPU partition's tensor-level `npu` ops become one
//! program of schedule-level ops (one per instruction), in a function
//! `@<partition>_program` marked `npu.program`; the partition's body becomes
//! an `npu.launch` of it. Per layer: tile sizes chosen by the cost model
//! from the hardware description ([`conv::plan`]), buffers placed in the
//! scratchpad and accumulator for that layer's lifetime, DMA overlapped with
//! compute through semaphores ([`pipeline`]), and a `fence` before the next
//! layer reads what this one wrote; intermediates that fit stay in the
//! scratchpad between layers ([`residency`]). Constants (weights in tile order, bias
//! rows, reciprocal rows) are laid out in one DRAM image, the `%weights`
//! argument, kept on the program as `npu.const_image`.

pub mod conv;
pub mod movement;
pub mod pipeline;
pub mod residency;
pub mod tiling;
pub mod vector;
pub mod views;

use onnx::ops;
use ir::attributes::{AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, InsertPoint, OpId, OperationState, Value};
use npu::asm::{args_to_attr, Inst, ProgramArg};
use npu::hw::HwDesc;
use std::collections::HashMap;
use std::sync::Arc;

pub struct NpuSchedule;

/// A tensor in DRAM: a program argument and a byte offset.
#[derive(Clone, Debug, PartialEq)]
pub struct Dram {
    pub arg: String,
    pub offset: i64,
}

impl Dram {
    pub fn at(&self, bytes: i64) -> npu::asm::Operand {
        npu::asm::Operand::Dram(self.arg.clone(), self.offset + bytes)
    }
}

/// The constant image: little-endian bytes, each block 64-byte aligned
/// (f32 weights and biases, int8 weights, int32 biases and requantization rows).
#[derive(Default)]
pub struct ConstImage {
    pub data: Vec<u8>,
    /// Weights already packed, by the constant and the geometry they were
    /// packed for: an LSTM written out as steps reads one R at every step.
    pub packed: HashMap<(Value, String), Dram>,
    /// Blocks of up to `SHARED_BLOCK` bytes by their contents: the bands of
    /// one layer (`bands.rs`) pack the same weights for each geometry and
    /// read one copy. An entry a failed attempt truncated away stays: a match
    /// is compared byte for byte before it is used.
    by_content: HashMap<u64, Vec<i64>>,
}

/// Blocks larger than this are not compared (hashing VGG's weights would cost compile time; no band has them).
const SHARED_BLOCK: usize = 4 << 20;

fn content_hash(b: &[u8]) -> u64 {
    let mut h = b.len() as u64;
    for c in b.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h
}

pub use npu_isa::CONST_ARG;
/// The program's intermediate tensors, at offsets in one argument.
pub const SCRATCH_ARG: &str = "scratch";

impl ConstImage {
    fn push_bytes(&mut self, b: impl Iterator<Item = u8>) -> Dram {
        let off = self.data.len() as i64;
        self.data.extend(b);
        while self.data.len() % 64 != 0 {
            self.data.push(0);
        }
        let len = self.data.len() - off as usize;
        if len <= SHARED_BLOCK {
            let h = content_hash(&self.data[off as usize..]);
            let same = self.by_content.get(&h).and_then(|at| at.iter().copied().find(|a| {
                let a = *a as usize;
                a + len <= off as usize && self.data[a..a + len] == self.data[off as usize..]
            }));
            if let Some(a) = same {
                self.data.truncate(off as usize);
                return Dram { arg: CONST_ARG.into(), offset: a };
            }
            self.by_content.entry(h).or_default().push(off);
        }
        Dram { arg: CONST_ARG.into(), offset: off }
    }
    pub fn push(&mut self, v: &[f32]) -> Dram {
        self.push_bytes(v.iter().flat_map(|x| x.to_le_bytes()))
    }
    pub fn push_i8(&mut self, v: &[i8]) -> Dram {
        self.push_bytes(v.iter().map(|x| *x as u8))
    }
    pub fn push_i32(&mut self, v: &[i32]) -> Dram {
        self.push_bytes(v.iter().flat_map(|x| x.to_le_bytes()))
    }
}

/// What every kernel gets; it declares the buffers its instructions address.
pub struct Layer<'a> {
    pub hw: &'a HwDesc,
    pub out: &'a mut Vec<Inst>,
    pub consts: &'a mut ConstImage,
    pub buffers: Vec<npu::asm::Buffer>,
}

/// The values of a constant operand (f32, i8, i32: exact as f64).
pub fn const_values(body: &Body, v: Value) -> Result<Vec<f64>, String> {
    onnx::infer::const_f64s(body, v).ok_or_else(|| "operand is not a constant".to_string())
}

/// A constant operand pushed into the program's constant image as f32 (where a kernel reads it from DRAM).
pub fn push_constant(consts: &mut ConstImage, body: &Body, v: Value) -> Result<Dram, String> {
    Ok(consts.push(&const_values(body, v)?.iter().map(|x| *x as f32).collect::<Vec<_>>()))
}

pub fn shape(body: &Body, v: Value) -> Vec<i64> {
    body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default()
}

/// A transpose that only moves unit dims is a reshape: the same bytes.
fn is_alias(body: &Body, op: OpId) -> bool {
    match body.name(op).as_str() {
        ops::Reshape::NAME | ops::Flatten::NAME | ops::Squeeze::NAME | ops::Unsqueeze::NAME => true,
        ops::Transpose::NAME => {
            let s = shape(body, body.op(op).operand(0));
            let Some(p) = body.op(op).ints_attr("perm") else { return false };
            let moved: Vec<i64> = p.into_iter().filter(|d| s[*d as usize] != 1).collect();
            moved.windows(2).all(|w| w[0] < w[1])
        }
        _ => false,
    }
}

fn layer_name(body: &Body, op: OpId) -> String {
    fn names(l: &ir::Location, out: &mut Vec<String>) {
        match &*l.data() {
            ir::location::LocData::Name { name, .. } => out.push(name.clone()),
            ir::location::LocData::Fused { locs, .. } => locs.iter().for_each(|l| names(l, out)),
            _ => {}
        }
    }
    let mut v = vec![];
    names(&body.op(op).loc, &mut v);
    v.dedup();
    if v.is_empty() {
        body.name(op).as_str().to_string()
    } else {
        v.join("+")
    }
}

/// Schedules one partition; returns the program's instructions, arguments and constant image.
pub fn schedule_function(body: &Body, f: OpId, hw: &HwDesc) -> Result<(Vec<Inst>, Vec<ProgramArg>, ConstImage, Vec<String>, Vec<String>), String> {
    let entry = body.entry_block(f).ok_or("partition without body")?;
    let ret = body.last_op(entry).ok_or("empty partition")?;
    let mut dram: HashMap<Value, Dram> = HashMap::new();
    let mut args = vec![];
    let mut in_names = vec![];
    let dtype = |v: Value| body.value_type(v).element_type().map(|e| e.to_string()).unwrap_or_default();
    for (i, a) in body.block_args(entry).iter().enumerate() {
        let name = format!("in{}", i);
        args.push(ProgramArg { name: name.clone(), dir: "in".into(), dtype: dtype(*a), shape: shape(body, *a) });
        dram.insert(*a, Dram { arg: name.clone(), offset: 0 });
        in_names.push(name);
    }
    // Returned values: their alias roots become the output arguments.
    let root = |mut v: Value| {
        while let Some(d) = body.defining_op(v).filter(|d| is_alias(body, *d)) {
            v = body.op(d).operand(0);
        }
        v
    };
    let mut out_of: HashMap<Value, String> = HashMap::new();
    let mut out_names = vec![];
    // Results that are (reshapes of) arguments: copied at the end.
    let mut copies = vec![];
    for (i, r) in body.op(ret).operands().iter().enumerate() {
        let rv = root(*r);
        let name = format!("out{}", i);
        if body.value_block(rv) == Some(entry) && body.defining_op(rv).is_none() {
            copies.push((dram[&rv].clone(), Dram { arg: name.clone(), offset: 0 }, rv));
            args.push(ProgramArg { name: name.clone(), dir: "out".into(), dtype: dtype(rv), shape: shape(body, rv) });
            out_names.push(name);
            continue;
        }
        let name = out_of.entry(rv).or_insert(name).clone();
        if !args.iter().any(|a: &ProgramArg| a.name == name) {
            args.push(ProgramArg { name: name.clone(), dir: "out".into(), dtype: dtype(rv), shape: shape(body, rv) });
        }
        out_names.push(name);
    }
    let mut insts = vec![];
    let mut consts = ConstImage::default();
    let work = residency::working_part(hw);
    // Constants a kernel reads from DRAM as they are, where they lie in the image.
    let mut in_image: HashMap<Value, Dram> = HashMap::new();
    // Intermediate tensors: one DRAM scratch argument, each tensor 64-byte
    // aligned, until `residency` keeps what fits in the scratchpad.
    let mut scratch = 0i64;
    let mut tensors = vec![];
    // Concatenations written in place: each piece where it lies in the whole.
    let mut into: HashMap<Value, (Value, i64)> = HashMap::new();
    for op in body.block_ops(entry).filter(|o| body.name(*o).as_str() == npu::ops::CONCAT) {
        for (v, at) in views::concat_pieces(body, op).unwrap_or_default() {
            into.insert(v, (body.op(op).result(0), at));
        }
    }
    for op in body.block_ops(entry) {
        let name = body.name(op);
        let n = name.as_str();
        if n == ops::Constant::NAME || n == func::ops::RETURN {
            continue;
        }
        if is_alias(body, op) {
            let x = body.op(op).operand(0);
            let d = dram.get(&x).cloned().ok_or_else(|| format!("{}: input not in DRAM", body.op(op).loc))?;
            dram.insert(body.op(op).result(0), d);
            continue;
        }
        if !n.starts_with("npu.") && n != ops::Transpose::NAME {
            return Err(format!("{}: '{}' has no NPU schedule (run convert-onnx-to-npu and canonicalize first)", body.op(op).loc, n));
        }
        let y = body.op(op).result(0);
        if n == npu::ops::SLICE && !out_of.contains_key(&y) {
            // A contiguous slice is its input at an offset.
            if let (Some(at), Some(d)) = (views::slice_offset(body, op, conv::lanes_of(hw)), dram.get(&body.op(op).operand(0)).cloned()) {
                dram.insert(y, Dram { arg: d.arg, offset: d.offset + at });
                continue;
            }
        }
        if n == npu::ops::CONCAT && dram.contains_key(&y) {
            // Its pieces were stored in place.
            continue;
        }
        let mut place = |v: Value| -> Result<Dram, String> {
            if let Some(a) = out_of.get(&v) {
                return Ok(Dram { arg: a.clone(), offset: 0 });
            }
            let at = scratch;
            let elem = body.value_type(v).element_type().and_then(ir::attributes::element_bytes).ok_or_else(|| format!("{}: a result of no fixed element size", body.op(op).loc))?;
            let bytes = shape(body, v).iter().product::<i64>() * elem as i64;
            scratch += (bytes + 63) / 64 * 64;
            tensors.push(residency::Scratch { offset: at, bytes, elem: elem as i64 });
            Ok(Dram { arg: SCRATCH_ARG.into(), offset: at })
        };
        let out = match into.get(&y) {
            Some((whole, at)) => {
                let base = match dram.get(whole) {
                    Some(d) => d.clone(),
                    None => place(*whole)?,
                };
                dram.insert(*whole, base.clone());
                Dram { arg: base.arg, offset: base.offset + at }
            }
            None => place(y)?,
        };
        dram.insert(y, out.clone());
        let ins: Vec<Dram> = if n == npu::ops::BATCH_MATMUL {
            // Both operands are read from DRAM: a constant one goes into the image as it is, once.
            let mut v = vec![];
            for x in body.op(op).operands() {
                v.push(match dram.get(x).or_else(|| in_image.get(x)) {
                    Some(d) => d.clone(),
                    None => {
                        let d = push_constant(&mut consts, body, *x).map_err(|e| format!("{}: {}", body.op(op).loc, e))?;
                        in_image.insert(*x, d.clone());
                        d
                    }
                });
            }
            v
        } else {
            body.op(op).operands().iter().filter_map(|v| dram.get(v).cloned()).collect()
        };
        // The MACs of the ONNX op a product computes; none for other layers (an int8
        // eltwise's or pool's passes through an identity tile or `v.mac` are not the model's work).
        let macs = body.op(op).attr("macs").and_then(|a| a.as_int()).unwrap_or(0).max(0);
        insts.push(Inst::layer(&layer_name(body, op)).i("macs", macs as i64));
        let marker = insts.len() - 1;
        // A layer works in the lower part of the scratchpad where the target keeps
        // tensors on chip (`residency`), in all of it where it cannot otherwise.
        let mut r = Err(String::new());
        // A map it reads or writes that could stay on chip, larger than its
        // weights (which a plan in part of the scratchpad may read more than
        // once), keeps it in the lower part.
        let on_chip_rows = (hw.spad_rows - work.spad_rows) as i64;
        let bytes = |v: &Value| shape(body, *v).iter().product::<i64>() * body.value_type(*v).element_type().and_then(ir::attributes::element_bytes).unwrap_or(4) as i64;
        let weights = body.op(op).operands().get(1).filter(|w| !dram.contains_key(w)).map(bytes).unwrap_or(0);
        // The tensor a value lies in: a slice view's or a piece's is the whole one.
        let could_stay = |v: &Value| {
            // `tensors` grows in offset order: the last one starting at or before the address.
            let Some(d) = dram.get(v).filter(|d| d.arg == SCRATCH_ARG) else { return false };
            let Some(t) = tensors.partition_point(|t| t.offset <= d.offset).checked_sub(1).map(|k| &tensors[k]).filter(|t| d.offset < t.offset + t.bytes) else { return false };
            let rows = (t.bytes / t.elem + hw.array_cols as i64 - 1) / hw.array_cols as i64;
            rows <= on_chip_rows && t.bytes >= weights
        };
        let keeps_one = body.op(op).operands().iter().chain(body.op(op).results()).any(could_stay);
        let whole = matches!(n, npu::ops::CONV | npu::ops::MATMUL | npu::ops::BATCH_MATMUL) && !keeps_one && !conv::plans_as_well_in(body, op, hw, &work);
        for hw in if whole { vec![hw] } else { vec![&work, hw] } {
            let image = consts.data.len();
            insts.truncate(marker + 1);
            let mut l = Layer { hw, out: &mut insts, consts: &mut consts, buffers: vec![] };
            r = match n {
                npu::ops::CONV | npu::ops::MATMUL | npu::ops::BATCH_MATMUL => conv::emit(&mut l, body, op, &ins, &out),
                npu::ops::ELTWISE | npu::ops::ACT => vector::eltwise(&mut l, body, op, &ins, &out),
                npu::ops::SLICE | npu::ops::CONCAT | npu::ops::UPSAMPLE | npu::ops::PAD | ops::Transpose::NAME => movement::emit(&mut l, body, op, &ins, &out),
                npu::ops::POOL => vector::pool(&mut l, body, op, &ins, &out),
                npu::ops::LUT => vector::lut(&mut l, body, op, &ins, &out),
                npu::ops::LAYERNORM | npu::ops::SOFTMAX => vector::row_norm(&mut l, body, op, &ins, &out),
                _ => Err(format!("'{}' has no schedule yet", n)),
            }
            .map(|()| std::mem::take(&mut l.buffers));
            if r.is_ok() {
                break;
            }
            // Nothing of the failed attempt stays in the image.
            consts.data.truncate(image);
            consts.packed.retain(|_, d| d.offset < image as i64);
        }
        insts[marker].buffers = r.map_err(|e| format!("{}: {}: {}", body.op(op).loc, n, e))?;
    }
    for (src, dst, v) in copies {
        insts.push(Inst::layer("copy").i("macs", 0));
        let marker = insts.len() - 1;
        let mut l = Layer { hw, out: &mut insts, consts: &mut consts, buffers: vec![] };
        movement::copy(&mut l, body, v, &src, &dst)?;
        insts[marker].buffers = std::mem::take(&mut l.buffers);
    }
    let scratch = residency::place(&mut insts, &tensors, hw).scratch_bytes;
    if scratch > 0 {
        args.push(ProgramArg { name: SCRATCH_ARG.into(), dir: "out".into(), dtype: "i8".into(), shape: vec![scratch] });
    }
    insts.push(Inst::new("halt", None));
    let total = consts.data.len().max(64) as i64;
    consts.data.resize(total as usize, 0);
    args.push(ProgramArg { name: CONST_ARG.into(), dir: "in".into(), dtype: "i8".into(), shape: vec![total] });
    Ok((insts, args, consts, in_names, out_names))
}

fn strings(v: &[String]) -> Attribute {
    Attribute::new(AttrData::Array(v.iter().map(|s| Attribute::string(s)).collect()))
}

impl Pass for NpuSchedule {
    fn argument(&self) -> &'static str {
        "npu-schedule"
    }
    fn display_name(&self) -> &'static str {
        "NpuSchedule"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let hw = super::target::module_hw(body, module)?;
        let mb = body.region_blocks(body.op(module).regions()[0])[0];
        let funcs: Vec<OpId> = body.block_ops(mb).filter(|f| backend::partition::partition_backend(body, *f) == Some(super::target::NAME) && body.entry_block(*f).is_some()).collect();
        for f in funcs {
            let entry = body.entry_block(f).unwrap();
            if body.block_ops(entry).any(|o| body.name(o).as_str() == npu::ops::LAUNCH) {
                continue;
            }
            let (insts, args, consts, ins, outs) = schedule_function(body, f, &hw)?;
            build_program(ctx, body, f, &hw, insts, args, consts, ins, outs)?;
        }
        if body.op(module).attr(npu::attrs::HW).is_none() {
            body.op_mut(module).attributes.set(ctx.ident(npu::attrs::HW), hw.to_attr(ctx));
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn build_program(ctx: &Context, body: &mut Body, f: OpId, hw: &HwDesc, insts: Vec<Inst>, args: Vec<ProgramArg>, consts: ConstImage, ins: Vec<String>, outs: Vec<String>) -> Result<(), String> {
    let fname = body.op(f).str_attr("sym_name").unwrap_or("npu").to_string();
    let pname = format!("{}_program", fname);
    let loc = body.op(f).loc.clone();
    let (pf, pb) = func::FunctionBuilder::create(ctx, body, &pname, &[], &[], loc.clone());
    body.op_mut(pf).properties.set(ctx.ident("sym_visibility"), Attribute::string("private"));
    let a = &mut body.op_mut(pf).attributes;
    a.set(ctx.ident(npu::attrs::PROGRAM), Attribute::unit());
    a.set(ctx.ident(npu::attrs::HW), hw.to_attr(ctx));
    a.set(ctx.ident(npu::attrs::ARGS), args_to_attr(ctx, &args));
    let bytes: Vec<u8> = consts.data;
    let ty = ctx.intern_type(ir::types::TypeData::RankedTensor { shape: vec![bytes.len() as i64], elem: ctx.int_type(8), encoding: None });
    let image = Attribute::new(AttrData::DenseResource { ty, resource: ir::attributes::Resource::new(&format!("{}_weights", fname), 64, Arc::new(bytes)) });
    body.op_mut(pf).attributes.set(ctx.ident(npu::attrs::CONST_IMAGE), image);
    body.insert(pf, InsertPoint::Before(f));
    let ret = func::FunctionBuilder::ret(ctx, body, pb, &[], loc.clone());
    npu::asm::build(ctx, body, InsertPoint::Before(ret), &insts, &loc, hw.array_cols as i64)?;
    // The partition now launches the program.
    let entry = body.entry_block(f).unwrap();
    let old_ret = body.last_op(entry).unwrap();
    let results: Vec<ir::Type> = body.op(old_ret).operands().iter().map(|v| body.value_type(*v).clone()).collect();
    let operands = body.block_args(entry).to_vec();
    let st = OperationState::new(ctx.op_name(npu::ops::LAUNCH), loc.clone())
        .operands(&operands)
        .results(&results)
        .property(ctx.ident("program"), Attribute::symbol(&pname))
        .property(ctx.ident("inputs"), strings(&ins))
        .property(ctx.ident("outputs"), strings(&outs));
    let launch = body.build(st, InsertPoint::Before(old_ret));
    let rs = body.op(launch).results().to_vec();
    body.set_operands(old_ret, &rs);
    // Everything else in the partition is dead now.
    let dead: Vec<OpId> = body.block_ops(entry).filter(|o| *o != launch && *o != old_ret).collect();
    for o in dead.into_iter().rev() {
        body.erase(o);
    }
    Ok(())
}
