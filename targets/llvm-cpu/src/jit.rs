//! JIT execution through MLIR's ExecutionEngine. A function is called through
//! its packed wrapper (`_mlir_<name>`), whose arguments are the LLVM-level
//! arguments after MLIR's memref lowering: each `memref<d0 x ... x T>` becomes
//! (allocated pointer, aligned pointer, offset, sizes..., strides...).

use crate::mlir::Session;
use crate::object_jit::ObjectJit;

/// A compiled module, ready to call: compiled from MLIR, or its object code loaded again.
pub struct Jit {
    engine: Engine,
}

enum Engine {
    Mlir(MlirEngine),
    Object(ObjectJit),
}

struct MlirEngine {
    // The engine borrows nothing from the session's module once created, but
    // MLIR objects must be dropped engine first, then context.
    engine: mlir_sys::MlirExecutionEngine,
    _session: Box<Session>,
}

impl Drop for MlirEngine {
    fn drop(&mut self) {
        unsafe { mlir_sys::mlirExecutionEngineDestroy(self.engine) }
    }
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
        Jit::create(text, opt_level, symbols, false)
    }

    /// As `compile_with_symbols`, and returns the object code too, for
    /// [`Jit::load_object`] to load again without compiling (empty when it
    /// could not be kept: the compile still succeeds). `functions` (each must
    /// be there) are looked up first: the engine compiles on first lookup.
    pub fn compile_keeping_object(text: &str, opt_level: usize, symbols: &[(&str, *mut ())], functions: &[&str]) -> Result<(Jit, Vec<u8>), String> {
        let jit = Jit::create(text, opt_level, symbols, true)?;
        for f in functions {
            if !jit.has_function(f) {
                return Err(format!("the compiled module has no function @{}", f));
            }
        }
        let Engine::Mlir(m) = &jit.engine else { unreachable!("created from MLIR") };
        // MLIR writes the object only to a file: one in a fresh directory only
        // we can enter (made, never reused, so nobody can plant a link there).
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("npu-jit-{}-{}-{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed), nanos));
        use std::os::unix::fs::DirBuilderExt;
        if std::fs::DirBuilder::new().mode(0o700).create(&dir).is_err() {
            return Ok((jit, vec![]));
        }
        let path = dir.join("module.o");
        let p = path.to_string_lossy().into_owned();
        let s = mlir_sys::MlirStringRef { data: p.as_ptr() as *const _, length: p.len() };
        // SAFETY: a live engine created with object dumping on.
        unsafe { mlir_sys::mlirExecutionEngineDumpToObjectFile(m.engine, s) };
        let object = std::fs::read(&path).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        Ok((jit, object))
    }

    /// Loads object code that [`Jit::compile_keeping_object`] returned.
    pub fn load_object(object: &[u8], symbols: &[(&str, *mut ())]) -> Result<Jit, String> {
        Ok(Jit { engine: Engine::Object(ObjectJit::load(object, symbols)?) })
    }

    fn create(text: &str, opt_level: usize, symbols: &[(&str, *mut ())], keep_object: bool) -> Result<Jit, String> {
        let session = Box::new(Session::new());
        let engine = {
            let module = session.lower(text)?;
            let e = unsafe { mlir_sys::mlirExecutionEngineCreate(module.to_raw(), opt_level as i32, 0, std::ptr::null(), keep_object, false) };
            if e.ptr.is_null() {
                return Err(format!("MLIR could not JIT-compile the module:\n{}", session.diags.borrow().join("\n")));
            }
            for (name, ptr) in symbols {
                let s = mlir_sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() };
                // SAFETY: the pointer is a host function with the C ABI the module declares.
                unsafe { mlir_sys::mlirExecutionEngineRegisterSymbol(e, s, *ptr as *mut std::ffi::c_void) };
            }
            unsafe { mlir_sys::mlirExecutionEngineInitialize(e) };
            e
        };
        Ok(Jit { engine: Engine::Mlir(MlirEngine { engine, _session: session }) })
    }

    /// Whether the module defines a function of this name.
    pub fn has_function(&self, name: &str) -> bool {
        !self.packed(name).is_null()
    }

    /// The packed wrapper MLIR generates for every public function.
    fn packed(&self, name: &str) -> *mut std::ffi::c_void {
        let full = format!("_mlir_{}", name);
        match &self.engine {
            Engine::Mlir(m) => {
                let s = mlir_sys::MlirStringRef { data: full.as_ptr() as *const _, length: full.len() };
                unsafe { mlir_sys::mlirExecutionEngineLookup(m.engine, s) }
            }
            Engine::Object(o) => o.lookup(&full).unwrap_or(std::ptr::null_mut()),
        }
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
