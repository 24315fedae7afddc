//! What each instruction does to the memories, what it costs in cycles, and
//! the checks it traps on (bounds, tile shapes, hazards).

use super::hazard::{unit_name, Clock, HazardChecker, Mem};
use super::{Counters, SimError, State};
use crate::config::HwConfig;
use crate::isa::Dtype;
use crate::program::Program;

pub(crate) struct Outcome {
    pub cycles: u64,
    /// Of `cycles`, the DRAM latency before the first byte (a DMA's).
    pub latency: u64,
    pub macs: u64,
    pub read: u64,
    pub written: u64,
}

struct Ctx<'a> {
    cfg: &'a HwConfig,
    p: &'a Program,
    i: usize,
    unit: usize,
    seq: u64,
    vc: &'a Clock,
}

impl Ctx<'_> {
    /// The instruction executing.
    fn ins(&self) -> &crate::isa::Instr {
        &self.p.instrs[self.i]
    }
    /// Its operand `n` (the ISA table's default where the text leaves it out).
    fn g(&self, n: &str) -> i64 {
        self.ins().get(n)
    }
    /// The accumulator row of an instruction's `bias` operand, if it gives one.
    fn bias_row(&self, hz: &mut HazardChecker, c: &mut Counters) -> Result<Option<usize>, SimError> {
        if self.ins().def.operand("bias").is_none() || self.g("bias") == -1 {
            return Ok(None);
        }
        if self.g("bias") < -1 {
            return Err(self.err(format!("bias={} must be an accumulator row or -1 (none)", self.g("bias"))));
        }
        if !self.cfg.vector.bias {
            return Err(self.err(format!("target '{}' adds no bias row in a vector instruction (vector.bias = false: npu16 revision 3)", self.cfg.name)));
        }
        Ok(Some(self.rows(hz, c, Mem::Acc, self.g("bias"), 1, false)?))
    }
    fn err(&self, m: impl Into<String>) -> SimError {
        SimError(format!("{}: {}", self.p.describe(self.i), m.into()))
    }

    /// Bounds-checks and hazard-checks rows `[row, row+n)` of a memory.
    fn rows(&self, hz: &mut HazardChecker, c: &mut Counters, mem: Mem, row: i64, n: i64, write: bool) -> Result<usize, SimError> {
        let limit = match mem {
            Mem::Spad => self.cfg.scratchpad.rows,
            _ => self.cfg.accumulator.rows,
        } as i64;
        if row < 0 || n < 0 || row + n > limit {
            return Err(self.err(format!(
                "out-of-bounds {} of {} {}..{} (the {} has {} rows)",
                if write { "write" } else { "read" },
                mem.name(),
                row,
                row + n,
                if mem == Mem::Spad { "scratchpad" } else { "accumulator" },
                limit
            )));
        }
        let used = (row + n) as u64;
        match mem {
            Mem::Spad => c.spad_rows_used = c.spad_rows_used.max(used),
            _ => c.acc_rows_used = c.acc_rows_used.max(used),
        }
        self.hazard(hz, mem, row as u64, (row + n) as u64, write)?;
        Ok(row as usize)
    }

    fn hazard(&self, hz: &mut HazardChecker, mem: Mem, lo: u64, hi: u64, write: bool) -> Result<(), SimError> {
        hz.access(self.vc, self.unit, self.seq, self.i, mem, lo, hi, write).map_err(|h| {
            let verb = |w: bool| if w { "writes" } else { "reads" };
            SimError(format!(
                "hazard: {} ({} queue) {} {} {}..{} while {} ({} queue) {} them, and no semaphore orders the two",
                self.p.describe(h.second),
                unit_name(self.unit),
                verb(h.second_writes),
                h.mem.name(),
                h.lo,
                h.hi,
                self.p.describe(h.first),
                unit_name(self.p.instrs[h.first].queue().index()),
                verb(h.first_writes)
            ))
        })
    }

    fn lanes(&self, n: i64, what: &str) -> Result<usize, SimError> {
        if n < 0 || n > self.cfg.array.cols as i64 {
            return Err(self.err(format!("{} = {} exceeds the {} lanes of a row", what, n, self.cfg.array.cols)));
        }
        Ok(n as usize)
    }
}

