//! An assembled program: target, DRAM arguments, instructions with their
//! source lines, and the `.layer` markers and labels that reports and the
//! disassembler use.

use crate::isa::{Dtype, Instr};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgDir {
    In,
    Out,
    InOut,
}

impl ArgDir {
    pub fn name(self) -> &'static str {
        match self {
            ArgDir::In => "in",
            ArgDir::Out => "out",
            ArgDir::InOut => "inout",
        }
    }
    pub fn from_name(s: &str) -> Option<ArgDir> {
        [ArgDir::In, ArgDir::Out, ArgDir::InOut].into_iter().find(|d| d.name() == s)
    }
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// A DRAM argument: `.arg %name in i8 [64, 64]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgDecl {
    pub name: String,
    pub dir: ArgDir,
    pub dtype: Dtype,
    pub shape: Vec<u64>,
}

impl ArgDecl {
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }
    pub fn bytes(&self) -> u64 {
        self.elements() * self.dtype.bytes()
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub target: String,
    pub args: Vec<ArgDecl>,
    pub instrs: Vec<Instr>,
    /// Source line of each instruction (0 when unknown, e.g. after disassembly).
    pub lines: Vec<u32>,
    /// (layer name, index of its first instruction), in order.
    pub layers: Vec<(String, u32)>,
    /// (label, index of the instruction it names).
    pub labels: Vec<(String, u32)>,
}

impl Program {
    /// The layer instruction `i` belongs to.
    pub fn layer_of(&self, i: usize) -> Option<usize> {
        self.layers.iter().rposition(|(_, first)| *first as usize <= i)
    }
    /// `#12 (line 30)` or `#12 (label+2)`, for error messages.
    pub fn describe(&self, i: usize) -> String {
        let mnem = self.instrs.get(i).map(|x| x.def.mnemonic).unwrap_or("?");
        match self.lines.get(i).copied().filter(|l| *l > 0) {
            Some(l) => format!("#{} {} (line {})", i, mnem, l),
            None => match self.labels.iter().filter(|(_, at)| *at as usize <= i).max_by_key(|(_, at)| *at) {
                Some((name, at)) => format!("#{} {} ({}+{})", i, mnem, name, i - *at as usize),
                None => format!("#{} {}", i, mnem),
            },
        }
    }
}
