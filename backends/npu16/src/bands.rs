//! Row bands: a chain of convolutions, pools and the elementwise ops between
//! them whose intermediate maps are too large to stay in the scratchpad
//! runs band by band, before partitioning (`Backend::prepare`). Each band of
//! the chain's last map takes the rows of the maps before it that its
//! windows reach, so a band's intermediates are small enough to stay on chip
//! (`schedule/residency.rs`) and never touch DRAM. The halo rows two bands
//! share are computed again by the later band, or kept from the band before
//! and joined on chip to its new rows (a rolling window: a Slice and a
//! Concat, one local copy), whichever the cost model gives fewer cycles. The
//! chain's input is read where it lies and its result written in place
//! (`schedule/views.rs`: those Slices and the last Concat move nothing). The
//! band count is the fewest whose intermediates fit the scratchpad's share
//! for resident tensors; a chain is cut into the parts that save the most
//! DRAM bytes, each computing at most `MAX_RECOMPUTE` of its MACs twice.
//! An int8 chain in QDQ form keeps its groups in every band (`rows_in`,
//! `requantized`: Q(DQ(q)) = q). Exact: every band computes rows of the same ops.

use ir::attributes::{AttrData, Attribute};
use ir::body::OperationState;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, Type, Value};
use npu::hw::HwDesc;
use onnx::builder::Builder;
use onnx::ops;

/// The extra work banding may cost a chain (halo rows computed twice): past
/// it the array's cycles grow more than the DRAM bytes saved shorten a layer
/// (ResNet-18's first stage, 14%, costs 0.2M cycles a block for 2 MB). Below
/// it, the bands must also save more DRAM cycles than the cost model says
/// they add (`bands_for`).
pub const MAX_RECOMPUTE: f64 = 0.12;

/// At most this many links in a part run in bands: the cuts of a long chain
/// (VGG's 37 ops) are each planned, and a longer part's halos grow past
/// `MAX_RECOMPUTE` anyway.
const MAX_PART: usize = 16;

/// At most this many bands: beyond, a band's layers are mostly their start and drain.
const MAX_BANDS: i64 = 64;

/// Elementwise functions of one value: a band passes their rows through.
const UNARY: &[&str] = &[ops::Relu::NAME, ops::Clip::NAME, ops::Sigmoid::NAME, ops::Tanh::NAME, ops::LeakyRelu::NAME, ops::HardSigmoid::NAME, ops::HardSwish::NAME];
/// Elementwise ops of two values: the other operand is sliced to the band's rows (or taken whole when it has one row).
const BINARY: &[&str] = &[ops::Add::NAME, ops::Mul::NAME, ops::Sub::NAME];

/// How an op maps its output rows to its input rows.
#[derive(Clone, Copy, Debug)]
enum Rows {
    /// A window over H: kernel height, stride, padding above.
    Window { k: i64, s: i64, top: i64 },
    /// Row r of the output from row r of the input.
    Same,
}

/// One op of a chain.
#[derive(Clone, Debug)]
struct Link {
    op: OpId,
    rows: Rows,
    /// The operand that carries the chain.
    from: usize,
    /// The other operand of a binary op, when it has the output's rows (sliced per band).
    other_sliced: Option<usize>,
    in_h: i64,
    out_h: i64,
    /// Elements in one row (all channels, all columns) of its input and output.
    in_row: i64,
    out_row: i64,
    /// Multiply-accumulates per output row (convolutions; 0 for other ops).
    macs_row: i64,
    /// Bytes of its weights, read again by every band.
    weight_bytes: i64,
    /// A function of one value: fused into the op before it, its rows that op's.
    unary: bool,
    /// A depthwise conv: the vector unit's lanes, not the array, compute it.
    depthwise: bool,
    /// Bytes of an element of its input and of its output in DRAM.
    in_bytes: i64,
    out_bytes: i64,
    /// A QuantizeLinear or DequantizeLinear (of an int8 chain in QDQ form).
    qdq: bool,
}

