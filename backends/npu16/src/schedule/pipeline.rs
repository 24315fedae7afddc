//! Double buffering through semaphores, for every kernel: a layer is a list
//! of steps; each step may refill some buffer classes (DMA on the load
//! queue), computes (exec queue) and stores (store queue). Emission order is
//! the software pipeline `loads(0); for t { loads(t+1); compute(t); store(t) }`,
//! so every wait's signal comes earlier in program order and fetch never
//! deadlocks; tokens are balanced within the layer (a `free` is signalled only
//! if a later fill waits for it), so the next layer reuses the semaphores.

use npu::asm::{Inst, Operand};

/// What one step does.
#[derive(Default)]
pub struct Step {
    /// DMA instructions refilling a class's next slot: (class, instructions).
    pub loads: Vec<(usize, Vec<Inst>)>,
    pub compute: Vec<Inst>,
    pub stores: Vec<Inst>,
}

/// How a buffer class is released.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// When exec is done reading it (inputs in the scratchpad or accumulator).
    Exec,
    /// When the store queue has written it out (the output lives in the loaded slot).
    Store,
    /// Never: each fill has rows of its own (a conv's stationary weights, one
    /// output block's at a time, loaded while the block before computes).
    Never,
}

const S_INIT: i64 = 0;
fn full(c: usize) -> i64 {
    1 + 2 * c as i64
}
fn free(c: usize) -> i64 {
    2 + 2 * c as i64
}
/// The output ring's semaphores come after the classes'.
fn acc_full(n: usize) -> i64 {
    1 + 2 * n as i64
}
fn acc_free(n: usize) -> i64 {
    2 + 2 * n as i64
}

fn sem(kind: &'static str, queue: &'static str, s: i64) -> Inst {
    Inst::new(kind, None).with("queue", Operand::Queue(queue)).i("sem", s)
}

/// Emits a layer: one-time `prologue` loads (biases, stationary weights),
/// then the steps, pipelined. `acc_ring`: each step's output goes to its own
/// accumulator slot (two, alternating) that the store queue releases.
pub fn emit(out: &mut Vec<Inst>, prologue: Vec<Inst>, steps: Vec<Step>, releases: &[Release], acc_ring: bool) {
    let n = steps.len();
    let classes = releases.len();
    // Fill index of each class at each step, and whether step t refills it.
    let mut fills = vec![vec![usize::MAX; classes]; n];
    let mut count = vec![0usize; classes];
    let mut refill = vec![vec![false; classes]; n];
    for (t, s) in steps.iter().enumerate() {
        for (c, _) in &s.loads {
            refill[t][*c] = true;
            count[*c] += 1;
        }
        for c in 0..classes {
            fills[t][c] = count[c].wrapping_sub(1);
        }
    }
    // Step t is the last user of its fill of c when the next step refills c (or none follows).
    let last_user = |t: usize, c: usize| t + 1 == n || refill[t + 1][c];
    let has_prologue = !prologue.is_empty();
    if has_prologue {
        out.extend(prologue);
        out.push(sem("sem.signal", "load", S_INIT));
    }
    let mut steps: Vec<Option<Step>> = steps.into_iter().map(Some).collect();
    let loads_of = |t: usize, steps: &mut Vec<Option<Step>>, out: &mut Vec<Inst>| {
        let Some(s) = steps[t].as_mut() else { return };
        for (c, dmas) in std::mem::take(&mut s.loads) {
            if fills[t][c] >= 2 && releases[c] != Release::Never {
                out.push(sem("sem.wait", "load", free(c)));
            }
            out.extend(dmas);
            out.push(sem("sem.signal", "load", full(c)));
        }
    };
    if n > 0 {
        loads_of(0, &mut steps, out);
    }
    for t in 0..n {
        if t + 1 < n {
            loads_of(t + 1, &mut steps, out);
        }
        let s = steps[t].take().unwrap();
        if t == 0 && has_prologue {
            out.push(sem("sem.wait", "exec", S_INIT));
        }
        for c in 0..classes {
            if refill[t][c] {
                out.push(sem("sem.wait", "exec", full(c)));
            }
        }
        if acc_ring && t >= 2 {
            out.push(sem("sem.wait", "exec", acc_free(classes)));
        }
        out.extend(s.compute);
        out.push(sem("sem.signal", "exec", acc_full(classes)));
        // A fill is released for the fill two after it, if there is one.
        let later_fill = |c: usize| fills[t][c] != usize::MAX && fills[t][c] + 2 < count[c];
        for c in 0..classes {
            if releases[c] == Release::Exec && last_user(t, c) && later_fill(c) {
                out.push(sem("sem.signal", "exec", free(c)));
            }
        }
        out.push(sem("sem.wait", "store", acc_full(classes)));
        out.extend(s.stores);
        if acc_ring && t + 2 < n {
            out.push(sem("sem.signal", "store", acc_free(classes)));
        }
        for c in 0..classes {
            if releases[c] == Release::Store && last_user(t, c) && later_fill(c) {
                out.push(sem("sem.signal", "store", free(c)));
            }
        }
    }
    out.push(Inst::new("fence", None));
}

