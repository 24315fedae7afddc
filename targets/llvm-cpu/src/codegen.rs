//! LLVM IR to object code for this host, through LLVM's C API: the module
//! translated from the LLVM dialect, a packed wrapper `_mlir_<f>(void **args)`
//! added for each callable function (what MLIR's ExecutionEngine adds, which
//! [`crate::Jit`] calls), LLVM's `default<On>` pipeline, then the target
//! machine's code generator. Doing this ourselves rather than through the
//! ExecutionEngine compiles eagerly (no lazy materialization on the first
//! lookup), hands back the object for the compile cache without a file, and
//! lets the module be split for code generation in parallel.

use std::ffi::{c_char, c_uint, c_void, CStr, CString};

#[repr(C)]
pub(crate) struct Opaque {
    _private: [u8; 0],
}
pub(crate) type LLVMContextRef = *mut Opaque;
type ModuleRef = *mut Opaque;
type TargetRef = *mut Opaque;
type TargetMachineRef = *mut Opaque;
type TargetDataRef = *mut Opaque;
type PassOptionsRef = *mut Opaque;
type ErrorRef = *mut Opaque;
type MemoryBufferRef = *mut Opaque;
type ValueRef = *mut Opaque;
type TypeRef = *mut Opaque;
type BuilderRef = *mut Opaque;
type BasicBlockRef = *mut Opaque;
type AttributeRef = *mut Opaque;

/// `LLVMCodeGenOptLevel`, `LLVMRelocMode`, `LLVMCodeModel`, `LLVMCodeGenFileType` values.
const RELOC_PIC: c_uint = 2;
const CODE_MODEL_DEFAULT: c_uint = 0;
const OBJECT_FILE: c_uint = 1;
/// `LLVMAttributeFunctionIndex`.
const FUNCTION_INDEX: c_uint = !0;
/// `LLVMVoidTypeKind`.
const VOID_KIND: c_uint = 0;