fn dma_cost(cfg: &HwConfig, rows: u64, row_bytes: u64, contiguous: bool) -> u64 {
    let burst = cfg.dram.burst_bytes as u64;
    let moved = if contiguous && cfg.dram.coalesce { (rows * row_bytes).div_ceil(burst) * burst } else { rows * row_bytes.div_ceil(burst) * burst };
    cfg.dram.latency as u64 + moved.div_ceil(cfg.dram.bytes_per_cycle as u64)
}

fn vec_cost(cfg: &HwConfig, rows: u64) -> u64 {
    rows * cfg.vector.initiation_interval as u64 + cfg.vector.latency as u64
}

#[inline]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn execute(
    cfg: &HwConfig,
    p: &Program,
    st: &mut State,
    i: usize,
    unit: usize,
    seq: u64,
    vc: &Clock,
    hz: &mut HazardChecker,
    c: &mut Counters,
) -> Result<Outcome, SimError> {
    let x = Ctx { cfg, p, i, unit, seq, vc };
    let mut out = Outcome { cycles: 1, latency: 0, macs: 0, read: 0, written: 0 };
    // One function per class of instruction, each reading its operands by name.
    match p.instrs[i].def.mnemonic {
        "dma.load" | "dma.loadacc" | "dma.store" | "dma.storeacc" => exec_dma(&x, st, hz, c, &mut out)?,
        "mx.preload" => exec_mx_preload(&x, st, hz, c, &mut out)?,
        "mx.mul" => exec_mx_mul(&x, st, hz, c, &mut out)?,
        "v.add" | "v.sub" | "v.mul" | "v.max" | "v.min" => exec_v_binary(&x, st, hz, c, &mut out)?,
        "v.relu" | "v.relu6" | "v.sigmoid" | "v.tanh" | "v.exp" | "v.rsqrt" | "v.recip" | "v.erf" | "v.shl" | "v.shr" | "v.clamp" => exec_v_unary(&x, st, hz, c, &mut out)?,
        "v.hsum" | "v.hmax" => exec_v_reduce_rows(&x, st, hz, c, &mut out)?,
        "v.poolmax" | "v.poolavg" => exec_v_pool(&x, st, hz, c, &mut out)?,
        "v.requant" => exec_v_requant(&x, st, hz, c, &mut out)?,
        "v.move" => exec_v_move(&x, st, hz, c, &mut out)?,
        "v.lut" => exec_v_lut(&x, st, hz, c, &mut out)?,
        "v.mac" => exec_v_mac(&x, st, hz, c, &mut out)?,
        other => return Err(x.err(format!("'{}' cannot execute on a unit", other))),
    }
    Ok(out)
}

