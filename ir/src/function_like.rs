//! The per-argument and per-result attribute dictionaries of function-like ops
//! (`arg_attrs`, `res_attrs` properties: one dictionary per argument/result), as
//! MLIR's FunctionOpInterface keeps them: read one entry, or set one.

use crate::attributes::{AttrData, AttrDict, Attribute};
use crate::{Body, Context, OpId};

/// Which list: the arguments' (`arg_attrs`) or the results' (`res_attrs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Io {
    Arg,
    Result,
}

impl Io {
    fn key(self) -> &'static str {
        match self {
            Io::Arg => "arg_attrs",
            Io::Result => "res_attrs",
        }
    }
}

/// Attribute `name` of argument or result `i` of `f`, if set.
pub fn io_attr<'a>(body: &'a Body, f: OpId, io: Io, i: usize, name: &str) -> Option<&'a Attribute> {
    body.op(f).properties.get(io.key())?.as_array()?.get(i)?.as_dict()?.get(name)
}

/// Sets attribute `name` of argument or result `i` of `f`, which has `count` of
/// them (missing dictionaries are created empty).
pub fn set_io_attr(ctx: &Context, body: &mut Body, f: OpId, io: Io, i: usize, count: usize, name: &str, value: Attribute) {
    let mut dicts: Vec<Attribute> = body.op(f).properties.get(io.key()).and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    dicts.resize(count.max(i + 1), Attribute::new(AttrData::Dict(AttrDict::new())));
    let mut d = dicts[i].as_dict().cloned().unwrap_or_default();
    d.set(ctx.ident(name), value);
    dicts[i] = Attribute::new(AttrData::Dict(d));
    body.op_mut(f).properties.set(ctx.ident(io.key()), Attribute::new(AttrData::Array(dicts)));
}
