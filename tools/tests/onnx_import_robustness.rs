//! Corrupt models never panic the importer: byte flips, truncations and
//! splices of real node-test models give a diagnostic or a valid module.

use std::path::PathBuf;

fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ONNX_NODE_TESTS") {
        return PathBuf::from(d);
    }
    let cache = std::env::var("NPU_CACHE").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/npu"));
    cache.join("onnx-1.22.0/node")
}

#[test]
fn mutated_models_never_panic() {
    let dir = data_dir();
    let mut models: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("ONNX node tests not found in {} ({}): run scripts/setup.sh", dir.display(), e))
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("model.onnx")).ok())
        .collect();
    models.sort_by_key(|m| m.len());
    assert!(models.len() > 1700);
    let ctx = tools::default_context(false);
    let mut x: u64 = 0x1234_5678;
    let mut rnd = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    let (mut ok, mut refused) = (0, 0);
    for case in 0..4000 {
        let mut m = models[rnd(models.len())].clone();
        match case % 4 {
            0 => m.truncate(rnd(m.len())),
            1 | 2 => {
                for _ in 0..1 + rnd(6) {
                    let i = rnd(m.len());
                    m[i] = rnd(256) as u8;
                }
            }
            _ => {
                let other = &models[rnd(models.len())];
                let (a, b) = (rnd(m.len()), rnd(other.len()));
                m.truncate(a);
                m.extend_from_slice(&other[b..]);
            }
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            onnx::import::import_model(&ctx, &m, &onnx::import::ImportOptions::default()).is_ok()
        }));
        match r {
            Ok(true) => ok += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("case {} panicked on a {}-byte mutated model", case, m.len()),
        }
    }
    assert!(refused > 1000 && ok > 20, "{} imported, {} refused: the mutations are not exercising both paths", ok, refused);
}