/// `dma.load`, `dma.loadacc`, `dma.store`, `dma.storeacc`.
fn exec_dma(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let p = x.p;
    let load = x.ins().def.mnemonic.starts_with("dma.load");
    let to_acc = x.ins().def.mnemonic.ends_with("acc");
    let eb = dt.map(|d| d.bytes()).unwrap_or(1);
    let (rows, ncols) = (x.g("rows"), x.g("cols"));
    let (pt, pb, pl, pr) = if load { (x.g("pad_top"), x.g("pad_bottom"), x.g("pad_left"), x.g("pad_right")) } else { (0, 0, 0, 0) };
    let width = x.lanes(pl + ncols + pr, "pad_left + cols + pad_right")?;
    let dram_op = if load { "src" } else { "dst" };
    let arg = x.g(dram_op) as usize;
    if arg == crate::isa::SPAD_ARG as usize {
        *out = local_dma(x, st, hz, c, load, to_acc)?;
        return Ok(());
    }
    let a = &p.args[arg];
    let stride = if x.g("stride") == 0 { ncols as u64 * eb } else { x.g("stride") as u64 };
    let off = x.ins().offset(dram_op);
    let base = st.arg_base[arg];
    let span = if rows == 0 { 0 } else { (rows as u64 - 1) * stride + ncols as u64 * eb };
    if off < 0 || off as u64 + span > a.bytes() {
        return Err(x.err(format!(
            "out-of-bounds DRAM {} of '%{}': bytes {}..{} but it has {}",
            if load { "read" } else { "write" },
            a.name,
            off,
            off as u64 + span,
            a.bytes()
        )));
    }
    // The padding's bits: an int8 lane's value (the input's zero point), else zero.
    let pad_bits = if load && !to_acc { x.g("pad_value") } else { 0 };
    if pad_bits != 0 && dt != Some(Dtype::I8) {
        return Err(x.err(format!("pad_value {} on an {} load (only int8 padding has a value)", pad_bits, dt.map(|d| d.name()).unwrap_or("untyped"))));
    }
    let pad_bits = pad_bits as i32 as u32;
    let mem = if to_acc { Mem::Acc } else { Mem::Spad };
    let first = x.rows(hz, c, mem, x.g(if load { "dst" } else { "src" }), pt + rows + pb, load)?;
    x.hazard(hz, Mem::Dram, base + off as u64, base + off as u64 + span, !load)?;
    let buf = if to_acc { &mut st.acc } else { &mut st.spad };
    let dram = &mut st.dram;
    for r in 0..(pt + rows + pb) as usize {
        let row = &mut buf[(first + r) * cols..(first + r) * cols + width];
        let data_row = r as i64 - pt;
        if !load {
            let at = (base + off as u64 + r as u64 * stride) as usize;
            for l in 0..ncols as usize {
                let v = row[l];
                match dt {
                    Some(Dtype::I8) => dram[at + l] = v as u8,
                    _ => dram[at + 4 * l..at + 4 * l + 4].copy_from_slice(&v.to_le_bytes()),
                }
            }
            continue;
        }
        if data_row < 0 || data_row >= rows {
            row.fill(pad_bits);
            continue;
        }
        let at = (base + off as u64 + data_row as u64 * stride) as usize;
        row[..pl as usize].fill(pad_bits);
        row[(pl + ncols) as usize..].fill(pad_bits);
        let dst = &mut row[pl as usize..(pl + ncols) as usize];
        match dt {
            Some(Dtype::I8) => {
                for (l, d) in dst.iter_mut().enumerate() {
                    *d = dram[at + l] as i8 as i32 as u32;
                }
            }
            _ => {
                for (l, d) in dst.iter_mut().enumerate() {
                    *d = u32::from_le_bytes(dram[at + 4 * l..at + 4 * l + 4].try_into().unwrap());
                }
            }
        }
    }
    let bytes = rows as u64 * ncols as u64 * eb;
    if load {
        c.dram_bytes_read += bytes;
        out.read = bytes;
    } else {
        c.dram_bytes_written += bytes;
        out.written = bytes;
    }
    out.cycles = dma_cost(x.cfg, rows as u64, ncols as u64 * eb, stride == ncols as u64 * eb);
    out.latency = x.cfg.dram.latency as u64;
    Ok(())
}

/// `mx.preload`.
fn exec_mx_preload(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let (k, n) = (x.g("k"), x.g("n"));
    if k < 1 || k > x.cfg.array.rows as i64 {
        return Err(x.err(format!("k = {} must be 1..{} (the array's rows)", k, x.cfg.array.rows)));
    }
    let n = x.lanes(n, "n")?;
    if x.g("transpose") != 0 {
        // Stored as n rows of k lanes: W[r][j] is row j's lane r.
        x.lanes(k, "k (the lanes of a transposed tile)")?;
        let src = x.rows(hz, c, Mem::Spad, x.g("src"), n as i64, false)?;
        for r in 0..k as usize {
            for j in 0..n {
                st.weights[r * cols + j] = st.spad[(src + j) * cols + r];
            }
        }
        out.cycles = n as u64;
    } else {
        let src = x.rows(hz, c, Mem::Spad, x.g("src"), k, false)?;
        for r in 0..k as usize {
            st.weights[r * cols..r * cols + n].copy_from_slice(&st.spad[(src + r) * cols..(src + r) * cols + n]);
        }
        out.cycles = k as u64;
    }
    st.w_shape = Some((k as usize, n, dt.unwrap()));
    Ok(())
}

