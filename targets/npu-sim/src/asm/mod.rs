//! The assembler: text → [`Program`]. The grammar (lalrpop) gives statements;
//! the ISA table says what each operand means, and every mistake is reported
//! at its line and column.

pub mod ast;
pub mod lexer;

#[allow(clippy::all)]
mod grammar {
    include!(concat!(env!("OUT_DIR"), "/asm/grammar.rs"));
}

use crate::isa::{self, Dtype, Instr, Kind, MemKind, Queue};
use crate::program::{ArgDecl, ArgDir, Program};
use ast::*;
use lalrpop_util::ParseError;
use lexer::{line_col, LexError, Lexer, Tok};

/// An assembly error at a position in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

fn tok_name(t: &Tok) -> String {
    match t {
        Tok::Newline => "end of line".into(),
        Tok::Ident(s) => format!("'{}'", s),
        Tok::Directive(s) => format!("'.{}'", s),
        Tok::ArgRef(s) => format!("'%{}'", s),
        Tok::Int(i) => format!("'{}'", i),
        Tok::Hex(i) => format!("'0x{:X}'", i),
        Tok::Float(f) => format!("'{}'", f),
        Tok::Str(s) => format!("\"{}\"", s),
        Tok::Comma => "','".into(),
        Tok::LBracket => "'['".into(),
        Tok::RBracket => "']'".into(),
        Tok::Plus => "'+'".into(),
        Tok::Minus => "'-'".into(),
        Tok::Equals => "'='".into(),
        Tok::Colon => "':'".into(),
    }
}

/// Assembles a whole file.
pub fn assemble(src: &str) -> Result<Program, AsmError> {
    let at = |pos: usize, message: String| {
        let (line, col) = line_col(src, pos);
        AsmError { line, col, message }
    };
    let stmts = grammar::ProgramParser::new().parse(Lexer::new(src)).map_err(|e| match e {
        ParseError::User { error: LexError { pos, message } } => at(pos, message),
        ParseError::UnrecognizedToken { token: (pos, t, _), expected } => {
            let exp: Vec<String> = expected
                .iter()
                .map(|x| {
                    match x.trim_matches('"') {
                        "nl" => "end of line",
                        "ident" => "a name",
                        "argref" => "an %argument",
                        "string" => "a string",
                        "int" | "hex" => "an integer",
                        "float" => "a number",
                        "directive" => "a directive",
                        other => return format!("'{}'", other),
                    }
                    .to_string()
                })
                .collect();
            at(pos, format!("unexpected {}; expected {}", tok_name(&t), exp.join(" or ")))
        }
        ParseError::UnrecognizedEof { location, .. } => at(location, "unexpected end of file".into()),
        ParseError::InvalidToken { location } => at(location, "invalid token".into()),
        ParseError::ExtraToken { token: (pos, t, _) } => at(pos, format!("unexpected {}", tok_name(&t))),
    })?;
    let mut p = Program::default();
    let mut seen_target = false;
    // Line starts, so each instruction's line is a binary search (a scan from the start was quadratic).
    let starts: Vec<usize> = std::iter::once(0).chain(src.bytes().enumerate().filter(|(_, c)| *c == b'\n').map(|(i, _)| i + 1)).collect();
    let line_of = |pos: usize| starts.partition_point(|s| *s <= pos) as u32;
    for s in &stmts {
        match s {
            Stmt::Label { name, pos } => {
                if p.labels.iter().any(|(n, _)| n == name) {
                    return Err(at(*pos, format!("label '{}' is defined twice", name)));
                }
                p.labels.push((name.clone(), p.instrs.len() as u32));
            }
            Stmt::Directive { name, args, pos } => match name.as_str() {
                "target" => {
                    let [DirArg::Str(t)] = args.as_slice() else { return Err(at(*pos, ".target expects one string: .target \"npu16\"".into())) };
                    if seen_target {
                        return Err(at(*pos, ".target given twice".into()));
                    }
                    seen_target = true;
                    p.target = t.clone();
                }
                "layer" => {
                    let usage = ".layer expects a name and optionally its MACs: .layer \"conv1\" or .layer \"conv1\" macs 1024";
                    let macs = match args.as_slice() {
                        [DirArg::Str(_)] => None,
                        [DirArg::Str(_), DirArg::Word(w), DirArg::Int(m)] if w == "macs" => Some(u64::try_from(*m).map_err(|_| at(*pos, "a layer's MACs cannot be negative".into()))?),
                        _ => return Err(at(*pos, usage.into())),
                    };
                    let DirArg::Str(t) = &args[0] else { unreachable!() };
                    p.layers.push((t.clone(), p.instrs.len() as u32));
                    p.layer_macs.push(macs);
                }
                "arg" => {
                    let usage = ".arg expects: .arg %name in|out|inout i8|i32|f32 [dims]";
                    let [DirArg::Arg(n), DirArg::Word(d), DirArg::Word(t), DirArg::Dims(dims)] = args.as_slice() else {
                        return Err(at(*pos, usage.into()));
                    };
                    let dir = ArgDir::from_name(d).ok_or_else(|| at(*pos, format!("'{}' is not in, out or inout", d)))?;
                    let dtype = Dtype::from_name(t).ok_or_else(|| at(*pos, format!("'{}' is not i8, i32 or f32", t)))?;
                    if dims.iter().any(|x| *x <= 0) || dims.is_empty() {
                        return Err(at(*pos, "argument dimensions must be positive".into()));
                    }
                    if p.args.iter().any(|a| &a.name == n) {
                        return Err(at(*pos, format!("argument '%{}' is declared twice", n)));
                    }
                    if n == isa::SPAD_ARG_NAME {
                        return Err(at(*pos, format!("'%{}' is the scratchpad's own DMA address; an argument cannot take the name", n)));
                    }
                    if p.args.len() >= 255 {
                        return Err(at(*pos, "at most 255 arguments".into()));
                    }
                    let shape: Vec<u64> = dims.iter().map(|x| *x as u64).collect();
                    if shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).is_none_or(|n| n > 1 << 40) {
                        return Err(at(*pos, "argument is too large".into()));
                    }
                    p.args.push(ArgDecl { name: n.clone(), dir, dtype, shape });
                }
                _ => return Err(at(*pos, format!("unknown directive '.{}'", name))),
            },
            Stmt::Instr { mnemonic, operands, pos } => {
                let i = instruction(&p, mnemonic, operands, *pos, &at)?;
                p.instrs.push(i);
                p.lines.push(line_of(*pos));
            }
        }
    }
    if !seen_target {
        return Err(at(0, "missing .target \"name\" (the hardware this program is for)".into()));
    }
    // The binary reader's rules too (control characters in strings).
    p.check_declarations().map_err(|e| at(0, e))?;
    Ok(p)
}

