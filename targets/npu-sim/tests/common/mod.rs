//! What the simulator's integration tests share: a deterministic generator.
#![allow(dead_code)]

/// A small deterministic generator (xorshift), so failures reproduce from the seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn bytes_i8(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 56) as u8).collect()
    }
    pub fn bytes_f32(&mut self, n: usize) -> Vec<u8> {
        (0..n).flat_map(|_| (((self.next() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0).to_le_bytes()).collect()
    }
}