/// `mx.mul`.
fn exec_mx_mul(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let Some((wk, wn, wdt)) = st.w_shape else { return Err(x.err("no weight tile is loaded (mx.preload first)")) };
    let (k, n, rows) = (x.g("k") as usize, x.g("n") as usize, x.g("rows"));
    if (k, n) != (wk, wn) || dt != Some(wdt) {
        return Err(x.err(format!(
            "k={} n={} {} does not match the preloaded {}×{} {} tile",
            k,
            n,
            dt.unwrap().name(),
            wk,
            wn,
            wdt.name()
        )));
    }
    let passes = x.g("loop");
    if passes < 1 {
        return Err(x.err("loop must be at least 1"));
    }
    let acc_flag = x.g("accumulate") != 0;
    // The cycles are known before the work is done: a replay loop past the budget never starts.
    let rate = if wdt == Dtype::F32 { x.cfg.array.f32_rate as u64 } else { 1 };
    let cycles = (passes as u64).saturating_mul(rows as u64).saturating_mul(rate).saturating_add(x.cfg.array.fill_latency as u64);
    if cycles > st.budget {
        return Err(x.err(format!("needs {} cycles, past the run's budget ({} cycles left; see --max-cycles)", cycles, st.budget)));
    }
    // Passes of no rows touch nothing: none is run (four billion of them took hours).
    for pass in 0..if rows == 0 { 0 } else { passes } {
        let src = x.rows(hz, c, Mem::Spad, x.g("src") + pass * x.g("src_stride"), rows, false)?;
        let dst = x.rows(hz, c, Mem::Acc, x.g("dst") + pass * x.g("dst_stride"), rows, true)?;
        let w = &st.weights;
        for r in 0..rows as usize {
            let a = &st.spad[(src + r) * cols..(src + r) * cols + k];
            let o = &mut st.acc[(dst + r) * cols..(dst + r) * cols + n];
            if wdt == Dtype::I8 {
                let mut sum = [0i32; 256];
                let sum = &mut sum[..n];
                if acc_flag {
                    for (s, v) in sum.iter_mut().zip(o.iter()) {
                        *s = *v as i32;
                    }
                }
                for (kk, &av) in a.iter().enumerate() {
                    let av = av as i32;
                    let wr = &w[kk * cols..kk * cols + n];
                    for (s, &wv) in sum.iter_mut().zip(wr) {
                        *s = s.wrapping_add(av.wrapping_mul(wv as i32));
                    }
                }
                for (v, s) in o.iter_mut().zip(sum.iter()) {
                    *v = *s as u32;
                }
            } else {
                for (j, v) in o.iter_mut().enumerate() {
                    let mut s = if acc_flag { f(*v) } else { 0.0 };
                    for (kk, &av) in a.iter().enumerate() {
                        s += f(av) * f(w[kk * cols + j]);
                    }
                    *v = s.to_bits();
                }
            }
        }
    }
    out.macs = passes as u64 * rows as u64 * k as u64 * n as u64;
    c.macs += out.macs;
    out.cycles = cycles;
    Ok(())
}

/// `v.add`, `v.sub`, `v.mul`, `v.max`, `v.min`.
fn exec_v_binary(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let rows = x.g("rows");
    let bcast = x.g("bcast") != 0;
    let a = x.rows(hz, c, Mem::Acc, x.g("a"), rows, false)?;
    let b = x.rows(hz, c, Mem::Acc, x.g("b"), if bcast { 1 } else { rows }, false)?;
    let d = x.rows(hz, c, Mem::Acc, x.g("dst"), rows, true)?;
    let op = x.ins().def.mnemonic;
    for r in 0..rows as usize {
        let br = if bcast { b } else { b + r };
        for l in 0..cols {
            let (p1, p2) = (st.acc[(a + r) * cols + l], st.acc[br * cols + l]);
            st.acc[(d + r) * cols + l] = if dt == Some(Dtype::F32) {
                let (u, v) = (f(p1), f(p2));
                (match op {
                    "v.add" => u + v,
                    "v.sub" => u - v,
                    "v.mul" => u * v,
                    "v.max" => npu_isa::maximum(u, v),
                    _ => npu_isa::minimum(u, v),
                })
                .to_bits()
            } else {
                let (u, v) = (p1 as i32, p2 as i32);
                (match op {
                    "v.add" => u.wrapping_add(v),
                    "v.sub" => u.wrapping_sub(v),
                    "v.mul" => u.wrapping_mul(v),
                    "v.max" => u.max(v),
                    _ => u.min(v),
                }) as u32
            };
        }
    }
    out.cycles = vec_cost(x.cfg, rows as u64);
    Ok(())
}