/// A static map of one image: f32, or int8 between a QuantizeLinear and its DequantizeLinear.
fn nchw1(body: &Body, v: Value) -> Option<[i64; 4]> {
    let t = body.value_type(v);
    let moved = t.element_type().is_some_and(|e| matches!(e.data(), TypeData::Float(ir::FloatKind::F32) | TypeData::Integer { width: 8, .. }));
    let s = t.shape()?;
    (moved && s.len() == 4 && s[0] == 1 && s.iter().all(|d| *d > 0)).then(|| [s[0], s[1], s[2], s[3]])
}

fn bytes_of(body: &Body, v: Value) -> i64 {
    body.value_type(v).element_type().and_then(ir::attributes::element_bytes).unwrap_or(4) as i64
}

/// A QuantizeLinear or DequantizeLinear of one scale and zero point (per tensor).
fn per_tensor_qdq(body: &Body, op: OpId) -> bool {
    let n = body.name(op);
    (n.as_str() == ops::QuantizeLinear::NAME || n.as_str() == ops::DequantizeLinear::NAME)
        && body.op(op).operands()[1..].iter().all(|v| onnx::infer::const_f64s(body, *v).is_some_and(|c| c.len() == 1))
}

/// `op` as a link of a chain whose value `from` it reads (any operand 0 when `from` is None).
fn link(body: &Body, op: OpId, from: Option<Value>) -> Option<Link> {
    let o = body.op(op);
    let name = body.name(op);
    let n = name.as_str();
    if o.results().len() != 1 || o.operands().is_empty() {
        return None;
    }
    let y = nchw1(body, o.result(0))?;
    let window = n == ops::Conv::NAME || n == ops::MaxPool::NAME || n == ops::AveragePool::NAME;
    let idx = if BINARY.contains(&n) {
        let f = from?;
        let i = o.operands().iter().position(|v| *v == f)?;
        if o.operands().len() != 2 || o.operand(1 - i) == f {
            return None;
        }
        i
    } else if window || UNARY.contains(&n) || per_tensor_qdq(body, op) {
        if from.is_some_and(|f| o.operand(0) != f) {
            return None;
        }
        0
    } else {
        return None;
    };
    let x = nchw1(body, o.operand(idx))?;
    let mut l = Link { op, rows: Rows::Same, from: idx, other_sliced: None, in_h: x[2], out_h: y[2], in_row: x[1] * x[3], out_row: y[1] * y[3], macs_row: 0, weight_bytes: 0, unary: UNARY.contains(&n) || per_tensor_qdq(body, op), depthwise: false, in_bytes: bytes_of(body, o.operand(idx)), out_bytes: bytes_of(body, o.result(0)), qdq: per_tensor_qdq(body, op) };
    // Windows and elementwise ops compute in f32 (int8 ones between a DQ and a Q).
    if !l.unary && (l.in_bytes != 4 || l.out_bytes != 4) {
        return None;
    }
    if window {
        let ints = |a: &str| o.ints_attr(a);
        let auto = o.str_attr("auto_pad").unwrap_or("NOTSET");
        let dil_one = ints("dilations").is_none_or(|d| d.iter().all(|v| *v == 1));
        if (auto != "NOTSET" && auto != "VALID") || !dil_one || o.int_attr("ceil_mode").unwrap_or(0) != 0 {
            return None;
        }
        let pads = ints("pads").unwrap_or(vec![0; 4]);
        let strides = ints("strides").unwrap_or(vec![1, 1]);
        let kernel = if n == ops::Conv::NAME {
            let w = body.value_type(o.operand(1)).shape()?.to_vec();
            if w.len() != 4 {
                return None;
            }
            l.macs_row = y[1] * y[3] * w[1] * w[2] * w[3];
            // int8 weights are a DequantizeLinear of a constant.
            let wq = body.defining_op(o.operand(1)).filter(|d| body.name(*d).as_str() == ops::DequantizeLinear::NAME).map(|d| body.op(d).operand(0));
            l.weight_bytes = bytes_of(body, wq.unwrap_or(o.operand(1))) * w.iter().product::<i64>();
            l.depthwise = w[1] == 1 && o.int_attr("group").unwrap_or(1) == x[1] && x[1] > 1;
            vec![w[2], w[3]]
        } else {
            ints("kernel_shape")?
        };
        // A window shorter than its stride skips rows of its input, which no band would compute.
        if pads.len() != 4 || strides.len() != 2 || kernel.len() != 2 || kernel[0] < strides[0] {
            return None;
        }
        l.rows = Rows::Window { k: kernel[0], s: strides[0], top: pads[0] };
    } else if BINARY.contains(&n) {
        let other = body.value_type(o.operand(1 - idx)).shape()?.to_vec();
        if x != y {
            return None;
        }
        if other == y {
            l.other_sliced = Some(1 - idx);
        } else if other.len() >= 2 && other[other.len() - 2] != 1 {
            return None;
        }
    } else if x != y {
        return None;
    }
    Some(l)
}

