//! JIT execution: the module compiled to object code for this host
//! ([`crate::codegen`]) and linked into the process by LLVM's ORC
//! ([`ObjectJit`]). A function is called through its packed wrapper
//! (`_mlir_<name>`), whose arguments are the LLVM-level arguments after MLIR's
//! memref lowering: each `memref<d0 x ... x T>` becomes (allocated pointer,
//! aligned pointer, offset, sizes..., strides...).

use crate::object_jit::ObjectJit;

/// A compiled module, ready to call: compiled from MLIR, or its object code loaded again.
pub struct Jit {
    object: ObjectJit,
}

const STACK: usize = 8 << 20;

/// Several object files as one byte string: one object as it is; more as
/// [`BUNDLE_MAGIC`], their count (u32), then each one's length (u64) and bytes.
const BUNDLE_MAGIC: &[u8; 8] = b"NPUOBJS1";

fn bundle(objects: &[Vec<u8>]) -> Vec<u8> {
    if let [one] = objects {
        return one.clone();
    }
    let mut out = BUNDLE_MAGIC.to_vec();
    out.extend((objects.len() as u32).to_le_bytes());
    for o in objects {
        out.extend((o.len() as u64).to_le_bytes());
        out.extend(o);
    }
    out
}

fn unbundle(bytes: &[u8]) -> Result<Vec<&[u8]>, String> {
    let Some(mut rest) = bytes.strip_prefix(BUNDLE_MAGIC.as_slice()) else { return Ok(vec![bytes]) };
    let bad = || "damaged object bundle".to_string();
    let take = |rest: &mut &[u8], n: usize| -> Result<Vec<u8>, String> {
        if rest.len() < n {
            return Err(bad());
        }
        let (a, b) = rest.split_at(n);
        *rest = b;
        Ok(a.to_vec())
    };
    let count = u32::from_le_bytes(take(&mut rest, 4)?.try_into().map_err(|_| bad())?) as usize;
    let mut out = Vec::new();
    for _ in 0..count {
        let len = u64::from_le_bytes(take(&mut rest, 8)?.try_into().map_err(|_| bad())?) as usize;
        if rest.len() < len {
            return Err(bad());
        }
        let (a, b) = rest.split_at(len);
        out.push(a);
        rest = b;
    }
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(out)
}

/// One memref argument: a dense row-major buffer and its shape.
pub struct MemRefArg {
    pub data: *mut u8,
    pub shape: Vec<i64>,
}

impl Jit {
    /// Parses, lowers and JIT-compiles a loop-level module.
    pub fn compile(text: &str, opt_level: usize) -> Result<Jit, String> {
        Jit::compile_with_symbols(text, opt_level, &[])
    }

    /// As `compile`, with host functions the module may call (declared there
    /// as external `func.func private @name`), bound before any code is looked up.
    pub fn compile_with_symbols(text: &str, opt_level: usize, symbols: &[(&str, *mut ())]) -> Result<Jit, String> {
        Ok(Jit::compile_keeping_object(text, opt_level, symbols, &[])?.0)
    }

    /// As `compile_with_symbols`, and returns the object code too, for
    /// [`Jit::load_object`] to load again without compiling. `functions` must
    /// each be there.
    pub fn compile_keeping_object(text: &str, opt_level: usize, symbols: &[(&str, *mut ())], functions: &[&str]) -> Result<(Jit, Vec<u8>), String> {
        let (jit, object, _) = Jit::compile_parts(&[text.to_string()], 1, opt_level, symbols, functions)?;
        Ok((jit, object))
    }