extern "C" {
    fn LLVMContextCreate() -> LLVMContextRef;
    fn LLVMContextDispose(c: LLVMContextRef);
    fn LLVMDisposeModule(m: ModuleRef);
    fn LLVMGetDefaultTargetTriple() -> *mut c_char;
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
    fn LLVMDisposeMessage(m: *mut c_char);
    fn LLVMGetTargetFromTriple(triple: *const c_char, t: *mut TargetRef, err: *mut *mut c_char) -> i32;
    fn LLVMCreateTargetMachine(t: TargetRef, triple: *const c_char, cpu: *const c_char, features: *const c_char, level: c_uint, reloc: c_uint, model: c_uint) -> TargetMachineRef;
    fn LLVMDisposeTargetMachine(tm: TargetMachineRef);
    fn LLVMCreateTargetDataLayout(tm: TargetMachineRef) -> TargetDataRef;
    fn LLVMSetModuleDataLayout(m: ModuleRef, dl: TargetDataRef);
    fn LLVMDisposeTargetData(dl: TargetDataRef);
    fn LLVMSetTarget(m: ModuleRef, triple: *const c_char);
    fn LLVMCreatePassBuilderOptions() -> PassOptionsRef;
    fn LLVMDisposePassBuilderOptions(o: PassOptionsRef);
    fn LLVMRunPasses(m: ModuleRef, passes: *const c_char, tm: TargetMachineRef, o: PassOptionsRef) -> ErrorRef;
    fn LLVMTargetMachineEmitToMemoryBuffer(tm: TargetMachineRef, m: ModuleRef, kind: c_uint, err: *mut *mut c_char, out: *mut MemoryBufferRef) -> i32;
    fn LLVMGetBufferStart(b: MemoryBufferRef) -> *const c_char;
    fn LLVMGetBufferSize(b: MemoryBufferRef) -> usize;
    fn LLVMDisposeMemoryBuffer(b: MemoryBufferRef);
    fn LLVMGetErrorMessage(e: ErrorRef) -> *mut c_char;
    fn LLVMDisposeErrorMessage(m: *mut c_char);

    fn LLVMGetFirstFunction(m: ModuleRef) -> ValueRef;
    fn LLVMGetNextFunction(f: ValueRef) -> ValueRef;
    fn LLVMGetValueName2(v: ValueRef, len: *mut usize) -> *const c_char;
    fn LLVMIsDeclaration(g: ValueRef) -> i32;
    fn LLVMGetLinkage(g: ValueRef) -> c_uint;
    fn LLVMGetStringAttributeAtIndex(f: ValueRef, idx: c_uint, key: *const c_char, len: c_uint) -> AttributeRef;
    fn LLVMGlobalGetValueType(g: ValueRef) -> TypeRef;
    fn LLVMGetReturnType(fty: TypeRef) -> TypeRef;
    fn LLVMCountParamTypes(fty: TypeRef) -> c_uint;
    fn LLVMGetParamTypes(fty: TypeRef, dest: *mut TypeRef);
    fn LLVMGetTypeKind(t: TypeRef) -> c_uint;
    fn LLVMGetModuleContext(m: ModuleRef) -> LLVMContextRef;
    fn LLVMPointerTypeInContext(c: LLVMContextRef, space: c_uint) -> TypeRef;
    fn LLVMInt64TypeInContext(c: LLVMContextRef) -> TypeRef;
    fn LLVMVoidTypeInContext(c: LLVMContextRef) -> TypeRef;
    fn LLVMFunctionType(ret: TypeRef, params: *mut TypeRef, n: c_uint, vararg: i32) -> TypeRef;
    fn LLVMAddFunction(m: ModuleRef, name: *const c_char, fty: TypeRef) -> ValueRef;
    fn LLVMAppendBasicBlockInContext(c: LLVMContextRef, f: ValueRef, name: *const c_char) -> BasicBlockRef;
    fn LLVMCreateBuilderInContext(c: LLVMContextRef) -> BuilderRef;
    fn LLVMPositionBuilderAtEnd(b: BuilderRef, bb: BasicBlockRef);
    fn LLVMDisposeBuilder(b: BuilderRef);
    fn LLVMGetParam(f: ValueRef, i: c_uint) -> ValueRef;
    fn LLVMConstInt(t: TypeRef, v: u64, sign: i32) -> ValueRef;
    fn LLVMBuildGEP2(b: BuilderRef, t: TypeRef, p: ValueRef, idx: *mut ValueRef, n: c_uint, name: *const c_char) -> ValueRef;
    fn LLVMBuildLoad2(b: BuilderRef, t: TypeRef, p: ValueRef, name: *const c_char) -> ValueRef;
    fn LLVMBuildStore(b: BuilderRef, v: ValueRef, p: ValueRef) -> ValueRef;
    fn LLVMBuildCall2(b: BuilderRef, fty: TypeRef, f: ValueRef, args: *mut ValueRef, n: c_uint, name: *const c_char) -> ValueRef;
    fn LLVMBuildRetVoid(b: BuilderRef) -> ValueRef;
    fn LLVMGetFirstBasicBlock(f: ValueRef) -> BasicBlockRef;
    fn LLVMGetNextBasicBlock(bb: BasicBlockRef) -> BasicBlockRef;
    fn LLVMGetFirstInstruction(bb: BasicBlockRef) -> ValueRef;
    fn LLVMGetNextInstruction(i: ValueRef) -> ValueRef;
    fn LLVMIsACallInst(v: ValueRef) -> ValueRef;
    fn LLVMGetCalledValue(call: ValueRef) -> ValueRef;
    fn LLVMIsAFunction(v: ValueRef) -> ValueRef;
    fn LLVMTypeOf(v: ValueRef) -> TypeRef;
    fn LLVMGetNamedFunction(m: ModuleRef, name: *const c_char) -> ValueRef;
    fn LLVMBuildAlloca(b: BuilderRef, t: TypeRef, name: *const c_char) -> ValueRef;
    fn LLVMArrayType2(elem: TypeRef, n: u64) -> TypeRef;
    fn LLVMSetOperand(u: ValueRef, i: c_uint, v: ValueRef);
    fn LLVMGetNumOperands(u: ValueRef) -> i32;
    fn LLVMPassBuilderOptionsSetLoopUnrolling(o: PassOptionsRef, v: i32);
    fn LLVMGetEnumAttributeKindForName(name: *const c_char, len: usize) -> c_uint;
    fn LLVMGetEnumAttributeAtIndex(f: ValueRef, idx: c_uint, kind: c_uint) -> AttributeRef;
    fn LLVMRemoveEnumAttributeAtIndex(f: ValueRef, idx: c_uint, kind: c_uint);
    fn LLVMAddAttributeAtIndex(f: ValueRef, idx: c_uint, a: AttributeRef);
    fn LLVMSetLinkage(g: ValueRef, l: c_uint);
    fn LLVMCountParams(f: ValueRef) -> c_uint;
    fn LLVMGetStringAttributeValue(a: AttributeRef, len: *mut c_uint) -> *const c_char;
}