/// Semaphores a layer with `classes` classes uses (for the verifier's 16).
pub fn semaphores(classes: usize) -> usize {
    3 + 2 * classes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dma(q: &'static str) -> Inst {
        Inst::new(q, Some("f32"))
    }

    /// Signals and waits per semaphore balance, and every wait's signal comes earlier in program order.
    fn check_balanced(out: &[Inst]) {
        let mut tokens = std::collections::HashMap::new();
        for i in out {
            match i.mnemonic {
                "sem.signal" => *tokens.entry(i.int("sem")).or_insert(0i64) += 1,
                "sem.wait" => {
                    let t = tokens.entry(i.int("sem")).or_insert(0i64);
                    *t -= 1;
                    assert!(*t >= 0, "a wait on s{} before its signal in program order", i.int("sem"));
                }
                _ => {}
            }
        }
        assert!(tokens.values().all(|t| *t == 0), "tokens left over: {:?}", tokens);
    }

    #[test]
    fn tokens_balance_for_any_refill_pattern() {
        for n in 1..7 {
            for refill_every in 1..4 {
                for acc_ring in [false, true] {
                    let steps: Vec<Step> = (0..n)
                        .map(|t| Step {
                            loads: if t % refill_every == 0 { vec![(0, vec![dma("dma.load")]), (1, vec![dma("dma.load")])] } else { vec![(1, vec![dma("dma.load")])] },
                            compute: vec![dma("mx.mul")],
                            stores: vec![dma("dma.storeacc")],
                        })
                        .collect();
                    let mut out = vec![];
                    emit(&mut out, vec![dma("dma.loadacc")], steps, &[Release::Exec, Release::Store], acc_ring);
                    check_balanced(&out);
                    assert_eq!(out.last().unwrap().mnemonic, "fence");
                }
            }
        }
    }

    #[test]
    fn fills_that_are_never_released_never_wait() {
        // Stationary weights: a fill per step, each to rows of its own.
        let steps: Vec<Step> = (0..5).map(|t| Step { loads: if t == 0 { vec![(1, vec![dma("dma.load")]), (0, vec![dma("dma.load")])] } else { vec![(1, vec![dma("dma.load")])] }, compute: vec![dma("mx.mul")], stores: vec![dma("dma.storeacc")] }).collect();
        let mut out = vec![];
        emit(&mut out, vec![], steps, &[Release::Exec, Release::Never], true);
        check_balanced(&out);
        assert!(!out.iter().any(|i| i.mnemonic.starts_with("sem.") && i.int("sem") == free(1)), "a Never class is neither waited for nor released");
        assert_eq!(out.iter().filter(|i| i.mnemonic == "sem.wait" && i.int("sem") == full(1)).count(), 5, "exec waits for each fill");
    }

    #[test]
    fn a_slot_is_refilled_only_after_its_release() {
        let steps: Vec<Step> = (0..4).map(|_| Step { loads: vec![(0, vec![dma("dma.load")])], compute: vec![dma("mx.mul")], stores: vec![] }).collect();
        let mut out = vec![];
        emit(&mut out, vec![], steps, &[Release::Exec], true);
        // The third fill (slot 0 again) waits for the first one's release.
        let loads: Vec<usize> = out.iter().enumerate().filter(|(_, i)| i.mnemonic == "dma.load").map(|(k, _)| k).collect();
        assert_eq!(out[loads[2] - 1].mnemonic, "sem.wait");
        assert_eq!(out[loads[2] - 1].int("sem"), free(0));
        assert_eq!(out[loads[1] - 1].mnemonic, "sem.signal", "the second fill needs no wait");
    }
}