    /// As `compile_keeping_object` for the parts of one module
    /// ([`crate::to_mlir_parts`]), compiled on up to `threads` threads (each
    /// takes the next part left) and linked together; the object code returned
    /// holds every part; with where the time went. Parallel nests are called
    /// through [`crate::PARALLEL_FOR`] when `symbols` binds it, directly
    /// (on the calling thread) otherwise.
    pub fn compile_parts(texts: &[String], threads: usize, opt_level: usize, symbols: &[(&str, *mut ())], functions: &[&str]) -> Result<(Jit, Vec<u8>, crate::CodegenTimes), String> {
        let threads = threads.clamp(1, texts.len().max(1));
        // Parallel nests go through the runtime only where it is bound.
        let parallel_calls = symbols.iter().any(|(name, _)| *name == crate::PARALLEL_FOR);
        let compiled: Vec<(Vec<u8>, crate::CodegenTimes)> = if threads == 1 {
            texts.iter().map(|t| crate::mlir::object_code(t, opt_level, parallel_calls)).collect::<Result<_, _>>()?
        } else {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let done: Vec<std::sync::Mutex<Option<Result<(Vec<u8>, crate::CodegenTimes), String>>>> = texts.iter().map(|_| std::sync::Mutex::new(None)).collect();
            let work = || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(t) = texts.get(i) else { break };
                let r = crate::mlir::object_code(t, opt_level, parallel_calls);
                *done[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            };
            std::thread::scope(|s| -> Result<(), String> {
                for _ in 0..threads {
                    // MLIR and LLVM recurse deeply on large functions: the main thread's stack size.
                    std::thread::Builder::new().name("codegen".into()).stack_size(STACK).spawn_scoped(s, work).map_err(|e| format!("cannot start a code generation thread: {}", e))?;
                }
                Ok(())
            })?;
            done.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_else(|| Err("a code generation thread stopped early".into()))).collect::<Result<_, _>>()?
        };
        let mut times = crate::CodegenTimes { parts: compiled.len(), threads, ..Default::default() };
        let mut objects = Vec::with_capacity(compiled.len());
        for (o, t) in compiled {
            times.add(&t);
            objects.push(o);
        }
        let object = bundle(&objects);
        // ORC links on the first lookup: the functions are looked up here.
        let t = std::time::Instant::now();
        let jit = Jit::load_object(&object, symbols)?;
        for f in functions {
            if !jit.has_function(f) {
                return Err(format!("the compiled module has no function @{}", f));
            }
        }
        times.link_ms = t.elapsed().as_secs_f64() * 1e3;
        Ok((jit, object, times))
    }

    /// Loads object code that [`Jit::compile_keeping_object`] or
    /// [`Jit::compile_parts`] returned.
    pub fn load_object(object: &[u8], symbols: &[(&str, *mut ())]) -> Result<Jit, String> {
        Ok(Jit { object: ObjectJit::load(&unbundle(object)?, symbols)? })
    }

    /// Whether the module defines a function of this name.
    pub fn has_function(&self, name: &str) -> bool {
        !self.packed(name).is_null()
    }

    /// The packed wrapper of a function (see [`crate::codegen`]).
    fn packed(&self, name: &str) -> *mut std::ffi::c_void {
        self.object.lookup(&format!("_mlir_{}", name)).unwrap_or(std::ptr::null_mut())
    }

    /// Calls `name`, whose arguments are all memrefs and which returns nothing.
    ///
    /// # Safety
    /// Every buffer must be live, large enough for its shape, and aligned for
    /// its element type; the shapes must be the ones the function was compiled for.
    pub unsafe fn call_memrefs(&self, name: &str, args: &[MemRefArg]) -> Result<(), String> {
        // Storage for each LLVM-level argument; the packed wrapper reads them
        // through pointers, so nothing here may move while calling.
        let mut ptrs: Vec<*mut u8> = Vec::new();
        let mut ints: Vec<i64> = Vec::new();
        for a in args {
            ptrs.push(a.data);
            ptrs.push(a.data);
            ints.push(0);
            ints.extend(a.shape.iter().copied());
            let mut stride = 1i64;
            let mut strides = vec![0i64; a.shape.len()];
            for (i, d) in a.shape.iter().enumerate().rev() {
                strides[i] = stride;
                stride *= *d;
            }
            ints.extend(strides);
        }
        let mut packed: Vec<*mut ()> = Vec::new();
        let (mut pi, mut ii) = (0usize, 0usize);
        for a in args {
            packed.push(&mut ptrs[pi] as *mut *mut u8 as *mut ());
            packed.push(&mut ptrs[pi + 1] as *mut *mut u8 as *mut ());
            pi += 2;
            for _ in 0..1 + 2 * a.shape.len() {
                packed.push(&mut ints[ii] as *mut i64 as *mut ());
                ii += 1;
            }
        }
        let f = self.packed(name);
        if f.is_null() {
            return Err(format!("the compiled module has no function @{}", name));
        }
        let f: unsafe extern "C" fn(*mut *mut ()) = unsafe { std::mem::transmute(f) };
        unsafe { f(packed.as_mut_ptr()) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{bundle, unbundle};

    #[test]
    fn bundles_round_trip_and_damage_is_an_error() {
        let parts = vec![b"\x7fELF one".to_vec(), b"\x7fELF two!".to_vec()];
        let b = bundle(&parts);
        assert_eq!(unbundle(&b).unwrap(), vec![parts[0].as_slice(), parts[1].as_slice()]);
        // One object is stored as it is and read back as it is.
        assert_eq!(bundle(&parts[..1]), parts[0]);
        assert_eq!(unbundle(&parts[0]).unwrap(), vec![parts[0].as_slice()]);
        // Cut short or with bytes left over: an error, not a panic.
        assert!(unbundle(&b[..b.len() - 1]).is_err());
        assert!(unbundle(&b[..10]).is_err());
        let mut longer = b.clone();
        longer.push(0);
        assert!(unbundle(&longer).is_err());
    }
}
