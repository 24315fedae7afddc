//! Mutated NPU programs through the assembler, the binary reader and the
//! simulator (`npu_sim::robustness`): assembly text edited as the lit inputs
//! are, and binaries of the lit programs with bytes flipped, cut and
//! spliced. No panic, no input that takes seconds, nothing a binary holds
//! that its disassembly cannot say. The cargo fuzz targets `npu_asm` and
//! `npu_binary` explore the same checks without end.

mod common;
use common::Rng;
use std::time::{Duration, Instant};

fn programs() -> Vec<String> {
    let files = common::lit_files(&["s"], true);
    let texts: Vec<String> = files.iter().filter(|p| p.to_string_lossy().contains("npu-sim")).map(|p| std::fs::read_to_string(p).unwrap()).collect();
    assert!(texts.len() > 30, "only {} npu-sim programs under test/lit", texts.len());
    texts
}

fn check<T>(case: usize, what: &str, f: impl FnOnce() -> Result<T, String>) -> T {
    let t0 = Instant::now();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("case {} panicked on {}", case, what));
    assert!(t0.elapsed() < Duration::from_secs(10), "case {} took {:?} on {}", case, t0.elapsed(), what);
    r.unwrap_or_else(|e| panic!("case {}: {}\n--- input ---\n{}", case, e, what))
}

#[test]
fn mutated_assembly_never_breaks_the_assembler_or_simulator() {
    let texts = programs();
    let mut r = Rng(0xa55e_3b1e);
    let (mut assembled, mut refused) = (0, 0);
    for case in 0..4000 {
        let mut m = texts[r.below(texts.len())].clone();
        let other = &texts[r.below(texts.len())];
        for _ in 0..1 + r.below(3) {
            m = common::mutate_text(&mut r, &m, other);
        }
        if check(case, &m, || npu_sim::robustness::check_asm(&m)) {
            assembled += 1;
        } else {
            refused += 1;
        }
    }
    eprintln!("4000 mutated programs: {} assembled and ran, {} refused", assembled, refused);
    assert!(assembled > 400 && refused > 400, "{} assembled, {} refused: the mutations are not exercising both paths", assembled, refused);
}

#[test]
fn mutated_binaries_never_break_the_reader_or_simulator() {
    let bins: Vec<Vec<u8>> = programs().iter().filter_map(|t| npu_sim::asm::assemble(t).ok()).map(|p| npu_sim::binary::write(&p)).collect();
    assert!(bins.len() > 10, "only {} lit programs assemble", bins.len());
    let mut r = Rng(0x0b1_7a5e);
    let (mut read, mut refused) = (0, 0);
    for case in 0..6000 {
        let mut b = bins[r.below(bins.len())].clone();
        match case % 4 {
            0 => b.truncate(r.below(b.len())),
            1 | 2 => {
                for _ in 0..1 + r.below(4) {
                    let i = r.below(b.len());
                    b[i] = [0u8, 1, 0x7f, 0x80, 0xff, b'x', b'"', r.below(256) as u8][r.below(8)];
                }
            }
            _ => {
                let other = &bins[r.below(bins.len())];
                let (i, j) = (r.below(b.len()), r.below(other.len()));
                b.truncate(i);
                b.extend_from_slice(&other[j..]);
            }
        }
        if check(case, &format!("{:?}", b), || npu_sim::robustness::check_binary(&b)) {
            read += 1;
        } else {
            refused += 1;
        }
    }
    eprintln!("6000 mutated binaries: {} read and ran, {} refused", read, refused);
    assert!(read > 300 && refused > 1000, "{} read, {} refused: the mutations are not exercising both paths", read, refused);
}
