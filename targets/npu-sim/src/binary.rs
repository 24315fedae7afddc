//! The binary format: a header (magic, version, target, DRAM argument table,
//! layers, labels, and since version 2 each layer's MACs), then four
//! little-endian 64-bit words per instruction, then a source-line table.
//! Version 1 files (no MACs) and version 2 files (before the `bias` operand,
//! whose slot they leave 0: none) still read. `disassemble(read(write(p)))` is `p` in canonical form.

use crate::isa::{self, Dtype};
use crate::program::{ArgDecl, ArgDir, Program};

pub const MAGIC: &[u8; 4] = b"NPUB";
pub const VERSION: u16 = 3;
/// A layer whose MACs the program does not give.
const NO_MACS: u64 = u64::MAX;

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u16).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

pub fn write(p: &Program) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + p.instrs.len() * 36);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    put_str(&mut out, &p.target);
    out.extend_from_slice(&(p.args.len() as u16).to_le_bytes());
    for a in &p.args {
        put_str(&mut out, &a.name);
        out.push(a.dir.code());
        out.push(a.dtype.code());
        out.push(a.shape.len() as u8);
        for d in &a.shape {
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
    for list in [&p.layers, &p.labels] {
        out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        for (n, at) in list.iter() {
            put_str(&mut out, n);
            out.extend_from_slice(&at.to_le_bytes());
        }
    }
    out.extend_from_slice(&(p.layer_macs.len() as u32).to_le_bytes());
    for m in &p.layer_macs {
        out.extend_from_slice(&m.unwrap_or(NO_MACS).to_le_bytes());
    }
    out.extend_from_slice(&(p.instrs.len() as u32).to_le_bytes());
    for i in &p.instrs {
        for w in isa::encode(i) {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    for k in 0..p.instrs.len() {
        out.extend_from_slice(&p.lines.get(k).copied().unwrap_or(0).to_le_bytes());
    }
    out
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.b.len() - self.pos < n {
            return Err(format!("malformed binary: truncated in {} at byte {}", what, self.pos));
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().unwrap()))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().unwrap()))
    }
    fn str(&mut self, what: &str) -> Result<String, String> {
        let n = self.u16(what)? as usize;
        String::from_utf8(self.take(n, what)?.to_vec()).map_err(|_| format!("malformed binary: {} is not UTF-8", what))
    }
    /// A count, checked against the bytes left so a corrupt header cannot make us allocate much.
    fn count(&mut self, what: &str, min_each: usize) -> Result<usize, String> {
        let n = self.u32(what)? as usize;
        if n.saturating_mul(min_each) > self.b.len() - self.pos {
            return Err(format!("malformed binary: {} count {} exceeds the file", what, n));
        }
        Ok(n)
    }
}

pub fn read(b: &[u8]) -> Result<Program, String> {
    let mut r = Reader { b, pos: 0 };
    if r.take(4, "magic")? != MAGIC {
        return Err("not an NPU binary (bad magic)".into());
    }
    let version = r.u16("version")?;
    if !(1..=VERSION).contains(&version) {
        return Err(format!("unsupported binary version {} (this tool reads 1 to {})", version, VERSION));
    }
    r.u16("flags")?;
    let target = r.str("target")?;
    let nargs = r.u16("argument count")? as usize;
    let mut args = vec![];
    for _ in 0..nargs {
        let name = r.str("argument name")?;
        let dir = match r.u8("argument direction")? {
            0 => ArgDir::In,
            1 => ArgDir::Out,
            2 => ArgDir::InOut,
            d => return Err(format!("malformed binary: argument '{}' has direction {}", name, d)),
        };
        let dtype = Dtype::from_code(r.u8("argument type")?).ok_or_else(|| format!("malformed binary: argument '{}' has a bad type", name))?;
        let rank = r.u8("argument rank")? as usize;
        let mut shape = vec![];
        for _ in 0..rank {
            shape.push(r.u64("argument shape")?);
        }
        if shape.is_empty() || shape.iter().any(|d| *d == 0) || shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).is_none_or(|n| n > 1 << 40) {
            return Err(format!("malformed binary: argument '{}' has a bad shape", name));
        }
        args.push(ArgDecl { name, dir, dtype, shape });
    }
    let mut lists = vec![];
    for what in ["layer", "label"] {
        let n = r.count(what, 6)?;
        let mut v = vec![];
        for _ in 0..n {
            let name = r.str(what)?;
            v.push((name, r.u32(what)?));
        }
        lists.push(v);
    }
    let layer_macs: Vec<Option<u64>> = if version == 1 {
        vec![None; lists[0].len()]
    } else {
        let n = r.count("layer MACs", 8)?;
        let macs = (0..n).map(|_| r.u64("layer MACs").map(|m| (m != NO_MACS).then_some(m))).collect::<Result<Vec<_>, _>>()?;
        // As the assembler reads them (a signed 64-bit number), so the disassembly assembles.
        if macs.iter().flatten().any(|m| *m > i64::MAX as u64) {
            return Err("malformed binary: a layer's MACs exceed 2^63 - 1".into());
        }
        macs
    };
    let n = r.count("instruction", 32)?;
    let mut instrs = Vec::with_capacity(n);
    for k in 0..n {
        let w = [r.u64("instruction")?, r.u64("instruction")?, r.u64("instruction")?, r.u64("instruction")?];
        let mut i = isa::decode(&w).map_err(|e| format!("malformed binary: instruction #{}: {}", k, e))?;
        if version < 3 {
            // Before version 3 the bias slot was unused (0): no bias.
            if let Some(b) = i.def.operands.iter().position(|o| o.name == "bias") {
                i.values[b] = -1;
            }
        }
        if let Some(bad) = i.def.operands.iter().enumerate().find(|(j, o)| matches!(o.kind, isa::Kind::Dram { .. }) && i.values[*j] as usize >= args.len() && i.values[*j] != isa::SPAD_ARG as i64) {
            return Err(format!("malformed binary: instruction #{} names argument {} of {}", k, i.values[bad.0], args.len()));
        }
        instrs.push(i);
    }
    let mut lines = Vec::with_capacity(n);
    for _ in 0..n {
        lines.push(r.u32("line table")?);
    }
    if r.pos != b.len() {
        return Err(format!("malformed binary: {} trailing bytes", b.len() - r.pos));
    }
    let labels = lists.pop().unwrap();
    let layers = lists.pop().unwrap();
    for (name, at) in layers.iter().chain(&labels) {
        if *at as usize > n {
            return Err(format!("malformed binary: '{}' points past the last instruction", name));
        }
    }
    let p = Program { target, args, instrs, lines, layers, layer_macs, labels };
    p.check_declarations().map_err(|e| format!("malformed binary: {}", e))?;
    Ok(p)
}
