//! What the grammar produces, before the ISA table gives operands meaning.

#[derive(Clone, Debug)]
pub enum Stmt {
    Label { name: String, pos: usize },
    Directive { name: String, args: Vec<DirArg>, pos: usize },
    Instr { mnemonic: String, operands: Vec<Operand>, pos: usize },
}

#[derive(Clone, Debug)]
pub enum DirArg {
    Str(String),
    Word(String),
    Arg(String),
    Dims(Vec<i64>),
    Int(i64),
}

#[derive(Clone, Debug)]
pub struct Operand {
    pub pos: usize,
    pub kind: OperandKind,
}

#[derive(Clone, Debug)]
pub enum OperandKind {
    /// `spad[3]`, `acc[0]`.
    Row(String, i64),
    /// `%arg+offset`.
    Dram(String, i64),
    /// `name=value`.
    Named(String, Value),
    /// `exec`, `s3`, `accumulate`.
    Word(String),
}

#[derive(Clone, Copy, Debug)]
pub enum Value {
    Int(i64),
    /// `0x…`: an integer, or the raw bits of an f32 immediate.
    Hex(i64),
    Float(f64),
}
