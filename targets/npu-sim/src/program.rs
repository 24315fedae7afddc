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
    /// Per layer, the multiply-accumulates its ONNX nodes do as the model
    /// defines them (`.layer "conv1" macs N`), when the program says: the
    /// array's own count includes a depthwise filter's zeros and padding.
    pub layer_macs: Vec<Option<u64>>,
    /// (label, index of the instruction it names).
    pub labels: Vec<(String, u32)>,
}

/// A name the assembler reads as an identifier (`%name`, `label:`).
fn is_identifier(s: &str, first_may_be_digit: bool) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    s.chars().next().is_some_and(|c| (first_may_be_digit && ok(c)) || c.is_ascii_alphabetic() || c == '_') && s.chars().all(ok)
}

impl Program {
    /// What the assembler accepts of names and declarations, so that a
    /// binary holds nothing its disassembly cannot say: argument names are
    /// identifiers, unique, at most 255 of them, with positive dimensions;
    /// labels are identifiers, unique; the target and layer names are one
    /// line of text without control characters.
    pub fn check_declarations(&self) -> Result<(), String> {
        let text = |what: &str, s: &str| match s.chars().find(|c| c.is_control()) {
            Some(c) => Err(format!("{} '{}' holds the control character {:?}", what, s.escape_default(), c)),
            None => Ok(()),
        };
        text("target", &self.target)?;
        if self.args.len() > 255 {
            return Err(format!("{} arguments (at most 255)", self.args.len()));
        }
        for (k, a) in self.args.iter().enumerate() {
            if !is_identifier(&a.name, true) {
                return Err(format!("argument name '{}' is not an identifier (letters, digits, '_' and '.')", a.name.escape_default()));
            }
            if self.args[..k].iter().any(|b| b.name == a.name) {
                return Err(format!("argument '%{}' is declared twice", a.name));
            }
            if a.name == crate::isa::SPAD_ARG_NAME {
                return Err(format!("'%{}' is the scratchpad's own DMA address; an argument cannot take the name", a.name));
            }
            if a.shape.is_empty() || a.shape.contains(&0) || a.shape.iter().try_fold(1u64, |p, &d| p.checked_mul(d)).is_none_or(|n| n > 1 << 40) {
                return Err(format!("argument '%{}' has a bad shape {:?}", a.name, a.shape));
            }
        }
        // Layers start in program order (`layer_of` searches them by their first instruction).
        if let Some(w) = self.layers.windows(2).find(|w| w[1].1 < w[0].1) {
            return Err(format!("layer '{}' starts at instruction {}, before the layer '{}' ahead of it (at {})", w[1].0.escape_default(), w[1].1, w[0].0.escape_default(), w[0].1));
        }
        for (k, (name, _)) in self.labels.iter().enumerate() {
            if !is_identifier(name, false) {
                return Err(format!("label '{}' is not an identifier", name.escape_default()));
            }
            if self.labels[..k].iter().any(|(n, _)| n == name) {
                return Err(format!("label '{}' is defined twice", name));
            }
        }
        for (name, _) in &self.layers {
            text("layer name", name)?;
        }
        if self.layer_macs.len() != self.layers.len() {
            return Err(format!("{} layers but MAC counts for {}", self.layers.len(), self.layer_macs.len()));
        }
        Ok(())
    }

    /// The layer instruction `i` belongs to.
    pub fn layer_of(&self, i: usize) -> Option<usize> {
        // Layers start in program order: the last one starting at or before `i`.
        self.layers.partition_point(|(_, first)| *first as usize <= i).checked_sub(1)
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