/// `LLVMInternalLinkage`, `LLVMPrivateLinkage`.
const LOCAL_LINKAGES: [c_uint; 2] = [INTERNAL_LINKAGE, 9];
const INTERNAL_LINKAGE: c_uint = 8;

fn take_message(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string LLVM allocated, released once here.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

/// An LLVM context with its modules; disposed last.
pub(crate) struct LlvmContext(pub(crate) LLVMContextRef);

impl LlvmContext {
    pub(crate) fn new() -> LlvmContext {
        // SAFETY: creates a fresh context owned by the returned value.
        LlvmContext(unsafe { LLVMContextCreate() })
    }
}

impl Drop for LlvmContext {
    fn drop(&mut self) {
        // SAFETY: created by LLVMContextCreate, disposed once, after its modules.
        unsafe { LLVMContextDispose(self.0) }
    }
}

/// A module owned here (disposed before its context).
pub(crate) struct LlvmModule(pub(crate) *mut c_void);

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: a module translated by MLIR into a context that outlives it.
        unsafe { LLVMDisposeModule(self.0 as ModuleRef) }
    }
}

/// Compiles `module` to an object file for this host at `opt_level` (0-3),
/// adding the time of LLVM's optimization and code generation to `times`.
/// With `parallel_calls`, each call of a parallel nest goes through the
/// runtime's [`crate::PARALLEL_FOR`] (only the JIT's process defines it).
pub(crate) fn object_code(module: &LlvmModule, opt_level: usize, parallel_calls: bool, times: &mut crate::CodegenTimes) -> Result<Vec<u8>, String> {
    crate::object_jit::init_native();
    let m = module.0 as ModuleRef;
    // SAFETY: the C API's documented sequence; every handle made here is
    // disposed here, strings LLVM returns are released with LLVMDisposeMessage.
    unsafe {
        let triple = take_message(LLVMGetDefaultTargetTriple());
        let ctriple = CString::new(triple.clone()).map_err(|_| "target triple with a NUL")?;
        let mut target: TargetRef = std::ptr::null_mut();
        let mut err: *mut c_char = std::ptr::null_mut();
        if LLVMGetTargetFromTriple(ctriple.as_ptr(), &mut target, &mut err) != 0 {
            return Err(format!("no LLVM target for {}: {}", triple, take_message(err)));
        }
        let cpu = CString::new(take_message(LLVMGetHostCPUName())).unwrap_or_default();
        let features = CString::new(take_message(LLVMGetHostCPUFeatures())).unwrap_or_default();
        let level = opt_level.min(3) as c_uint;
        let tm = LLVMCreateTargetMachine(target, ctriple.as_ptr(), cpu.as_ptr(), features.as_ptr(), level, RELOC_PIC, CODE_MODEL_DEFAULT);
        if tm.is_null() {
            return Err(format!("LLVM could not make a target machine for {}", triple));
        }
        struct Tm(TargetMachineRef);
        impl Drop for Tm {
            fn drop(&mut self) {
                // SAFETY: created above, disposed once.
                unsafe { LLVMDisposeTargetMachine(self.0) }
            }
        }
        let tm = Tm(tm);
        LLVMSetTarget(m, ctriple.as_ptr());
        let dl = LLVMCreateTargetDataLayout(tm.0);
        LLVMSetModuleDataLayout(m, dl);
        LLVMDisposeTargetData(dl);
        if parallel_calls {
            call_parallel_nests_through_runtime(m);
        }
        add_packed_wrappers(m, parallel_calls);
        let t = std::time::Instant::now();
        let glue = without_optnone(m);
        let simplified = run_passes(m, c"function(instsimplify,dce)", tm.0, false);
        for (f, a) in glue {
            LLVMAddAttributeAtIndex(f, FUNCTION_INDEX, a);
        }
        simplified?;
        let passes = CString::new(format!("default<O{}>", level)).unwrap();
        // Below O3 without LLVM's loop unroller: our kernels come unrolled
        // (register tiles, vector rows), and unrolling the rest took a quarter
        // of LLVM's optimization time and grew the code instruction
        // selection then works through (compile 20-25% faster on the corpus's
        // CNNs; MobileNetV2 and ResNet-18 run within 1%, in alternating runs).
        let optimized = run_passes(m, &passes, tm.0, level >= 3);
        times.optimize_ms += t.elapsed().as_secs_f64() * 1e3;
        optimized?;
        let mut buf: MemoryBufferRef = std::ptr::null_mut();
        let mut err: *mut c_char = std::ptr::null_mut();
        let t = std::time::Instant::now();
        let failed = LLVMTargetMachineEmitToMemoryBuffer(tm.0, m, OBJECT_FILE, &mut err, &mut buf) != 0;
        times.emit_ms += t.elapsed().as_secs_f64() * 1e3;
        if failed {
            return Err(format!("LLVM code generation failed: {}", take_message(err)));
        }
        let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buf) as *const u8, LLVMGetBufferSize(buf)).to_vec();
        LLVMDisposeMemoryBuffer(buf);
        Ok(bytes)
    }
}