/// The input rows `[lo, hi)` a link reads for its output rows `[a, b)`, and the padding above and below them.
fn input_rows(l: &Link, a: i64, b: i64) -> (i64, i64, i64, i64) {
    match l.rows {
        Rows::Same => (a, b, 0, 0),
        Rows::Window { k, s, top } => {
            let (lo, hi) = (a * s - top, (b - 1) * s - top + k);
            let (lc, hc) = (lo.max(0), hi.min(l.in_h));
            (lc, hc, lc - lo, hi - hc)
        }
    }
}

/// One band: per link, the rows `[a, b)` of its output it computes, and
/// where its input's first rows are kept from the band before (a rolling
/// window) rather than computed again, those rows `[lo, k)`.
#[derive(Clone, Debug, PartialEq)]
struct Band {
    out: Vec<(i64, i64)>,
    kept: Vec<Option<(i64, i64)>>,
}

/// The bands of `n` of the chain's last map, first band first; a link with
/// `rolling` set takes its halo rows from the band before.
fn band_rows(chain: &[Link], n: i64, rolling: &[bool]) -> Vec<Band> {
    let h = chain.last().unwrap().out_h;
    let r = (h + n - 1) / n;
    let mut bands: Vec<Band> = vec![];
    for start in (0..h).step_by(r as usize) {
        let mut band = Band { out: vec![(0, 0); chain.len()], kept: vec![None; chain.len()] };
        let (mut a, mut b) = (start, (start + r).min(h));
        for (i, l) in chain.iter().enumerate().rev() {
            band.out[i] = (a, b);
            let (lo, hi, _, _) = input_rows(l, a, b);
            (a, b) = (lo, hi);
            if let Some(prev) = bands.last().filter(|_| i > 0 && rolling[i]) {
                let (pa, pb) = prev.out[i - 1];
                if pa <= lo && lo < pb && pb < hi {
                    band.kept[i] = Some((lo, pb));
                    a = pb;
                }
            }
        }
        bands.push(band);
    }
    bands
}

/// What banding a chain costs and saves.
#[derive(Debug, PartialEq)]
struct Cost {
    /// The scratchpad rows a band keeps on chip at its peak: the input of a
    /// link and its output where both are intermediates (and, rolling, the
    /// band before's rows and the new ones the input is joined from).
    peak: i64,
    /// The chain's MACs, halo rows included.
    macs: i64,
    /// DRAM bytes: the intermediates' writes and reads saved, less the
    /// weights every band reads again and the halo rows of the chain's input.
    saved: i64,
    /// Modelled cycles of the bands' extra work: halo rows computed again
    /// (the array's or the vector unit's MACs a cycle), rows joined on chip
    /// (a row a cycle), and each band's layers' starts.
    extra: i64,
}

/// Links past the last one that is not a function of one value produce the chain's result.
fn last_real(chain: &[Link]) -> usize {
    chain.iter().rposition(|l| !l.unary).unwrap_or(0)
}

/// Cycles a layer costs to start and to drain before the fence after it
/// (MobileNetV2-like: 0.3M more cycles for 320 more layers).
const LAYER_CYCLES: i64 = 1000;