/// `v.relu`, `v.relu6`, `v.sigmoid`, `v.tanh`, `v.exp`, `v.rsqrt`, `v.recip`, `v.erf`, `v.shl`, `v.shr`, `v.clamp`.
fn exec_v_unary(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let rows = x.g("rows");
    let s = x.rows(hz, c, Mem::Acc, x.g("src"), rows, false)?;
    let bias = x.bias_row(hz, c)?;
    let d = x.rows(hz, c, Mem::Acc, x.g("dst"), rows, true)?;
    let op = x.ins().def.mnemonic;
    let amount = x.g("amount") as u32;
    if matches!(op, "v.shl" | "v.shr") && amount > 31 {
        return Err(x.err(format!("shift amount {} exceeds 31", amount)));
    }
    let (lo, hi) = (x.g("min") as u32, x.g("max") as u32);
    let round = x.g("round") != 0;
    let is_f = dt == Some(Dtype::F32);
    if op == "v.clamp" && is_f && (f(lo).is_nan() || f(hi).is_nan()) {
        return Err(x.err("clamp bounds must not be NaN"));
    }
    if op == "v.clamp" && ((is_f && f(lo) > f(hi)) || (!is_f && (lo as i32) > (hi as i32))) {
        return Err(x.err("clamp min is greater than max"));
    }
    for r in 0..rows as usize {
        for l in 0..cols {
            let mut v = st.acc[(s + r) * cols + l];
            if let Some(b) = bias {
                let b = st.acc[b * cols + l];
                v = if is_f { (f(v) + f(b)).to_bits() } else { (v as i32).wrapping_add(b as i32) as u32 };
            }
            st.acc[(d + r) * cols + l] = match (op, is_f) {
                ("v.relu", true) => npu_isa::maximum(f(v), 0.0).to_bits(),
                ("v.relu", false) => (v as i32).max(0) as u32,
                ("v.relu6", _) => f(v).clamp(0.0, 6.0).to_bits(),
                ("v.sigmoid", _) => (1.0 / (1.0 + (-f(v)).exp())).to_bits(),
                ("v.tanh", _) => f(v).tanh().to_bits(),
                ("v.exp", _) => f(v).exp().to_bits(),
                ("v.rsqrt", _) => (1.0 / f(v).sqrt()).to_bits(),
                ("v.recip", _) => (1.0 / f(v)).to_bits(),
                ("v.erf", _) => npu_isa::erf(f(v)).to_bits(),
                ("v.shl", _) => (v as i32).wrapping_shl(amount) as u32,
                ("v.shr", _) => {
                    let y = v as i32 as i64;
                    (if round && amount > 0 { (y + (1 << (amount - 1))) >> amount } else { y >> amount }) as i32 as u32
                }
                ("v.clamp", true) => f(v).clamp(f(lo), f(hi)).to_bits(),
                _ => (v as i32).clamp(lo as i32, hi as i32) as u32,
            };
        }
    }
    out.cycles = vec_cost(x.cfg, rows as u64);
    Ok(())
}

/// `v.hsum`, `v.hmax`.
fn exec_v_reduce_rows(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let rows = x.g("rows");
    let n = match x.lanes(x.g("lanes"), "lanes")? {
        0 => cols,
        n => n,
    };
    let s = x.rows(hz, c, Mem::Acc, x.g("src"), rows, false)?;
    let d = x.rows(hz, c, Mem::Acc, x.g("dst"), rows, true)?;
    let sum = x.ins().def.mnemonic == "v.hsum";
    for r in 0..rows as usize {
        let vals = st.acc[(s + r) * cols..(s + r) * cols + n].iter().map(|v| f(*v));
        let y = if sum { vals.sum::<f32>() } else { vals.fold(f32::NEG_INFINITY, npu_isa::maximum) };
        st.acc[(d + r) * cols..(d + r + 1) * cols].fill(y.to_bits());
    }
    // A reduction tree: log2(lanes) extra stages.
    out.cycles = vec_cost(x.cfg, rows as u64) + (cols as u64).next_power_of_two().trailing_zeros() as u64;
    Ok(())
}