/// Runs the LLVM pass pipeline `passes` on `m`, its loop unroller only with `unroll`.
///
/// # Safety
/// `m` and `tm` are live.
unsafe fn run_passes(m: ModuleRef, passes: &CStr, tm: TargetMachineRef, unroll: bool) -> Result<(), String> {
    // SAFETY: the caller's; the options and error are released here.
    unsafe {
        let opts = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetLoopUnrolling(opts, unroll as i32);
        let e = LLVMRunPasses(m, passes.as_ptr(), tm, opts);
        LLVMDisposePassBuilderOptions(opts);
        if !e.is_null() {
            let msg = LLVMGetErrorMessage(e);
            let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(msg);
            return Err(format!("LLVM's pipeline {} failed: {}", passes.to_string_lossy(), s));
        }
        Ok(())
    }
}

/// Takes `optnone` off the functions of `m` that carry it (the model's glue,
/// `outline-loop-nests`), returned with the attribute to put back. Their
/// memref descriptors, built and taken apart with `insertvalue` and
/// `extractvalue`, are simplified away first: FastISel, which compiles
/// `optnone` code, cannot select an `insertvalue` and hands the block to
/// SelectionDAG from there up (0.4 s on a detector's glue, 0.15 s without).
///
/// # Safety
/// `m` is a live module.
unsafe fn without_optnone(m: ModuleRef) -> Vec<(ValueRef, AttributeRef)> {
    // SAFETY: the caller's.
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(c"optnone".as_ptr(), 7);
        let mut out = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let a = LLVMGetEnumAttributeAtIndex(f, FUNCTION_INDEX, kind);
            if !a.is_null() {
                LLVMRemoveEnumAttributeAtIndex(f, FUNCTION_INDEX, kind);
                out.push((f, a));
            }
            f = LLVMGetNextFunction(f);
        }
        out
    }
}

/// Whether `f` carries the string attribute `key`.
unsafe fn has_attribute(f: ValueRef, key: &CStr) -> bool {
    // SAFETY: `f` is a live function.
    unsafe { !LLVMGetStringAttributeAtIndex(f, FUNCTION_INDEX, key.as_ptr(), key.to_bytes().len() as c_uint).is_null() }
}

