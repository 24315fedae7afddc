//! `pack-weight-arguments`: a function's arguments marked `npu.weight` (the
//! weights the JIT passes rather than compiling them in) become one
//! `memref<Nxi8>` argument where the first of them stood, each weight a
//! `memref.view` of it at its offset (`cpu_target::abi::weight_offsets`, by
//! which the runtime packs the bytes). Each memref argument is a pointer pair,
//! an offset, sizes and strides at the LLVM level: a detector's ninety weights
//! made a thousand scalar arguments of the model's function and of its packed
//! wrapper (0.28 s of LLVM's instruction selection for the wrapper alone). It runs after
//! `outline-loop-nests`, whose `llvm.noalias` on the nests' arguments came from
//! the weights being distinct arguments, as their views are distinct buffers.

use cpu_target::abi::{weight_offsets, WEIGHT_ARG};
use ir::attributes::{AttrData, Attribute, AttrDict};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, InsertPoint, OpBuilder, OpId};

pub struct PackWeightArguments;

impl Pass for PackWeightArguments {
    fn argument(&self) -> &'static str {
        "pack-weight-arguments"
    }
    fn display_name(&self) -> &'static str {
        "PackWeightArguments"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let mblock = cx.body.region_blocks(cx.body.op(module).regions()[0])[0];
        let funcs: Vec<OpId> = cx.body.block_ops(mblock).filter(|o| cx.body.name(*o).as_str() == func::ops::FUNC && cx.body.entry_block(*o).is_some()).collect();
        for f in funcs {
            if let Err(e) = pack(ctx, cx.body, f) {
                let loc = cx.body.op(f).loc.clone();
                cx.emit(ir::diagnostics::Diagnostic::error(loc, e));
                return Err("weight arguments could not be packed".into());
            }
        }
        Ok(())
    }
}

fn pack(ctx: &ir::Context, body: &mut Body, f: OpId) -> Result<(), String> {
    let attrs: Vec<Attribute> = body.op(f).properties.get("arg_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    let marked: Vec<usize> = attrs.iter().enumerate().filter(|(_, a)| a.as_dict().is_some_and(|d| d.get(WEIGHT_ARG).is_some())).map(|(i, _)| i).collect();
    let Some(&first) = marked.first() else { return Ok(()) };
    let entry = body.entry_block(f).unwrap();
    let args = body.block_args(entry).to_vec();
    let mut sizes = Vec::new();
    for &i in &marked {
        let t = body.value_type(args[i]).clone();
        let bytes = match t.data() {
            TypeData::MemRef { shape, elem, layout: None, .. } if shape.iter().all(|d| *d >= 0) => crate::element_bytes(elem).map(|b| b as usize * shape.iter().product::<i64>() as usize),
            _ => None,
        };
        sizes.push(bytes.ok_or_else(|| format!("weight argument {} is {}, not a static memref of numbers without a layout", i, t))?);
    }
    let (offsets, total) = weight_offsets(&sizes);
    let i8t = ctx.int_type(8);
    let buffer_type = ctx.intern_type(TypeData::MemRef { shape: vec![total as i64], elem: i8t, layout: None, memory_space: None });
    let buffer = body.insert_block_arg(entry, first, buffer_type, None);
    // Each weight a view at its offset, at the top of the entry block.
    let loc = body.op(f).loc.clone();
    let mut b = OpBuilder::new(ctx, body, InsertPoint::AtStart(entry), loc);
    let index = ctx.index();
    for (k, &i) in marked.iter().enumerate() {
        // Shifted by one: the buffer sits before them.
        let weight = b.body.block_args(entry)[i + 1];
        let shift = arith::ops::Constant::build(&mut b, &[index.clone()], &[("value", Attribute::integer(offsets[k] as i128, index.clone()))]).result(b.body);
        let t = b.body.value_type(weight).clone();
        let view = memref::ops::View::build(&mut b, buffer, shift, &[], &[t], &[]).result(b.body);
        b.body.replace_all_uses(weight, view);
    }
    for &i in marked.iter().rev() {
        body.erase_block_arg(entry, i + 1);
    }
    // The signature and argument attributes to match: the buffer is one
    // allocation the runtime passes once, so noalias as the weights were.
    let mut new_attrs: Vec<Attribute> = attrs.iter().enumerate().filter(|(i, _)| !marked.contains(i)).map(|(_, a)| a.clone()).collect();
    let mut d = AttrDict::new();
    d.set(ctx.ident("llvm.noalias"), Attribute::unit());
    d.set(ctx.ident("onnx.name"), Attribute::string("__weights"));
    new_attrs.insert(first, Attribute::new(AttrData::Dict(d)));
    let (_, results) = func::function_type(body, f).ok_or("a function without a type")?;
    let inputs: Vec<ir::Type> = body.block_args(entry).iter().map(|a| body.value_type(*a).clone()).collect();
    let ft = ctx.intern_type(TypeData::Function { inputs, results });
    let props = &mut body.op_mut(f).properties;
    props.set(ctx.ident("function_type"), Attribute::type_attr(ft));
    props.set(ctx.ident("arg_attrs"), Attribute::new(AttrData::Array(new_attrs)));
    Ok(())
}