fn cost(chain: &[Link], bands: &[Band], lanes: i64) -> Cost {
    let mut c = Cost { peak: 0, macs: 0, saved: 0, extra: 0 };
    let last = last_real(chain);
    let mut done = vec![0i64; chain.len()];
    let rows_of = |n: i64, per_row: i64| (n * per_row + lanes - 1) / lanes;
    // The array: lanes x lanes MACs every 4 cycles (f32's rate; an int8
    // chain's halo rows cost about that much too, with their bands' moves of
    // requantized rows: at int8's rate ResNet-18's int8 first stage paid 0.07M
    // cycles a block in bands to save 23 KB); the vector unit: a lane's.
    let array_rate = (lanes * lanes / 4).max(1);
    for (j, band) in bands.iter().enumerate() {
        for (i, l) in chain.iter().enumerate() {
            let (a, b) = band.out[i];
            c.macs += (b - a) * l.macs_row;
            let rate = if l.depthwise { lanes } else { array_rate };
            c.extra += (done[i] - a).max(0) * l.macs_row / rate;
            done[i] = done[i].max(b);
            if l.unary {
                continue;
            }
            c.extra += LAYER_CYCLES;
            let (lo, hi, _, _) = input_rows(l, a, b);
            let input = if i > 0 { rows_of(hi - lo, l.in_row) } else { 0 };
            let output = if i < last { rows_of(b - a, l.out_row) } else { 0 };
            c.peak = c.peak.max(input + output);
            if let Some((_, k)) = band.kept[i] {
                // The join: the band before's rows, the new ones and the input they make.
                c.extra += input + LAYER_CYCLES;
                let (pa, pb) = bands[j - 1].out[i - 1];
                c.peak = c.peak.max(rows_of(pb - pa, l.in_row) + rows_of(hi - k, l.in_row) + input);
            }
            if i == 0 {
                c.saved -= l.in_bytes * (hi - lo) * l.in_row;
            }
        }
    }
    let n = bands.len() as i64;
    c.saved += chain[0].in_bytes * chain[0].in_h * chain[0].in_row;
    for (i, l) in chain.iter().enumerate() {
        if i < last && !l.unary {
            c.saved += 2 * l.out_bytes * l.out_h * l.out_row;
        }
        c.saved -= (n - 1) * l.weight_bytes;
    }
    c
}

/// The bands of `n` with, per windowed link after the first, its halo rows
/// kept from the band before where joining them costs fewer cycles than
/// computing them again and the bands still fit `budget` rows.
fn choose(chain: &[Link], n: i64, budget: i64, lanes: i64) -> (Vec<Band>, Cost) {
    let mut rolling = vec![false; chain.len()];
    let mut bands = band_rows(chain, n, &rolling);
    let mut c = cost(chain, &bands, lanes);
    // An int8 chain's windows read a DequantizeLinear's result: a join between them would break the QDQ group.
    let int8 = chain.iter().any(|l| l.qdq);
    for i in 1..chain.len() {
        if int8 || !matches!(chain[i].rows, Rows::Window { .. }) {
            continue;
        }
        rolling[i] = true;
        let b2 = band_rows(chain, n, &rolling);
        let c2 = cost(chain, &b2, lanes);
        if c2.extra < c.extra && c2.peak <= budget.max(c.peak) {
            (bands, c) = (b2, c2);
        } else {
            rolling[i] = false;
        }
    }
    (bands, c)
}