/// The function `name` of `m`, declared with type `fty` when it is not there.
unsafe fn function_named(m: ModuleRef, name: &str, fty: TypeRef) -> ValueRef {
    let c = CString::new(name).unwrap_or_default();
    // SAFETY: `m` is a live module.
    unsafe {
        let f = LLVMGetNamedFunction(m, c.as_ptr());
        if f.is_null() {
            LLVMAddFunction(m, c.as_ptr(), fty)
        } else {
            f
        }
    }
}

/// The value of `f`'s string attribute `key` as an integer (0 when absent or not one).
unsafe fn attribute_number(f: ValueRef, key: &CStr) -> u64 {
    // SAFETY: `f` is a live function; the value is a string LLVM owns.
    unsafe {
        let a = LLVMGetStringAttributeAtIndex(f, FUNCTION_INDEX, key.as_ptr(), key.to_bytes().len() as c_uint);
        if a.is_null() {
            return 0;
        }
        let mut len: c_uint = 0;
        let p = LLVMGetStringAttributeValue(a, &mut len);
        std::str::from_utf8(std::slice::from_raw_parts(p as *const u8, len as usize)).ok().and_then(|s| s.parse().ok()).unwrap_or(0)
    }
}

/// Points each call `nest(a0, .., lb, ub, step)` of a function marked
/// `npu-parallel` (defined here or in another part) at a trampoline of the
/// same signature, one per nest in this part, which runs
/// `PARALLEL_FOR(_mlir_nest, args, n, work)`, `args` holding a pointer to each
/// argument as the packed wrapper reads them; the runtime calls the wrapper
/// on sub-ranges of [lb, ub) from its threads. Packing in a trampoline rather
/// than at each call keeps the model's function (compiled without
/// optimization) to its calls: packed at every call site, a detector's 250
/// parallel calls made 33,000 instructions of it.
///
/// # Safety
/// `m` is a live module.
unsafe fn call_parallel_nests_through_runtime(m: ModuleRef) {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let mut calls = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    if !LLVMIsACallInst(i).is_null() {
                        let callee = LLVMGetCalledValue(i);
                        if !LLVMIsAFunction(callee).is_null() && has_attribute(callee, c"npu-parallel") {
                            calls.push((i, callee));
                        }
                    }
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
        if calls.is_empty() {
            return;
        }
        let ptr = LLVMPointerTypeInContext(ctx, 0);
        let i64t = LLVMInt64TypeInContext(ctx);
        let void = LLVMVoidTypeInContext(ctx);
        let mut wparams = [ptr];
        let wty = LLVMFunctionType(void, wparams.as_mut_ptr(), 1, 0);
        let mut pparams = [ptr, ptr, i64t, i64t];
        let pty = LLVMFunctionType(void, pparams.as_mut_ptr(), 4, 0);
        let pfor = function_named(m, crate::PARALLEL_FOR, pty);
        let b = LLVMCreateBuilderInContext(ctx);
        let mut trampolines: std::collections::HashMap<ValueRef, ValueRef> = std::collections::HashMap::new();
        for (call, callee) in calls {
            let fty = LLVMGlobalGetValueType(callee);
            let t = *trampolines.entry(callee).or_insert_with(|| {
                let mut len = 0usize;
                let p = LLVMGetValueName2(callee, &mut len);
                let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned();
                let wrapper = function_named(m, &format!("_mlir_{}", name), wty);
                let work = attribute_number(callee, c"npu-parallel");
                let tname = CString::new(format!("_npu_parallel_{}", name)).unwrap_or_default();
                let t = LLVMAddFunction(m, tname.as_ptr(), fty);
                LLVMSetLinkage(t, INTERNAL_LINKAGE);
                let bb = LLVMAppendBasicBlockInContext(ctx, t, c"entry".as_ptr());
                LLVMPositionBuilderAtEnd(b, bb);
                let n = LLVMCountParams(t);
                let arr = LLVMBuildAlloca(b, LLVMArrayType2(ptr, n as u64), c"".as_ptr());
                for k in 0..n {
                    let a = LLVMGetParam(t, k);
                    let slot = LLVMBuildAlloca(b, LLVMTypeOf(a), c"".as_ptr());
                    LLVMBuildStore(b, a, slot);
                    let mut idx = [LLVMConstInt(i64t, k as u64, 0)];
                    let at = LLVMBuildGEP2(b, ptr, arr, idx.as_mut_ptr(), 1, c"".as_ptr());
                    LLVMBuildStore(b, slot, at);
                }
                let mut args = [wrapper, arr, LLVMConstInt(i64t, n as u64, 0), LLVMConstInt(i64t, work, 0)];
                LLVMBuildCall2(b, pty, pfor, args.as_mut_ptr(), 4, c"".as_ptr());
                LLVMBuildRetVoid(b);
                t
            });
            // The call's callee is its last operand (after any bundles').
            LLVMSetOperand(call, (LLVMGetNumOperands(call) - 1) as c_uint, t);
        }
        LLVMDisposeBuilder(b);
    }
}