/// `v.poolmax`, `v.poolavg`.
fn exec_v_pool(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    let rows = x.g("rows");
    let win = x.g("window");
    if win < 1 {
        return Err(x.err("window must be at least 1"));
    }
    let stride = if x.g("stride") == 0 { win } else { x.g("stride") };
    let span = if rows == 0 { 0 } else { (rows - 1) * stride + win };
    let s = x.rows(hz, c, Mem::Acc, x.g("src"), span, false)?;
    let d = x.rows(hz, c, Mem::Acc, x.g("dst"), rows, true)?;
    let is_f = dt == Some(Dtype::F32);
    let mut tmp = vec![0u32; rows as usize * cols];
    for r in 0..rows as usize {
        for l in 0..cols {
            let vals = (0..win as usize).map(|j| st.acc[(s + r * stride as usize + j) * cols + l]);
            tmp[r * cols + l] = match (x.ins().def.mnemonic, is_f) {
                ("v.poolmax", true) => vals.map(f).fold(f32::NEG_INFINITY, npu_isa::maximum).to_bits(),
                ("v.poolmax", false) => vals.map(|v| v as i32).max().unwrap_or(0) as u32,
                (_, true) => (vals.map(f).sum::<f32>() / win as f32).to_bits(),
                _ => {
                    let sum: i64 = vals.map(|v| v as i32 as i64).sum();
                    let w = win;
                    // Round to nearest, ties away from zero.
                    (if sum >= 0 { (sum + w / 2) / w } else { -((-sum + w / 2) / w) }) as i32 as u32
                }
            };
        }
    }
    st.acc[d * cols..(d + rows as usize) * cols].copy_from_slice(&tmp);
    out.cycles = vec_cost(x.cfg, span as u64);
    Ok(())
}

/// `v.requant`.
fn exec_v_requant(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let rows = x.g("rows");
    let s = x.rows(hz, c, Mem::Acc, x.g("src"), rows, false)?;
    let bias = x.bias_row(hz, c)?;
    let per_channel = x.g("per_channel") != 0;
    let (mrow, srow) = if per_channel {
        (Some(x.rows(hz, c, Mem::Acc, x.g("mult"), 1, false)?), Some(x.rows(hz, c, Mem::Acc, x.g("shift"), 1, false)?))
    } else {
        (None, None)
    };
    let d = x.rows(hz, c, Mem::Spad, x.g("dst"), rows, true)?;
    let (zp, lo, hi) = (x.g("zp"), x.g("min"), x.g("max"));
    if lo > hi || lo < -128 || hi > 127 {
        return Err(x.err(format!("clamp bounds {}..{} must lie in -128..127", lo, hi)));
    }
    for l in 0..cols {
        let (m, sh) = match (mrow, srow) {
            (Some(mr), Some(sr)) => (st.acc[mr * cols + l] as i32 as i64, st.acc[sr * cols + l] as i32 as i64),
            _ => (x.g("mult"), x.g("shift")),
        };
        if !(0..=62).contains(&sh) {
            return Err(x.err(format!("requantization shift {} must be 0..62", sh)));
        }
        let total = 31 + sh as u32;
        for r in 0..rows as usize {
            let mut v = st.acc[(s + r) * cols + l] as i32;
            if let Some(b) = bias {
                v = v.wrapping_add(st.acc[b * cols + l] as i32);
            }
            let prod = v as i128 * m as i128;
            let rounded = (prod + (1i128 << (total - 1))) >> total;
            let q = (rounded + zp as i128).clamp(lo as i128, hi as i128) as i32;
            st.spad[(d + r) * cols + l] = q as u32;
        }
    }
    out.cycles = vec_cost(x.cfg, rows as u64);
    Ok(())
}

/// `v.move`.
fn exec_v_move(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let rows = x.g("rows");
    let s = x.rows(hz, c, Mem::Acc, x.g("src"), rows, false)?;
    let d = x.rows(hz, c, Mem::Spad, x.g("dst"), rows, true)?;
    let (from, to) = (s * cols, d * cols);
    let n = rows as usize * cols;
    let tmp: Vec<u32> = st.acc[from..from + n].to_vec();
    st.spad[to..to + n].copy_from_slice(&tmp);
    out.cycles = vec_cost(x.cfg, rows as u64);
    Ok(())
}