/// The fewest bands whose intermediates fit `budget` rows, with at most
/// `MAX_RECOMPUTE` more work and fewer DRAM bytes, when the chain's maps do
/// not fit whole and the DRAM cycles saved exceed the cycles the cost model
/// says banding adds (over the whole chain's: its halo rows, joins and the
/// layer starts past one a layer); and the DRAM bytes they save. (Without that
/// last test an int8 first stage of ResNet-18 ran in bands to save 23 KB for
/// 0.07M cycles, and the stem and its pool could not, within a lower limit.)
fn bands_for(chain: &[Link], budget: i64, lanes: i64, dram_bytes_per_cycle: i64) -> Option<(Vec<Band>, i64)> {
    if last_real(chain) == 0 {
        return None;
    }
    let whole = cost(chain, &band_rows(chain, 1, &vec![false; chain.len()]), lanes);
    if whole.peak <= budget {
        return None;
    }
    // The fewest bands that fit (the fewest layers), if they pay.
    let h = chain.last().unwrap().out_h;
    let (bands, c) = (2..=h.min(MAX_BANDS)).map(|n| choose(chain, n, budget, lanes)).find(|(_, c)| c.peak <= budget)?;
    // The whole chain starts each layer once too: banding adds the rest.
    let added = c.extra - whole.extra;
    ((c.macs as f64) <= whole.macs as f64 * (1.0 + MAX_RECOMPUTE) && c.saved > added.saturating_mul(dram_bytes_per_cycle)).then_some((bands, c.saved))
}

/// The parts of a chain to run in bands, and their bands: of the ways
/// to cut it into parts (each starting with a window, each ending before a
/// link that is not a function of one value, so activations stay with their
/// producer), the one that saves the most DRAM bytes.
fn plan(chain: &[Link], budget: i64, lanes: i64, dram_bytes_per_cycle: i64) -> Vec<(std::ops::Range<usize>, Vec<Band>)> {
    let n = chain.len();
    // best[i]: the bytes saved by the best cut of chain[..i], and its parts.
    let mut best: Vec<(i64, Vec<(std::ops::Range<usize>, Vec<Band>)>)> = vec![(0, vec![])];
    for i in 1..=n {
        let mut b = best[i - 1].clone();
        if i == n || !chain[i].unary {
            for j in (i.saturating_sub(MAX_PART)..i.saturating_sub(1)).filter(|j| matches!(chain[*j].rows, Rows::Window { .. })) {
                if let Some((bands, saved)) = bands_for(&chain[j..i], budget, lanes, dram_bytes_per_cycle) {
                    if best[j].0 + saved > b.0 {
                        let mut parts = best[j].1.clone();
                        parts.push((j..i, bands));
                        b = (best[j].0 + saved, parts);
                    }
                }
            }
        }
        best.push(b);
    }
    best.pop().map(|b| b.1).unwrap_or_default()
}

/// Chains of links in program order: each link's value has one use, the next link.
fn chains(body: &Body, module: OpId, ours: &dyn Fn(&Body, OpId) -> bool) -> Vec<Vec<Link>> {
    let mut seen: std::collections::HashSet<OpId> = std::collections::HashSet::new();
    let mut out = vec![];
    for op in body.walk_preorder(module) {
        if seen.contains(&op) || !ours(body, op) {
            continue;
        }
        let Some(first) = link(body, op, None).filter(|l| matches!(l.rows, Rows::Window { .. })) else { continue };
        let mut chain = vec![first];
        loop {
            let v = body.op(chain.last().unwrap().op).result(0);
            let uses = body.uses(v);
            if uses.len() != 1 || !ours(body, uses[0].op) || seen.contains(&uses[0].op) {
                break;
            }
            match link(body, uses[0].op, Some(v)) {
                Some(l) => chain.push(l),
                None => break,
            }
        }
        seen.extend(chain.iter().map(|l| l.op));
        out.push(chain);
    }
    out
}

fn name_of(body: &Body, op: OpId) -> String {
    body.op(op).loc.node_name().unwrap_or_else(|| body.name(op).as_str().to_string())
}

fn rows_type(ctx: &Context, body: &Body, v: Value, h: i64) -> Type {
    let mut s = body.value_type(v).shape().unwrap().to_vec();
    s[2] = h;
    let elem = body.value_type(v).element_type().unwrap().clone();
    ctx.intern_type(TypeData::RankedTensor { shape: s, elem, encoding: None })
}