/// For each function defined here with external linkage (not a wrapper
/// itself, not a loop nest outlined from the model's function, which carries
/// the attribute `npu-loop-nest`, unless it is a parallel one whose calls go
/// through the runtime), `void _mlir_<f>(ptr args)`:
/// argument i is loaded through the pointer `args[i]`, a result stored
/// through `args[n]`, as MLIR's ExecutionEngine packs them.
///
/// # Safety
/// `m` is a live module.
unsafe fn add_packed_wrappers(m: ModuleRef, parallel_calls: bool) {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let mut targets = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut len = 0usize;
            let p = LLVMGetValueName2(f, &mut len);
            let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned();
            let local = LOCAL_LINKAGES.contains(&LLVMGetLinkage(f));
            let wanted = !has_attribute(f, c"npu-loop-nest") || (parallel_calls && has_attribute(f, c"npu-parallel"));
            if LLVMIsDeclaration(f) == 0 && !local && !name.starts_with("_mlir_") && wanted {
                targets.push((f, name));
            }
            f = LLVMGetNextFunction(f);
        }
        let ptr = LLVMPointerTypeInContext(ctx, 0);
        let i64t = LLVMInt64TypeInContext(ctx);
        let b = LLVMCreateBuilderInContext(ctx);
        for (f, name) in targets {
            let fty = LLVMGlobalGetValueType(f);
            let n = LLVMCountParamTypes(fty);
            let mut params = vec![std::ptr::null_mut(); n as usize];
            LLVMGetParamTypes(fty, params.as_mut_ptr());
            let mut wparams = [ptr];
            let wty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), wparams.as_mut_ptr(), 1, 0);
            // Declared already where this part calls it through the runtime.
            let w = function_named(m, &format!("_mlir_{}", name), wty);
            if LLVMIsDeclaration(w) == 0 {
                continue;
            }
            let bb = LLVMAppendBasicBlockInContext(ctx, w, c"entry".as_ptr());
            LLVMPositionBuilderAtEnd(b, bb);
            let args = LLVMGetParam(w, 0);
            let slot = |i: u64| {
                let mut idx = [LLVMConstInt(i64t, i, 0)];
                let p = LLVMBuildGEP2(b, ptr, args, idx.as_mut_ptr(), 1, c"".as_ptr());
                LLVMBuildLoad2(b, ptr, p, c"".as_ptr())
            };
            let mut vals: Vec<ValueRef> = (0..n).map(|i| LLVMBuildLoad2(b, params[i as usize], slot(i as u64), c"".as_ptr())).collect();
            let r = LLVMBuildCall2(b, fty, f, vals.as_mut_ptr(), n, c"".as_ptr());
            if LLVMGetTypeKind(LLVMGetReturnType(fty)) != VOID_KIND {
                LLVMBuildStore(b, r, slot(n as u64));
            }
            LLVMBuildRetVoid(b);
        }
        LLVMDisposeBuilder(b);
    }
}
