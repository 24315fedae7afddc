//! What the CPU kernels are shaped for: the host's vector registers. The code
//! is compiled for this host, so the passes that choose register tiles and
//! weight panels ask it, as ONNX Runtime's MLAS picks its kernels by CPUID.
//! `NPU_CPU_TARGET=avx512|avx512-narrow|avx512-zen5|avx2` overrides the answer (lit tests
//! pin it; a comparison of them on one machine).

pub mod abi;

/// A register tile of the contraction kernel, in vectors of 16 f32 lanes
/// (`vector<16xf32>`: one AVX-512 register, two AVX2 ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Accumulators a tile keeps in registers, with room left for B's
    /// vectors and A's broadcasts.
    pub accumulators: usize,
    /// Rows of the usual tile (MR).
    pub rows: usize,
    /// Its vectors per row (NV).
    pub vectors: usize,
    /// Rows of a tile two vectors wide (a direct conv over 28-wide rows).
    pub rows_two_wide: usize,
    /// Vectors of a tile of one row (a GEMV), enough independent chains to
    /// keep the FMA units busy.
    pub vectors_one_row: usize,
    /// Masked loads and stores cost more than plain ones (AVX2's
    /// `vmaskmovps`; AVX-512's masks are free), so whole vectors run apart
    /// from a partial one even at the price of another copy of the kernel.
    pub masks_cost: bool,
    /// The fewest output positions a product runs with its channels along
    /// the lanes (the most is 256 on every target: a 14×14 map's 196 fill
    /// 196 of 208 lanes the other way round). AVX-512: more than 64 (a 7×7
    /// map's 49 are 8 tiles of 6 rows and a tile of one row, whose
    /// multiply-adds wait on each other: MobileNetV2's last 1×1 convs ran
    /// 15-20% slower so than with their 49 positions along 64 lanes). AVX2,
    /// whose tile is one vector wide: 17 (a 7×7 map's 49 positions as 4 tiles
    /// of 16 leave a quarter of the lanes idle and read the weights 4 times).
    /// AVX-512 on 256-bit units: more than 32 (its multiply-adds are half as
    /// fast, so a 7×7 map's 49 rows keep them busy).
    pub channel_lanes_min_positions: i64,
    /// Most weight bytes such a product takes: its compile-time panels
    /// stream from L3 once per tile of rows beyond this. AVX-512: 2 MiB
    /// (ResNet-18's 7×7 layers, 9.4 MB of weights, ran 1.5× slower so than
    /// with the positions along the lanes). On 256-bit units the stream
    /// keeps up with the multiply-adds: 16 MiB (those layers 2.9 → 2.5 ms,
    /// its 14×14 ones 2.4 → 2.2 ms on a Zen 4 core).
    pub channel_lanes_max_weight_bytes: i64,
    /// A half vector (at most 8 columns on 8 lanes) costs half a whole one's
    /// multiply-adds: where the FMA units are 256 bits wide (Zen 4, which
    /// runs a 16-lane one in two halves; AVX2, two registers). On 512-bit
    /// units it costs a whole one, so a direct conv's 56-wide rows leave 8 of
    /// 64 lanes idle and run with their channels along the lanes instead.
    pub half_vectors_save: bool,
}

/// A CPU the kernels know how to shape for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuTarget {
    /// 32 registers of 16 lanes: 6 × 4 vectors, 24 accumulators (shaped on
    /// Intel's Sapphire Rapids).
    Avx512,
    /// AVX-512 run on 256-bit units, two passes an instruction (AMD's Zen 4):
    /// AVX-512's tiles, with more products' channels along the lanes.
    Avx512Narrow,
    /// AMD's Zen 5: 512-bit units as on Intel's, and Zen 4's limits for the
    /// products that run with their channels along the lanes (a 7×7 map's 49
    /// positions; 9.4 MB of weights streamed from its 32 MB L3): with
    /// Intel's, ResNet-18-like ran 17.6 against 16.5 ms on one thread, 9.9
    /// against 8.7 on two.
    Avx512Zen5,
    /// 16 registers of 8 lanes, 8 vectors of 16: 6 × 1 vectors, 12 ymm
    /// accumulators, B's vectors read as FMA memory operands (MLAS's 6 × 16
    /// FMA3 kernel). AVX-512's tile here spills 48 accumulators: 3× slower.
    Avx2,
}

impl CpuTarget {
    /// Every target, by the name `NPU_CPU_TARGET` gives it.
    pub const ALL: [CpuTarget; 4] = [CpuTarget::Avx512, CpuTarget::Avx512Narrow, CpuTarget::Avx512Zen5, CpuTarget::Avx2];