fn slice_rows(ctx: &Context, b: &mut Builder, v: Value, lo: i64, hi: i64) -> (Value, Vec<OpId>) {
    let ty = rows_type(ctx, b.body, v, hi - lo);
    let (s, e, a) = (b.i64s(&[lo]), b.i64s(&[hi]), b.i64s(&[2]));
    let op = ops::Slice::build(b, v, s, e, Some(a), None, &[ty]).op();
    let consts = [s, e, a].iter().filter_map(|c| b.body.defining_op(*c)).collect::<Vec<_>>();
    (b.body.op(op).result(0), consts.into_iter().chain([op]).collect())
}

/// Rows `[lo, hi)` of `v`. A per-tensor DequantizeLinear's result is sliced
/// and quantized and dequantized again with its scale and zero point
/// (Q(DQ(q)) = q, exactly), so npu16 moves int8 rows (DQ → Slice → Q) and the
/// op that reads them keeps its DequantizeLinear (DQ → Conv → Q).
fn rows_in(ctx: &Context, b: &mut Builder, v: Value, lo: i64, hi: i64) -> (Value, Vec<OpId>) {
    let (s, mut made) = slice_rows(ctx, b, v, lo, hi);
    match b.body.defining_op(v).filter(|d| b.body.name(*d).as_str() == ops::DequantizeLinear::NAME && per_tensor_qdq(b.body, *d)) {
        Some(dq) => {
            let (y, more) = requantized(ctx, b, s, dq);
            made.extend(more);
            (y, made)
        }
        None => (s, made),
    }
}

/// `x` (f32 rows of `dq`'s result) quantized with `dq`'s scale and zero point and dequantized again.
fn requantized(ctx: &Context, b: &mut Builder, x: Value, dq: OpId) -> (Value, Vec<OpId>) {
    let o = b.body.op(dq);
    let (q_in, params, name, properties, attributes) = (o.operand(0), o.operands()[1..].to_vec(), o.name, o.properties.clone(), o.attributes.clone());
    let h = b.body.value_type(x).shape().unwrap()[2];
    let q_ty = rows_type(ctx, b.body, q_in, h);
    let x_ty = b.body.value_type(x).clone();
    let q = b.build_op(ops::QuantizeLinear::NAME, &[Some(x), Some(params[0]), params.get(1).copied()], &[], &[q_ty], &[]);
    let qv = b.body.op(q).result(0);
    let mut st = OperationState::new(name, b.loc.clone()).operands(&[qv]).operands(&params).results(std::slice::from_ref(&x_ty));
    st.properties = properties;
    st.attributes = attributes;
    let d = b.build(st);
    (b.body.op(d).result(0), vec![q, d])
}

/// Bands every chain of npu16's ops (`ours`) that needs them, where npu16
/// takes each band's ops (`takes`); the rest stay as they are.
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId, hw: &HwDesc, ours: &dyn Fn(&Body, OpId) -> bool, takes: &dyn Fn(&Body, OpId) -> bool) {
    if hw.spad_dma == 0 {
        return;
    }
    let lanes = hw.array_cols as i64;
    let budget = hw.spad_rows as i64 - crate::schedule::residency::working_part(hw).spad_rows as i64;
    for chain in chains(body, module, ours) {
        for (part, bands) in plan(&chain, budget, lanes, hw.dram_bytes_per_cycle as i64) {
            band(ctx, body, &chain[part], &bands, takes);
        }
    }
}