fn instruction(p: &Program, mnemonic: &str, operands: &[Operand], pos: usize, at: &dyn Fn(usize, String) -> AsmError) -> Result<Instr, AsmError> {
    // `dma.load.i8` → `dma.load` + i8; the table says whether a type is needed.
    let (def, dtype) = match isa::by_mnemonic(mnemonic) {
        Some(d) => (d, None),
        None => {
            let (base, suffix) = mnemonic.rsplit_once('.').unwrap_or((mnemonic, ""));
            let d = isa::by_mnemonic(base).ok_or_else(|| at(pos, format!("unknown instruction '{}'", mnemonic)))?;
            let t = Dtype::from_name(suffix).ok_or_else(|| at(pos, format!("unknown instruction '{}'", mnemonic)))?;
            (d, Some(t))
        }
    };
    isa::check_dtype(def, dtype).map_err(|m| at(pos, m))?;
    let n = def.operands.len();
    let mut values: Vec<Option<i64>> = vec![None; n];
    let mut extra = vec![0i64; n];
    let positional: Vec<usize> = (0..n).filter(|k| matches!(def.operands[*k].kind, Kind::Row(_) | Kind::Dram { .. } | Kind::QueueName | Kind::Sem)).collect();
    let mut next_pos = 0;
    for o in operands {
        match &o.kind {
            OperandKind::Row(mem, row) => {
                let k = *positional.get(next_pos).ok_or_else(|| at(o.pos, format!("too many operands for '{}'", def.mnemonic)))?;
                next_pos += 1;
                let spec = &def.operands[k];
                let want = match spec.kind {
                    Kind::Row(m) => m,
                    _ => return Err(at(o.pos, format!("operand '{}' of '{}' is not a memory row", spec.name, def.mnemonic))),
                };
                let got = match mem.as_str() {
                    "spad" => MemKind::Spad,
                    "acc" => MemKind::Acc,
                    _ => return Err(at(o.pos, format!("unknown memory '{}' (spad or acc)", mem))),
                };
                if got != want {
                    return Err(at(o.pos, format!("operand '{}' of '{}' must be a {} row", spec.name, def.mnemonic, if want == MemKind::Spad { "spad" } else { "acc" })));
                }
                values[k] = Some(*row);
            }
            OperandKind::Dram(arg, off) => {
                let k = *positional.get(next_pos).ok_or_else(|| at(o.pos, format!("too many operands for '{}'", def.mnemonic)))?;
                next_pos += 1;
                let spec = &def.operands[k];
                if !matches!(spec.kind, Kind::Dram { .. }) {
                    return Err(at(o.pos, format!("operand '{}' of '{}' is not a DRAM address", spec.name, def.mnemonic)));
                }
                let idx = if arg == isa::SPAD_ARG_NAME {
                    isa::SPAD_ARG as usize
                } else {
                    p.args.iter().position(|a| &a.name == arg).ok_or_else(|| at(o.pos, format!("undeclared argument '%{}' (declare it with .arg)", arg)))?
                };
                values[k] = Some(idx as i64);
                extra[k] = *off;
            }
            OperandKind::Word(w) => {
                // A flag, a queue name, or a semaphore.
                if let Some(k) = def.operands.iter().position(|x| x.name == w && matches!(x.kind, Kind::Flag)) {
                    values[k] = Some(1);
                    continue;
                }
                let k = *positional.get(next_pos).ok_or_else(|| at(o.pos, format!("unexpected '{}' for '{}'", w, def.mnemonic)))?;
                next_pos += 1;
                let spec = &def.operands[k];
                values[k] = Some(match spec.kind {
                    Kind::QueueName => Queue::from_name(w).ok_or_else(|| at(o.pos, format!("'{}' is not a queue (load, exec or store)", w)))?.index() as i64,
                    Kind::Sem => {
                        let n = w.strip_prefix('s').and_then(|x| x.parse::<u8>().ok()).filter(|n| *n < isa::NUM_SEMS);
                        n.ok_or_else(|| at(o.pos, format!("'{}' is not a semaphore (s0..s{})", w, isa::NUM_SEMS - 1)))? as i64
                    }
                    _ => return Err(at(o.pos, format!("operand '{}' of '{}' cannot be '{}'", spec.name, def.mnemonic, w))),
                });
            }
            OperandKind::Named(name, v) => {
                let k = def.operands.iter().position(|x| x.name == name).ok_or_else(|| {
                    let names: Vec<_> = def.operands.iter().filter(|x| matches!(x.kind, Kind::Int | Kind::Imm)).map(|x| x.name).collect();
                    at(o.pos, format!("'{}' has no operand '{}' (it has: {})", def.mnemonic, name, names.join(", ")))
                })?;
                let spec = &def.operands[k];
                if values[k].is_some() {
                    return Err(at(o.pos, format!("operand '{}' given twice", name)));
                }
                values[k] = Some(match (spec.kind, v) {
                    (Kind::Int, Value::Int(i)) => *i,
                    // f32 immediates travel as their bits, sign-extended into the signed slot.
                    (Kind::Imm, Value::Int(i)) if dtype == Some(Dtype::F32) => isa::f32_imm(*i as f32),
                    (Kind::Imm, Value::Int(i)) => *i,
                    (Kind::Imm, Value::Float(f)) if dtype == Some(Dtype::F32) => isa::f32_imm(*f as f32),
                    (Kind::Imm, Value::Hex(h)) if dtype == Some(Dtype::F32) && (0..=u32::MAX as i64).contains(h) => *h as u32 as i32 as i64,
                    (Kind::Int | Kind::Imm, Value::Hex(h)) => *h,
                    (Kind::Flag, Value::Int(i) | Value::Hex(i)) if *i == 0 || *i == 1 => *i,
                    _ => return Err(at(o.pos, format!("operand '{}' of '{}' expects {}", name, def.mnemonic, match spec.kind {
                        Kind::Imm => "a number of the instruction's element type",
                        Kind::Flag => "0 or 1",
                        _ => "an integer",
                    }))),
                });
            }
        }
    }
    isa::instr(def, dtype, &values, extra).map_err(|m| at(pos, m))
}