/// `v.lut`.
fn exec_v_lut(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    if !x.cfg.vector.lut {
        return Err(x.err(format!("target '{}' has no v.lut (vector.lut = false: npu16 revision 2)", x.cfg.name)));
    }
    let rows = x.g("rows");
    let t = x.rows(hz, c, Mem::Acc, x.g("table"), 256usize.div_ceil(cols) as i64, false)?;
    let s = x.rows(hz, c, Mem::Spad, x.g("src"), rows, false)?;
    let d = x.rows(hz, c, Mem::Spad, x.g("dst"), rows, true)?;
    let table = &st.acc[t * cols..t * cols + 256];
    if let Some((e, v)) = table.iter().enumerate().find(|(_, v)| !(-128..=127).contains(&(**v as i32))) {
        return Err(x.err(format!("table entry {} is {}, outside -128..127", e, *v as i32)));
    }
    let mut tmp = vec![0u32; rows as usize * cols];
    for (k, o) in tmp.iter_mut().enumerate() {
        let v = st.spad[s * cols + k] as i32;
        if !(-128..=127).contains(&v) {
            return Err(x.err(format!("scratchpad row {} lane {} holds {}, not an int8 value", s + k / cols, k % cols, v)));
        }
        *o = table[(v + 128) as usize];
    }
    st.spad[d * cols..(d + rows as usize) * cols].copy_from_slice(&tmp);
    out.cycles = vec_cost(x.cfg, rows as u64);
    Ok(())
}

/// `v.mac`.
fn exec_v_mac(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, out: &mut Outcome) -> Result<(), SimError> {
    let cols = st.cols;
    let dt = x.ins().dtype;
    if !x.cfg.vector.mac {
        return Err(x.err(format!("target '{}' has no v.mac (vector.mac = false: npu16 revision 2)", x.cfg.name)));
    }
    let (rows, passes) = (x.g("rows"), x.g("loop"));
    if passes < 1 {
        return Err(x.err("loop must be at least 1"));
    }
    let cycles = (passes as u64).saturating_mul(rows as u64).saturating_mul(x.cfg.vector.initiation_interval as u64).saturating_add(x.cfg.vector.latency as u64);
    if cycles > st.budget {
        return Err(x.err(format!("needs {} cycles, past the run's budget ({} cycles left; see --max-cycles)", cycles, st.budget)));
    }
    let w = x.rows(hz, c, Mem::Acc, x.g("w"), 1, false)?;
    // The weights as they are when the instruction starts (its dst rows may cover them).
    let wrow: Vec<u32> = st.acc[w * cols..(w + 1) * cols].to_vec();
    let acc_flag = x.g("accumulate") != 0;
    let int8 = dt == Some(Dtype::I8);
    for pass in 0..if rows == 0 { 0 } else { passes } {
        let s = x.rows(hz, c, Mem::Spad, x.g("src") + pass * x.g("src_stride"), rows, false)?;
        let d = x.rows(hz, c, Mem::Acc, x.g("dst") + pass * x.g("dst_stride"), rows, true)?;
        for r in 0..rows as usize {
            for l in 0..cols {
                let (a, wv) = (st.spad[(s + r) * cols + l], wrow[l]);
                let o = &mut st.acc[(d + r) * cols + l];
                *o = if int8 {
                    let p = (a as i32).wrapping_mul(wv as i32);
                    (if acc_flag { (*o as i32).wrapping_add(p) } else { p }) as u32
                } else {
                    let p = f(a) * f(wv);
                    (if acc_flag { f(*o) + p } else { p }).to_bits()
                };
            }
        }
    }
    out.macs = passes as u64 * rows as u64 * cols as u64;
    c.macs += out.macs;
    out.cycles = cycles;
    Ok(())
}

/// Cycles before a DMA between the scratchpad and itself (or the accumulator)
/// moves its first row; then a row a cycle (two where a row's lanes straddle
/// two scratchpad rows). No DRAM is touched.
pub(crate) const LOCAL_DMA_LATENCY: u64 = 8;

