//! The backends a process knows, by name: registered once at start-up (as
//! MLIR registers dialects and passes), resolved from `--target` lists.

use crate::interface::{Backend, Cpu, API_VERSION, CPU};
use std::sync::{Arc, OnceLock, RwLock};

fn table() -> &'static RwLock<Vec<Arc<dyn Backend>>> {
    static T: OnceLock<RwLock<Vec<Arc<dyn Backend>>>> = OnceLock::new();
    T.get_or_init(|| RwLock::new(vec![Arc::new(Cpu) as Arc<dyn Backend>]))
}

fn check(b: &dyn Backend) -> Result<(), String> {
    let name = b.name();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_') {
        return Err(format!("backend name '{}': use lower-case letters, digits, '-' and '_'", name));
    }
    if b.api_version() != API_VERSION {
        return Err(format!("backend '{}' was built against backend interface version {}; this framework has version {}", name, b.api_version(), API_VERSION));
    }
    Ok(())
}

/// Adds a backend; a second backend of the same name is an error.
pub fn register(b: Arc<dyn Backend>) -> Result<(), String> {
    add(b, false)
}

/// Adds a backend unless one of its name is there (for start-up code that may run twice).
pub fn register_once(make: impl FnOnce() -> Arc<dyn Backend>) -> Result<(), String> {
    add(make(), true)
}

fn add(b: Arc<dyn Backend>, keep_existing: bool) -> Result<(), String> {
    check(b.as_ref())?;
    let mut t = table().write().map_err(|_| "the backend registry is poisoned")?;
    if t.iter().any(|x| x.name() == b.name()) {
        return if keep_existing { Ok(()) } else { Err(format!("a backend named '{}' is already registered", b.name())) };
    }
    t.push(b);
    Ok(())
}

/// The names of the registered backends, in registration order (the CPU first).
pub fn registered() -> Vec<String> {
    table().read().map(|t| t.iter().map(|b| b.name().to_string()).collect()).unwrap_or_default()
}

/// The backends of a `--target` list (`npu16,cpu`), in order, the CPU last
/// (appended when the list leaves it out: it is every list's last fallback).
/// An empty list means every registered backend, then the CPU.
pub fn resolve(list: &[String]) -> Result<Vec<Arc<dyn Backend>>, String> {
    let t = table().read().map_err(|_| "the backend registry is poisoned")?;
    let find = |n: &str| t.iter().find(|b| b.name() == n).cloned();
    let mut out: Vec<Arc<dyn Backend>> = vec![];
    if list.is_empty() {
        out.extend(t.iter().filter(|b| b.name() != CPU).cloned());
    }
    for (i, n) in list.iter().map(|s| s.trim()).enumerate() {
        let b = find(n).ok_or_else(|| format!("unknown backend '{}'; registered: {}", n, t.iter().map(|b| b.name().to_string()).collect::<Vec<_>>().join(", ")))?;
        if out.iter().any(|x| x.name() == n) {
            return Err(format!("backend '{}' is listed twice", n));
        }
        if n == CPU && i + 1 != list.len() {
            return Err(format!("'{}' must come last: it is the fallback of every backend before it", CPU));
        }
        out.push(b);
    }
    if !out.iter().any(|b| b.name() == CPU) {
        out.push(find(CPU).expect("the CPU is always registered"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::Unsupported;
    use ir::{Body, OpId};

    struct Fake(&'static str, u32);
    impl Backend for Fake {
        fn name(&self) -> &str {
            self.0
        }
        fn api_version(&self) -> u32 {
            self.1
        }
        fn supports(&self, _: &Body, _: OpId) -> Result<(), Unsupported> {
            Err("nothing".into())
        }
    }

    #[test]
    fn registration_and_lists() {
        register(Arc::new(Fake("fake-a", API_VERSION))).unwrap();
        assert!(register(Arc::new(Fake("fake-a", API_VERSION))).unwrap_err().contains("already registered"));
        assert!(register(Arc::new(Fake("fake-b", API_VERSION + 1))).unwrap_err().contains("interface version"));
        assert!(register(Arc::new(Fake("Bad,Name", API_VERSION))).unwrap_err().contains("lower-case"));
        register_once(|| Arc::new(Fake("fake-a", API_VERSION))).unwrap();
        let names = |l: &[&str]| resolve(&l.iter().map(|s| s.to_string()).collect::<Vec<_>>()).map(|v| v.iter().map(|b| b.name().to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["fake-a"]).unwrap(), ["fake-a", "cpu"]);
        assert_eq!(names(&["fake-a", "cpu"]).unwrap(), ["fake-a", "cpu"]);
        assert_eq!(names(&["cpu"]).unwrap(), ["cpu"]);
        assert!(names(&["cpu", "fake-a"]).unwrap_err().contains("must come last"));
        assert!(names(&["nope"]).unwrap_err().contains("unknown backend 'nope'; registered: cpu"));
        assert!(names(&["fake-a", "fake-a"]).unwrap_err().contains("twice"));
        assert!(names(&[]).unwrap().ends_with(&["cpu".to_string()]));
    }
}