/// Rewrites `chain` as `bands` (their Slices, ops, joins and the Concat of
/// the last link's rows), or leaves it whole where npu16 would not take one
/// of the ops built.
fn band(ctx: &Context, body: &mut Body, chain: &[Link], bands: &[Band], takes: &dyn Fn(&Body, OpId) -> bool) {
    // An int8 chain's ops are npu16's as QDQ groups (`fusion.rs`), which a
    // lone op's check refuses: its bands keep the groups the whole had
    // (each DQ → op → Q, the rows moved as int8), so they are not asked.
    let int8 = chain.iter().any(|l| l.qdq);
    let takes = |body: &Body, op: OpId| int8 || takes(body, op);
    // An int8 part must end with its DequantizeLinear (a Concat right after a
    // QuantizeLinear, or of a DQ's op, is not a move npu16 runs): else it stays whole.
    if int8 && !chain.last().is_some_and(|l| l.qdq && l.out_bytes == 4) {
        return;
    }
    let last = chain.last().unwrap().op;
    let x = body.op(chain[0].op).operand(chain[0].from);
    let first = name_of(body, chain[0].op);
    let loc = Location::name(&format!("{}/bands", name_of(body, last)));
    let y = body.op(last).result(0);
    let y_ty = body.value_type(y).clone();
    let mut built: Vec<OpId> = vec![];
    let mut pieces = vec![];
    let mut ok = true;
    // Per link, the last row an earlier band computed.
    let mut done = vec![0i64; chain.len()];
    // The band before's result of each link, and its first row.
    let mut before: Vec<(Value, i64)> = vec![];
    for band in bands {
        let rows = &band.out;
        let (lo, hi, _, _) = input_rows(&chain[0], rows[0].0, rows[0].1);
        let mut b = Builder::new(ctx, body, InsertPoint::Before(last), Location::name(&format!("{}/band{}", first, pieces.len())));
        let (mut cur, made) = rows_in(ctx, &mut b, x, lo, hi);
        ok &= made.iter().all(|s| takes(b.body, *s) || b.body.name(*s).as_str() == ops::Constant::NAME);
        built.extend(made);
        let mut outs = vec![];
        for (i, l) in chain.iter().enumerate() {
            let (a, bb) = rows[i];
            let o = b.body.op(l.op);
            let (name, mut properties, attributes, l_loc) = (o.name, o.properties.clone(), o.attributes.clone(), o.loc.clone());
            let mut operands = o.operands().to_vec();
            let result = rows_type(ctx, b.body, o.result(0), bb - a);
            if let Some((klo, k)) = band.kept[i] {
                // Its first rows as the band before computed them, joined on chip to the new ones.
                b.loc = Location::name(&format!("{}/band{}", name_of(b.body, l.op), pieces.len()));
                let (prev, at) = before[i - 1];
                let (kept, made) = slice_rows(ctx, &mut b, prev, klo - at, k - at);
                ok &= made.last().is_some_and(|s| takes(b.body, *s));
                built.extend(made);
                let (_, hi, _, _) = input_rows(l, a, bb);
                let ty = rows_type(ctx, b.body, cur, hi - klo);
                let j = ops::Concat::build(&mut b, &[kept, cur], &[ty], &ops::ConcatAttrs { axis: Some(2) }).op();
                built.push(j);
                ok &= takes(b.body, j);
                cur = b.body.op(j).result(0);
            }
            b.loc = l_loc;
            operands[l.from] = cur;
            if let Some(k) = l.other_sliced {
                let here = Location::name(&format!("{}/band{}", name_of(b.body, l.op), pieces.len()));
                let at = std::mem::replace(&mut b.loc, here);
                let (v, made) = rows_in(ctx, &mut b, operands[k], a, bb);
                b.loc = at;
                operands[k] = v;
                ok &= made.iter().all(|s| takes(b.body, *s) || b.body.name(*s).as_str() == ops::Constant::NAME);
                built.extend(made);
            }
            if let Rows::Window { .. } = l.rows {
                let (_, _, top, bottom) = input_rows(l, a, bb);
                let mut pads = b.body.op(l.op).ints_attr("pads").unwrap_or(vec![0; 4]);
                pads[0] = top;
                pads[2] = bottom;
                properties.set(ctx.ident("pads"), Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ir::attributes::ArrayData::Int(pads) }));
            }
            let mut st = OperationState::new(name, b.loc.clone()).operands(&operands).results(std::slice::from_ref(&result));
            st.properties = properties;
            st.attributes = attributes;
            let p = b.build(st);
            built.push(p);
            // Its halo rows (an earlier band's too) are not the model's work twice.
            let useful = bb - a.max(done[i]);
            done[i] = done[i].max(bb);
            if useful < bb - a {
                b.body.op_mut(p).attributes.set(ctx.ident(backend::partition::USEFUL_ROWS_ATTR), Attribute::integer(useful as i128, ctx.i64()));
            }
            ok &= takes(b.body, p);
            cur = b.body.op(p).result(0);
            outs.push((cur, a));
        }
        before = outs;
        pieces.push(cur);
    }
    let mut b = Builder::new(ctx, body, InsertPoint::Before(last), loc);
    let c = ops::Concat::build(&mut b, &pieces, &[y_ty], &ops::ConcatAttrs { axis: Some(2) }).op();
    built.push(c);
    ok &= takes(b.body, c);
    let mut joined = b.body.op(c).result(0);
    // The bands of an int8 chain end with a DequantizeLinear each: joined in
    // f32 and quantized again (DQ → Concat → Q, an int8 move), then the
    // consumers read the chain's DequantizeLinear as they did.
    if int8 {
        let (d, made) = requantized(ctx, &mut b, joined, last);
        built.extend(made);
        joined = d;
    }
    if !ok {
        // npu16 would not run some band's op: the chain stays whole.
        for d in built.into_iter().rev() {
            body.erase(d);
        }
        return;
    }
    body.replace_all_uses(y, joined);
    for l in chain.iter().rev() {
        body.erase(l.op);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(k: i64, s: i64, top: i64, in_h: i64, out_h: i64) -> Link {
        Link { op: OpId(0), rows: Rows::Window { k, s, top }, from: 0, other_sliced: None, in_h, out_h, in_row: 16, out_row: 16, macs_row: 16 * 9, weight_bytes: 0, unary: false, depthwise: false, in_bytes: 4, out_bytes: 4, qdq: false }
    }

    /// A 3x3 stride-1 conv then a 3x3 stride-2 one: each band's rows reach back through both windows, clipped at the map's edges with the padding there.
    #[test]
    fn bands_reach_back_through_the_windows() {
        let chain = [conv(3, 1, 1, 8, 8), conv(3, 2, 1, 8, 4)];
        let bands = band_rows(&chain, 2, &[false, false]);
        assert_eq!(bands.iter().map(|b| b.out.clone()).collect::<Vec<_>>(), vec![vec![(0, 4), (0, 2)], vec![(3, 8), (2, 4)]]);
        // Rolling: the second band's conv takes row 3 from the first band and computes rows 4..8.
        let rolled = band_rows(&chain, 2, &[false, true]);
        assert_eq!(rolled[1].out, vec![(4, 8), (2, 4)]);
        assert_eq!(rolled[1].kept, vec![None, Some((3, 4))]);
        assert_eq!(input_rows(&chain[1], 0, 2), (0, 4, 1, 0));
        assert_eq!(input_rows(&chain[1], 2, 4), (3, 8, 0, 0));
        assert_eq!(input_rows(&chain[0], 3, 8), (2, 8, 0, 1));
    }

    /// Bands run only where the DRAM cycles they save exceed the cycles the
    /// cost model says banding adds to the whole chain's (halo rows, the
    /// layer starts past one a layer).
    #[test]
    fn bands_save_more_dram_cycles_than_they_add() {
        let chain = [conv(3, 1, 1, 64, 64), conv(3, 1, 1, 64, 64)];
        let (bands, saved) = bands_for(&chain, 48, 16, 1).expect("two bands fit and pay at a byte a cycle");
        assert_eq!(bands.len(), 2);
        let whole = cost(&chain, &band_rows(&chain, 1, &[false, false]), 16);
        let added = cost(&chain, &bands, 16).extra - whole.extra;
        // Saved: the intermediate's write and read (2 x 64 rows of 64 bytes), less the input's
        // halo (68 rows read for 64); added: two halo rows of conv 0, and two layers started twice.
        assert_eq!((saved, added), (8192 + 4096 - 68 * 64, 2 * 144 / 64 + 2 * LAYER_CYCLES));
        // 7936 bytes against 2004 cycles: they pay at 3 bytes a cycle, not at 4.
        assert!(bands_for(&chain, 48, 16, 3).is_some());
        assert!(bands_for(&chain, 48, 16, 4).is_none());
    }
}