/// A DMA whose DRAM side is the scratchpad itself (`%spad+OFFSET`): element
/// `OFFSET / eb + r·stride / eb + l` of the scratchpad seen as one flat array
/// of lanes, row after row; int8 lanes stay sign-extended.
fn local_dma(x: &Ctx, st: &mut State, hz: &mut HazardChecker, c: &mut Counters, load: bool, to_acc: bool) -> Result<Outcome, SimError> {
    let cfg = x.cfg;
    let ins = &x.p.instrs[x.i];
    let g = |n: &str| ins.get(n);
    if !cfg.scratchpad.dma {
        return Err(x.err(format!("target '{}' has no DMA path to the scratchpad itself (scratchpad.dma = false: npu16 revision 2)", cfg.name)));
    }
    let dt = ins.dtype;
    let eb = dt.map(|d| d.bytes()).unwrap_or(1) as i64;
    let cols = st.cols as i64;
    let (rows, ncols) = (g("rows"), g("cols"));
    let (pt, pb, pl, pr) = if load { (g("pad_top"), g("pad_bottom"), g("pad_left"), g("pad_right")) } else { (0, 0, 0, 0) };
    let width = x.lanes(pl + ncols + pr, "pad_left + cols + pad_right")?;
    let dram_op = if load { "src" } else { "dst" };
    let off = ins.offset(dram_op);
    let stride = if g("stride") == 0 { ncols * eb } else { g("stride") };
    if off % eb != 0 || stride % eb != 0 {
        return Err(x.err(format!("a %spad offset ({}) and stride ({}) must be whole elements of {} bytes", off, stride, eb)));
    }
    let (first, step) = (off / eb, stride / eb);
    let total = cfg.scratchpad.rows as i64 * cols;
    let end = if rows == 0 { first } else { first + (rows - 1) * step + ncols };
    if first < 0 || end > total {
        return Err(x.err(format!("out-of-bounds %spad {}: lanes {}..{} but the scratchpad has {}", if load { "read" } else { "write" }, first, end, total)));
    }
    let pad_bits = if load && !to_acc { g("pad_value") } else { 0 };
    if pad_bits != 0 && dt != Some(Dtype::I8) {
        return Err(x.err(format!("pad_value {} on an {} load (only int8 padding has a value)", pad_bits, dt.map(|d| d.name()).unwrap_or("untyped"))));
    }
    let pad_bits = pad_bits as i32 as u32;
    // The flat side's rows (bounds, hazards), then the row side's.
    let lo = first / cols;
    let hi = (end + cols - 1) / cols;
    x.rows(hz, c, Mem::Spad, lo, (hi - lo).max(0), !load)?;
    let mem = if to_acc { Mem::Acc } else { Mem::Spad };
    let side = x.rows(hz, c, mem, g(if load { "dst" } else { "src" }), pt + rows + pb, load)?;
    let cols = cols as usize;
    let mut cycles = LOCAL_DMA_LATENCY;
    for r in 0..(pt + rows + pb) as usize {
        let data_row = r as i64 - pt;
        if data_row < 0 || data_row >= rows {
            let buf = if to_acc { &mut st.acc } else { &mut st.spad };
            buf[(side + r) * cols..(side + r) * cols + width].fill(pad_bits);
            continue;
        }
        let at = (first + data_row * step) as usize;
        cycles += if at % cols + ncols as usize > cols { 2 } else { 1 };
        if load {
            let vals: Vec<u32> = st.spad[at..at + ncols as usize].to_vec();
            let buf = if to_acc { &mut st.acc } else { &mut st.spad };
            let row = &mut buf[(side + r) * cols..(side + r) * cols + width];
            row[..pl as usize].fill(pad_bits);
            row[(pl + ncols) as usize..].fill(pad_bits);
            row[pl as usize..(pl + ncols) as usize].copy_from_slice(&vals);
        } else {
            let buf = if to_acc { &st.acc } else { &st.spad };
            let vals: Vec<u32> = buf[(side + r) * cols..(side + r) * cols + ncols as usize]
                .iter()
                .map(|v| if dt == Some(Dtype::I8) { *v as u8 as i8 as i32 as u32 } else { *v })
                .collect();
            st.spad[at..at + ncols as usize].copy_from_slice(&vals);
        }
    }
    Ok(Outcome { cycles, latency: 0, macs: 0, read: 0, written: 0 })
}
