//! Tensors kept on chip between layers. Every layer is scheduled first as if
//! its intermediates lived in the program's DRAM `scratch` argument; then
//! each such tensor moves into the scratchpad (`%spad`, where the target's
//! DMA engines address it: npu16 revision 3) when rows above the working
//! buffers of every layer that touches it are free for its whole lifetime,
//! the shortest-lived first (a first-fit over liveness intervals). The DMAs
//! that write and read it are rewritten to address it there, so the kernels
//! (their tiles, pipelines and buffers) stay exactly as scheduled; the tensors
//! left in DRAM are packed again.

use super::SCRATCH_ARG;
use npu::asm::{Inst, Operand};
use npu::hw::HwDesc;
use npu::schedule::{extent, insts as isa, Slot};

/// An intermediate tensor as first placed in `scratch`.
#[derive(Clone, Debug)]
pub struct Scratch {
    pub offset: i64,
    pub bytes: i64,
    /// Bytes per element: each element takes one scratchpad lane on chip.
    pub elem: i64,
}

/// What placing did: the new size of `scratch` and the tensors kept on chip.
#[derive(Debug, Default)]
pub struct Placed {
    pub scratch_bytes: i64,
    pub on_chip: usize,
    pub on_chip_bytes: i64,
}

/// The description a layer is scheduled for where tensors stay on chip: the
/// lower `WORKING_SHARE` of the scratchpad, the rest left to them.
pub fn working_part(hw: &HwDesc) -> HwDesc {
    if hw.spad_dma == 0 {
        return hw.clone();
    }
    HwDesc { spad_rows: (hw.spad_rows as f64 * WORKING_SHARE) as u64, ..hw.clone() }
}

/// The share of the scratchpad a layer's tiles may take (by the benchmark models' cycles and DRAM bytes).
const WORKING_SHARE: f64 = 0.5;

/// The scratchpad rows the instructions of each layer use (one past the highest).
fn working_rows(insts: &[Inst]) -> Vec<i64> {
    let mut w = vec![0i64];
    for inst in insts {
        if inst.mnemonic == "layer" {
            w.push(0);
            continue;
        }
        let Some(def) = isa().iter().find(|d| d.mnemonic == inst.mnemonic) else { continue };
        let g = |f: &str| inst.int(f);
        let flag = |f: &str| inst.get(f).is_some();
        for (field, slot) in def.operands {
            if *slot == Slot::Spad && inst.get(field).is_some() {
                let top = inst.int(field) + extent(def.mnemonic, field, &g, &flag);
                let last = w.last_mut().unwrap();
                *last = (*last).max(top);
            }
        }
    }
    w
}

fn elem_bytes(dtype: Option<&str>) -> i64 {
    match dtype {
        Some("i8") => 1,
        _ => 4,
    }
}

/// Moves what fits of `tensors` (sorted by offset, disjoint) into the
/// scratchpad and rewrites `insts`' addresses; returns the new `scratch` size.
pub fn place(insts: &mut [Inst], tensors: &[Scratch], hw: &HwDesc) -> Placed {
    let n = tensors.len();
    let lanes = hw.array_cols as i64;
    let find = |off: i64| tensors.partition_point(|t| t.offset <= off).checked_sub(1).filter(|&t| off < tensors[t].offset + tensors[t].bytes);
    // Each tensor's first and last layer, and whether every DMA reads it whole elements at a time.
    let mut life: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut eligible = vec![hw.spad_dma != 0; n];
    let mut layer = 0usize;
    for inst in insts.iter() {
        if inst.mnemonic == "layer" {
            layer += 1;
            continue;
        }
        for (_, v) in &inst.operands {
            let Operand::Dram(arg, off) = v else { continue };
            if arg != SCRATCH_ARG {
                continue;
            }
            // A DMA outside every tensor (none is emitted so) would read another once they move: nothing moves.
            let Some(t) = find(*off) else {
                return Placed { scratch_bytes: tensors.iter().map(|t| t.offset + (t.bytes + 63) / 64 * 64).max().unwrap_or(0), ..Placed::default() };
            };
            // Its last byte must lie in the tensor too (not in the DRAM alignment padding).
            let eb = elem_bytes(inst.dtype);
            let stride = if inst.int("stride") == 0 { inst.int("cols") * eb } else { inst.int("stride") };
            let end = *off + (inst.int("rows") - 1).max(0) * stride + inst.int("cols") * eb;
            if end > tensors[t].offset + tensors[t].bytes {
                eligible[t] = false;
            }
            let l = life[t].get_or_insert((layer, layer));
            l.1 = layer;
            if eb != tensors[t].elem || (off - tensors[t].offset) % eb != 0 || inst.int("stride") % eb != 0 {
                eligible[t] = false;
            }
        }
    }
    let w = working_rows(insts);
    // First-fit over liveness, in order of first use.
    let mut order: Vec<usize> = (0..n).filter(|t| eligible[*t] && life[*t].is_some()).collect();
    order.sort_by_key(|t| { let (a, b) = life[*t].unwrap(); (b - a, a) });
    let mut base: Vec<Option<i64>> = vec![None; n];
    for &t in &order {
        let (a, b) = life[t].unwrap();
        let rows = (tensors[t].bytes / tensors[t].elem + lanes - 1) / lanes;
        let mut lo = w[a..=b].iter().copied().max().unwrap_or(0);
        let mut taken: Vec<(i64, i64)> = order
            .iter()
            .filter_map(|&u| {
                let (ua, ub) = life[u].unwrap();
                let at = base[u]?;
                (ua <= b && a <= ub).then(|| (at, at + (tensors[u].bytes / tensors[u].elem + lanes - 1) / lanes))
            })
            .collect();
        taken.sort();
        for (s, e) in taken {
            if lo + rows <= s {
                break;
            }
            lo = lo.max(e);
        }
        if lo + rows <= hw.spad_rows as i64 {
            base[t] = Some(lo);
        }
    }
    // The tensors left in DRAM, packed; then every address rewritten.
    let mut placed = Placed::default();
    let mut new_off = vec![0i64; n];
    for t in 0..n {
        if base[t].is_some() {
            placed.on_chip += 1;
            placed.on_chip_bytes += tensors[t].bytes;
            continue;
        }
        new_off[t] = placed.scratch_bytes;
        placed.scratch_bytes += (tensors[t].bytes + 63) / 64 * 64;
    }
    for inst in insts.iter_mut() {
        for (_, v) in inst.operands.iter_mut() {
            let Operand::Dram(arg, off) = v else { continue };
            if arg != SCRATCH_ARG {
                continue;
            }
            let Some(t) = find(*off) else { continue };
            let within = *off - tensors[t].offset;
            *v = match base[t] {
                Some(row) => Operand::Dram(npu::asm::SPAD_ARG.to_string(), row * lanes * tensors[t].elem + within),
                None => Operand::Dram(SCRATCH_ARG.to_string(), new_off[t] + within),
            };
        }
    }
    placed
}
