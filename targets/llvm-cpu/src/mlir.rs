//! The bridge to MLIR: parse our generic text, run the standard lowering to
//! the LLVM dialect, translate. Every MLIR diagnostic is collected and returned
//! as our error text, so nothing is printed behind the caller's back.

use melior::dialect::DialectRegistry;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::pass::PassManager;
use melior::utility::{parse_pass_pipeline, register_all_dialects, register_all_llvm_translations, register_all_passes};
use melior::Context;
use std::cell::RefCell;
use std::rc::Rc;

/// MLIR's standard conversions from the loop level to the LLVM dialect.
/// `math` ops without an LLVM intrinsic (erf, atan, ...) become libm calls,
/// which the JIT resolves in this process and a linker in libm. The libm
/// conversion scalarizes vector operands with vector.extract/insert, so it
/// must run before the vector dialect is lowered (after, MLIR 22 crashes).
pub const LOWERING_PIPELINE: &str = "builtin.module(\
convert-math-to-funcs, func.func(convert-vector-to-scf), \
lower-affine, convert-scf-to-cf, \
convert-math-to-llvm, convert-math-to-libm, \
convert-vector-to-llvm, \
expand-strided-metadata, lower-affine, \
finalize-memref-to-llvm, \
convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, \
convert-func-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts)";

/// An MLIR context with every dialect, pass and LLVM translation registered,
/// and a diagnostic handler that collects messages.
pub(crate) struct Session {
    pub context: Context,
    pub diags: Rc<RefCell<Vec<String>>>,
}

impl Session {
    pub fn new() -> Session {
        // Registration fills process-wide tables: one thread at a time.
        static REGISTERING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = REGISTERING.lock().unwrap_or_else(|e| e.into_inner());
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        register_all_passes();
        let context = Context::new_with_registry(&registry, false);
        context.load_all_available_dialects();
        register_all_llvm_translations(&context);
        let diags = Rc::new(RefCell::new(Vec::new()));
        let sink = diags.clone();
        context.attach_diagnostic_handler(move |d| {
            sink.borrow_mut().push(format!("{}: {}", d.location(), d));
            true
        });
        Session { context, diags }
    }

    fn take_diags(&self) -> String {
        std::mem::take(&mut *self.diags.borrow_mut()).join("\n")
    }

    /// Parses generic-form text and lowers it to the LLVM dialect.
    pub fn lower(&self, text: &str) -> Result<Module<'_>, String> {
        let mut module = Module::parse(&self.context, text)
            .ok_or_else(|| format!("MLIR rejected the loop-level module:\n{}", self.take_diags()))?;
        let pm = PassManager::new(&self.context);
        // The parser verified the input; the result is verified once, at the
        // end, rather than after each of the pipeline's sixteen passes (a
        // quarter of the lowering's time).
        pm.enable_verifier(false);
        parse_pass_pipeline(pm.as_operation_pass_manager(), LOWERING_PIPELINE).map_err(|e| format!("lowering pipeline: {}", e))?;
        pm.run(&mut module).map_err(|_| format!("MLIR lowering to the LLVM dialect failed:\n{}", self.take_diags()))?;
        if !module.as_operation().verify() {
            return Err(format!("MLIR's lowering to the LLVM dialect made invalid IR:\n{}", self.take_diags()));
        }
        Ok(module)
    }
}

/// Loop-level text → LLVM dialect text (for `npu-translate --emit=llvm-dialect`
/// and tests).
pub fn lower_to_llvm_dialect(text: &str) -> Result<String, String> {
    let s = Session::new();
    let m = s.lower(text)?;
    Ok(m.as_operation().to_string())
}

/// Loop-level text → LLVM IR text.
pub fn emit_llvm_ir(text: &str) -> Result<String, String> {
    let s = Session::new();
    let m = s.lower(text)?;
    unsafe {
        let raw = mlir_sys::mlirTranslateModuleToLLVMIRToString(m.as_operation().to_raw());
        if raw.is_null() {
            return Err(format!("translation to LLVM IR failed:\n{}", s.take_diags()));
        }
        let out = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
        libc_free(raw as *mut std::ffi::c_void);
        Ok(out)
    }
}

/// Loop-level text → a native object file for this host (opt level 3).
pub fn emit_object(text: &str, path: &str) -> Result<(), String> {
    let (object, _) = object_code(text, 3, false)?;
    std::fs::write(path, object).map_err(|e| format!("cannot write {}: {}", path, e))
}

/// Loop-level text → object code for this host at `opt_level`: lowered to
/// the LLVM dialect, translated to LLVM IR, compiled by [`crate::codegen`];
/// with the time each step took. `parallel_calls`: see [`crate::codegen::object_code`].
pub(crate) fn object_code(text: &str, opt_level: usize, parallel_calls: bool) -> Result<(Vec<u8>, crate::CodegenTimes), String> {
    let mut times = crate::CodegenTimes::default();
    let t = std::time::Instant::now();
    let s = Session::new();
    let m = s.lower(text)?;
    times.mlir_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = std::time::Instant::now();
    let llvm = crate::codegen::LlvmContext::new();
    // SAFETY: a lowered module and a live LLVM context; the translated module
    // is owned (and disposed) by `module`, before `llvm`.
    let raw = unsafe { mlir_sys::mlirTranslateModuleToLLVMIR(m.as_operation().to_raw(), llvm.0 as mlir_sys::LLVMContextRef) };
    if raw.is_null() {
        return Err(format!("translation to LLVM IR failed:\n{}", s.take_diags()));
    }
    let module = crate::codegen::LlvmModule(raw as *mut std::ffi::c_void);
    times.translate_ms = t.elapsed().as_secs_f64() * 1e3;
    let object = crate::codegen::object_code(&module, opt_level, parallel_calls, &mut times)?;
    Ok((object, times))
}

extern "C" {
    #[link_name = "free"]
    fn libc_free(p: *mut std::ffi::c_void);
}