    /// The contraction kernel's tiles for this target.
    pub fn tile(self) -> Tile {
        match self {
            CpuTarget::Avx512 => Tile { accumulators: 24, rows: 6, vectors: 4, rows_two_wide: 12, vectors_one_row: 8, masks_cost: false, channel_lanes_min_positions: 65, channel_lanes_max_weight_bytes: 2 << 20, half_vectors_save: false },
            CpuTarget::Avx512Narrow => Tile { half_vectors_save: true, ..CpuTarget::Avx512Zen5.tile() },
            CpuTarget::Avx512Zen5 => Tile { channel_lanes_min_positions: 33, channel_lanes_max_weight_bytes: 16 << 20, ..CpuTarget::Avx512.tile() },
            CpuTarget::Avx2 => Tile { accumulators: 6, rows: 6, vectors: 1, rows_two_wide: 3, vectors_one_row: 4, masks_cost: true, channel_lanes_min_positions: 17, channel_lanes_max_weight_bytes: 2 << 20, half_vectors_save: true },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CpuTarget::Avx512 => "avx512",
            CpuTarget::Avx512Narrow => "avx512-narrow",
            CpuTarget::Avx512Zen5 => "avx512-zen5",
            CpuTarget::Avx2 => "avx2",
        }
    }
}

/// The target of this host, or `NPU_CPU_TARGET`'s (one of [`CpuTarget::ALL`]'s names).
/// Hosts without AVX-512 (AVX2, NEON: 8 lanes a register) get AVX2's tiles.
pub fn cpu_target() -> CpuTarget {
    if let Some(t) = std::env::var("NPU_CPU_TARGET").ok().and_then(|v| CpuTarget::ALL.into_iter().find(|t| t.name() == v)) {
        return t;
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        return match amd_family() {
            Some(0x19) => CpuTarget::Avx512Narrow,
            Some(f) if f >= 0x1a => CpuTarget::Avx512Zen5,
            _ => CpuTarget::Avx512,
        };
    }
    CpuTarget::Avx2
}

/// Whether this host's vector units are 256 bits wide under AVX-512 (AMD
/// family 19h: Zen 3 and Zen 4, of which only Zen 4 has AVX-512; Zen 5,
/// family 1Ah, has 512-bit ones). The host's, whatever `NPU_CPU_TARGET` says:
/// `--profile`'s nominal peak reads it too.
pub fn avx512_on_256_bit_units() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        amd_family() == Some(0x19)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The CPU family of an AMD host (0x19: Zen 3 and 4, 0x1a: Zen 5), None elsewhere.
#[cfg(target_arch = "x86_64")]
fn amd_family() -> Option<u32> {
    let (v, f) = (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1));
    let amd = [v.ebx, v.edx, v.ecx].iter().flat_map(|r| r.to_le_bytes()).eq(*b"AuthenticAMD");
    let family = ((f.eax >> 8) & 0xf) + if (f.eax >> 8) & 0xf == 0xf { (f.eax >> 20) & 0xff } else { 0 };
    amd.then_some(family)
}

/// Whether the CPU code may use AVX-512 VNNI (`vpdpbusd`): this host has it
/// (the object code is compiled for this host) and `NPU_CPU_NO_VNNI` is not
/// set to something other than `0` or nothing (which compiles the portable
/// integer kernels, to compare the two).
pub fn host_has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !std::env::var_os("NPU_CPU_NO_VNNI").is_some_and(|v| !v.is_empty() && v != "0") && std::is_x86_feature_detected!("avx512vnni") && std::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zen 5 is AVX-512's tiles with more products' channels along the
    /// lanes (a 7×7 map's 49 positions, ResNet-18's 9.4 MB 7×7-layer
    /// weights); Zen 4 is Zen 5 with half vectors that save work.
    #[test]
    fn amd_targets_differ_only_in_channel_lanes_and_half_vectors() {
        let (wide, zen5, narrow) = (CpuTarget::Avx512.tile(), CpuTarget::Avx512Zen5.tile(), CpuTarget::Avx512Narrow.tile());
        assert_eq!(Tile { channel_lanes_min_positions: wide.channel_lanes_min_positions, channel_lanes_max_weight_bytes: wide.channel_lanes_max_weight_bytes, ..zen5 }, wide);
        assert!(zen5.channel_lanes_min_positions <= 49 && wide.channel_lanes_min_positions > 49);
        assert!(zen5.channel_lanes_max_weight_bytes >= 512 * 4608 * 4 && wide.channel_lanes_max_weight_bytes < 512 * 4608 * 4);
        assert_eq!(Tile { half_vectors_save: false, ..narrow }, zen5);
        assert!(narrow.half_vectors_save && !zen5.half_vectors_save && CpuTarget::Avx2.tile().half_vectors_save);
        assert_eq!((CpuTarget::Avx512Narrow.name(), CpuTarget::Avx512Zen5.name()), ("avx512-narrow", "avx512-zen5"));
    }
}
