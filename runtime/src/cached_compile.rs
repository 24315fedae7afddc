//! Compiles through the compile cache (`CompileOptions::cache_dir`): a model
//! compiled for the CPU or for a backend list is stored whole under a key that
//! hashes everything the compile reads: the model's bytes and its external
//! data, the inputs' names, types and shapes (and the values of inputs
//! compiled in as constants), the options, npu16's hardware description, each
//! backend's name, interface version and compiler version, the placement file
//! and our own version. A backend list's entry holds the run plan, npu16's
//! assembled programs and constant images, other backends' saved executables,
//! the placements and the CPU partitions' weights and object code; a CPU
//! compile's, its object code and weights. A model that compiles inputs in as
//! constants (their values decide shapes) keeps one entry per value of them. A hit skips the whole compile: the
//! object code is linked into the process again (`llvm_cpu::Jit::load_object`)
//! without MLIR or LLVM's optimizer.

use crate::cache::{Cache, Key, KeyBuilder, Lookup, Reader, Writer};
use crate::compile::{compile_uncached as compile_cpu_uncached, CompileOptions, Compiled, TensorSpec};
use crate::npu_path::{compile_uncached as compile_npu_uncached, NpuCompiled, NpuProgram};
use executor::plan::{check_cpu_functions, CpuFunc, Stage};
use crate::tensor::HostTensor;
use backend::partition::Placement;
use executor::plan::Executable;
use npu_sim::HwConfig;
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;
use xxhash_rust::xxh3::xxh3_64;

/// What the cache did for one compile.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CacheUse {
    /// No cache directory given.
    #[default]
    Off,
    /// Loaded from the cache: no compile ran.
    Hit,
    /// Compiled (and stored unless a note says why not); the notes say what was
    /// wrong with an entry that was there, or why the result was not stored.
    Miss { notes: Vec<String> },
}

impl CacheUse {
    pub fn label(&self) -> &'static str {
        match self {
            CacheUse::Off => "off",
            CacheUse::Hit => "hit",
            CacheUse::Miss { .. } => "miss",
        }
    }
}

/// A compile result the cache can hold.
trait Cacheable: Sized {
    fn encode(&self, given: &HashMap<String, HostTensor>) -> Result<Vec<u8>, String>;
    fn set_cache(&mut self, cache: CacheUse, compile_ms: Option<f64>);
    /// The inputs compiled in as constants (their values pick the variant).
    fn bound(&self) -> &[String];
}

/// The kind of the index entry that names a model's inputs compiled in as constants.
fn index_kind(kind: &str) -> String {
    format!("{}-bound", kind)
}

/// The key of the variant compiled for the values `given` holds for `names`.
fn variant_key(key: Key, names: &[String], given: &HashMap<String, HostTensor>) -> Key {
    let mut k = KeyBuilder::new();
    k.raw(&key.0.to_le_bytes());
    for n in names {
        k.str(n).bytes(given.get(n).map(|t| t.data.as_ref()).unwrap_or(&[]));
    }
    k.finish()
}

/// The lookup, the compile on a miss and the store, for either path.
/// `decode` returns `None` for an entry compiled for other values of the inputs compiled in.
fn through_cache<T: Cacheable>(kind: &str, key: impl FnOnce() -> Result<Key, String>, opts: &CompileOptions, given: &HashMap<String, HostTensor>, decode: impl FnOnce(&bytes::Bytes) -> Result<Option<T>, String>, compile: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let Some(dir) = &opts.cache_dir else { return compile() };
    let t0 = Instant::now();
    let cache = Cache::open(dir)?;
    let key = key()?;
    let mut notes = vec![];
    // A model that compiles inputs in as constants (they decide shapes) keeps
    // one variant per value: its key leads to the names of those inputs, and
    // their values to the variant.
    let index = index_kind(kind);
    let entry = match cache.get(&index, key) {
        Lookup::Hit(payload) => match get_strings(&mut Reader::new(&payload)) {
            Ok(names) => variant_key(key, &names, given),
            Err(e) => {
                notes.push(format!("{}: {}; recompiling", cache.path(&index, key).display(), e));
                key
            }
        },
        Lookup::Miss => key,
        Lookup::Bad(why) => {
            notes.push(format!("{}; recompiling", why));
            key
        }
    };
    if !opts.recompile {
        match cache.get(kind, entry) {
            Lookup::Hit(payload) => match decode(&payload) {
                Ok(Some(mut c)) => {
                    c.set_cache(CacheUse::Hit, Some(t0.elapsed().as_secs_f64() * 1e3));
                    return Ok(c);
                }
                Ok(None) => notes.push(format!("{}: compiled for other values of the inputs compiled in as constants; recompiling", cache.path(kind, entry).display())),
                Err(e) => notes.push(format!("{}: {}; recompiling", cache.path(kind, entry).display(), e)),
            },
            Lookup::Miss => {}
            Lookup::Bad(why) => notes.push(format!("{}; recompiling", why)),
        }
    }
    let mut c = compile()?;
    match c.encode(given) {
        Ok(payload) => {
            let stored = if c.bound().is_empty() {
                cache.put(kind, key, &payload)
            } else {
                let mut w = Writer::default();
                put_strings(&mut w, c.bound());
                cache.put(&index, key, &w.0).and_then(|_| cache.put(kind, variant_key(key, c.bound(), given), &payload))
            };
            if let Err(e) = stored {
                notes.push(e);
            }
        }
        Err(why) => notes.push(format!("not cached: {}", why)),
    }
    c.set_cache(CacheUse::Miss { notes }, None);
    Ok(c)
}

/// `npu_path::compile_npu` through the cache.
pub(crate) fn compile_npu(model: &[u8], path: Option<&Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, hw: &HwConfig, targets: &[String], placement: Option<&str>) -> Result<NpuCompiled, String> {
    through_cache(
        "model",
        || key("model", model, path, given, opts, Some(hw), targets, placement),
        opts,
        given,
        |b| decode(b, given, hw, targets),
        || compile_npu_uncached(model, path, given, opts, hw, targets, placement),
    )
}

/// `compile::compile` (the CPU path) through the cache.
pub(crate) fn compile_cpu(model: &[u8], path: Option<&Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Compiled, String> {
    through_cache("cpu", || key("cpu", model, path, given, opts, None, &[], None), opts, given, |b| decode_cpu(b, given), || compile_cpu_uncached(model, path, given, opts))
}

impl Cacheable for NpuCompiled {
    fn encode(&self, given: &HashMap<String, HostTensor>) -> Result<Vec<u8>, String> {
        encode(self, given)
    }
    fn bound(&self) -> &[String] {
        &self.bound
    }
    fn set_cache(&mut self, cache: CacheUse, compile_ms: Option<f64>) {
        self.cache = cache;
        if let Some(ms) = compile_ms {
            self.compile_ms = ms;
        }
    }
}

impl Cacheable for Compiled {
    fn bound(&self) -> &[String] {
        &self.bound
    }
    fn encode(&self, given: &HashMap<String, HostTensor>) -> Result<Vec<u8>, String> {
        if self.object.is_empty() {
            return Err("the JIT kept no object code".into());
        }
        let mut w = Writer::default();
        w.str(&self.func);
        put_list(&mut w, &self.inputs, put_spec);
        put_list(&mut w, &self.outputs, put_spec);
        put_bound(&mut w, &self.bound, given);
        put_list(&mut w, &self.weights, put_tensor);
        put_strings(&mut w, &self.profile_regions);
        put_strings(&mut w, &self.checks);
        w.bytes(&self.object);
        Ok(w.0)
    }
    fn set_cache(&mut self, cache: CacheUse, compile_ms: Option<f64>) {
        self.cache = cache;
        if let Some(ms) = compile_ms {
            self.compile_ms = ms;
        }
    }
}

fn decode_cpu(b: &[u8], given: &HashMap<String, HostTensor>) -> Result<Option<Compiled>, String> {
    let mut r = Reader::new(b);
    let func = r.string()?;
    let inputs = get_list(&mut r, get_spec)?;
    let outputs = get_list(&mut r, get_spec)?;
    let Some(bound) = get_bound(&mut r, given)? else { return Ok(None) };
    let weights = get_list(&mut r, get_tensor)?;
    let profile_regions = get_strings(&mut r)?;
    let checks = get_strings(&mut r)?;
    let object = r.bytes()?.to_vec();
    r.done()?;
    crate::profile::reset(profile_regions.len());
    let jit = llvm_cpu::Jit::load_object(&object, &crate::checks::jit_symbols())?;
    if !jit.has_function(&func) {
        return Err(format!("the stored object code has no function @{}", func));
    }
    Ok(Some(Compiled { code: executor::CpuCode { jit, func, inputs, outputs, bound, weights, checks }, compile_ms: 0.0, profile_regions, cache: CacheUse::Hit, object, phases: vec![] }))
}

/// The inputs compiled in as constants, with a digest of the values they were compiled for.
fn put_bound(w: &mut Writer, bound: &[String], given: &HashMap<String, HostTensor>) {
    put_list(w, bound, |w, n| {
        w.str(n).u64(given.get(n).map(|t| xxh3_64(t.data.as_ref())).unwrap_or(0));
    });
}

/// The inputs compiled in, or `None` when `given` holds other values for them.
fn get_bound(r: &mut Reader, given: &HashMap<String, HostTensor>) -> Result<Option<Vec<String>>, String> {
    let bound = get_list(r, |r| Ok((r.string()?, r.u64()?)))?;
    if bound.iter().any(|(n, digest)| given.get(n).map(|t| xxh3_64(t.data.as_ref())) != Some(*digest)) {
        return Ok(None);
    }
    Ok(Some(bound.into_iter().map(|(n, _)| n).collect()))
}

/// The key of a compile: see the module's comment for what goes in.
#[allow(clippy::too_many_arguments)]
fn key(kind: &str, model: &[u8], path: Option<&Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, hw: Option<&HwConfig>, targets: &[String], placement: Option<&str>) -> Result<Key, String> {
    let mut k = KeyBuilder::new();
    k.str(kind).bytes(model);
    for file in external_files(model, path) {
        hash_file(&mut k, &file)?;
    }
    // What compiled it: this very build (a rebuild may compile differently,
    // whatever the version says), the host CPU the object code is for, and
    // whether its int8 kernels use VNNI (`NPU_CPU_NO_VNNI`) and the register
    // tiles its kernels were shaped for (`NPU_CPU_TARGET`).
    k.str(&build_id()).str(&llvm_cpu::host_cpu()).str(if cpu_target::host_has_vnni() { "vnni" } else { "portable" }).str(cpu_target::cpu_target().name());
    let mut names: Vec<&String> = given.keys().collect();
    names.sort();
    for n in names {
        let t = &given[n];
        k.str(n).str(&format!("{} {:?}", t.dtype, t.shape));
        if opts.bind.contains(n) {
            k.bytes(t.data.as_ref());
        }
    }
    let mut dims: Vec<_> = opts.dims.iter().collect();
    dims.sort();
    // The tensor limit too: a compile under a larger one would skip the size check on a hit.
    k.str(&format!(
        "opt={} profile={} dims={:?} bind={:?} set={:?} max-tensor-bytes={} max-loop-iterations={}",
        opts.opt_level,
        opts.profile,
        dims,
        opts.bind,
        opts.backend_settings,
        crate::tensor::max_tensor_bytes(),
        driver::pipelines::max_loop_iterations()
    ));
    k.str(&format!("{:?}", hw));
    for b in if targets.is_empty() { vec![] } else { backend::resolve(targets)? } {
        k.str(b.name()).str(&format!("api {}", b.api_version())).str(&b.version());
    }
    match placement {
        Some(p) => k.bytes(&std::fs::read(p).map_err(|e| format!("placement file {}: {}", p, e))?),
        None => k.str(""),
    };
    Ok(k.finish())
}

/// The files the model's tensors keep their data in (ONNX external data), sorted:
/// those of initializers, sparse initializers, tensor attributes (in every
/// subgraph) and the model's functions. A location outside the model's folder
/// is left out, as the importer refuses it anyway.
fn external_files(model: &[u8], path: Option<&Path>) -> Vec<std::path::PathBuf> {
    use onnx_translate::proto::{AttributeProto, GraphProto, NodeProto, TensorProto};
    // Every external tensor names its file under the key "location": a model
    // without those bytes has none, and is not decoded again.
    if memchr::memmem::find(model, b"location").is_none() {
        return vec![];
    }
    let Ok(proto) = onnx_translate::proto::decode_model(bytes::Bytes::copy_from_slice(model)) else { return vec![] };
    let dir = path.and_then(|p| p.parent()).unwrap_or(Path::new("."));
    let mut tensors: Vec<&TensorProto> = vec![];
    let mut graphs: Vec<&GraphProto> = proto.graph.iter().collect();
    let mut nodes: Vec<&NodeProto> = proto.functions.iter().flat_map(|f| f.node.iter()).collect();
    let mut attrs: Vec<&AttributeProto> = proto.functions.iter().flat_map(|f| f.attribute_proto.iter()).collect();
    loop {
        if let Some(g) = graphs.pop() {
            tensors.extend(g.initializer.iter());
            tensors.extend(g.sparse_initializer.iter().flat_map(|s| s.values.iter().chain(s.indices.iter())));
            nodes.extend(g.node.iter());
        } else if let Some(n) = nodes.pop() {
            attrs.extend(n.attribute.iter());
        } else if let Some(a) = attrs.pop() {
            tensors.extend(a.t.iter().chain(a.tensors.iter()));
            tensors.extend(a.sparse_tensor.iter().chain(a.sparse_tensors.iter()).flat_map(|s| s.values.iter().chain(s.indices.iter())));
            graphs.extend(a.g.iter().map(|g| &**g).chain(a.graphs.iter()));
        } else {
            break;
        }
    }
    let mut files: Vec<std::path::PathBuf> = tensors
        .iter()
        .filter_map(|t| t.external_data.iter().find(|e| e.key.as_deref() == Some("location")).and_then(|e| e.value.as_deref()))
        .map(std::path::PathBuf::from)
        .filter(|rel| !rel.is_absolute() && !rel.components().any(|c| matches!(c, std::path::Component::ParentDir)))
        .map(|rel| dir.join(rel))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// This executable's identity: its path, size and modification time (read
/// once; hashing the whole binary would cost more than a cache hit saves).
fn build_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().unwrap_or_default();
        let meta = std::fs::metadata(&exe).ok();
        let mtime = meta.as_ref().and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_nanos()).unwrap_or(0);
        format!("{} {} {}", exe.display(), meta.map(|m| m.len()).unwrap_or(0), mtime)
    })
    .clone()
}

/// Feeds a regular file's bytes to the key a megabyte at a time (a device or
/// FIFO named as external data is refused, never read without end).
fn hash_file(k: &mut KeyBuilder, file: &Path) -> Result<(), String> {
    use std::io::Read;
    let err = |e: std::io::Error| format!("external data {}: {}", file.display(), e);
    let meta = std::fs::metadata(file).map_err(err)?;
    if !meta.is_file() {
        return Err(format!("external data {}: not a regular file", file.display()));
    }
    k.str(&file.to_string_lossy()).str(&meta.len().to_string());
    let mut f = std::fs::File::open(file).map_err(err)?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(err)?;
        if n == 0 {
            return Ok(());
        }
        k.raw(&buf[..n]);
    }
}

fn put_spec(w: &mut Writer, s: &TensorSpec) {
    w.str(&s.name).i64(s.dtype as i64).i64s(&s.shape);
}

fn get_spec(r: &mut Reader) -> Result<TensorSpec, String> {
    Ok(TensorSpec { name: r.string()?, dtype: r.i64()? as i32, shape: r.i64s()? })
}

fn put_tensor(w: &mut Writer, t: &HostTensor) {
    w.i64(t.dtype as i64).i64s(&t.shape).bytes(t.data.as_ref());
}

fn get_tensor(r: &mut Reader) -> Result<HostTensor, String> {
    let (dtype, shape) = (r.i64()? as i32, r.i64s()?);
    let data = r.bytes()?;
    // Checked before allocating: a damaged shape must not ask for gigabytes.
    let size = crate::tensor::dtype_size(dtype).ok_or("a tensor of an unknown dtype")?;
    let n = shape.iter().try_fold(1usize, |n, d| usize::try_from(*d).ok().and_then(|d| n.checked_mul(d))).and_then(|n| n.checked_mul(size));
    if n != Some(data.len()) {
        return Err("a tensor whose data does not fit its shape".into());
    }
    let mut t = HostTensor::zeros(dtype, &shape)?;
    if data.len() != t.data.as_ref().len() {
        return Err("a tensor whose data does not fit its shape".into());
    }
    t.data.as_mut().copy_from_slice(data);
    Ok(t)
}

fn put_strings(w: &mut Writer, v: &[String]) {
    w.u64(v.len() as u64);
    v.iter().for_each(|s| {
        w.str(s);
    });
}

fn get_strings(r: &mut Reader) -> Result<Vec<String>, String> {
    let n = r.count(8)?;
    (0..n).map(|_| r.string()).collect()
}

/// Writes `n` items of `r` as a counted list.
fn put_list<T>(w: &mut Writer, items: &[T], mut f: impl FnMut(&mut Writer, &T)) {
    w.u64(items.len() as u64);
    for x in items {
        f(w, x);
    }
}

fn get_list<T>(r: &mut Reader, mut f: impl FnMut(&mut Reader) -> Result<T, String>) -> Result<Vec<T>, String> {
    let n = r.count(8)?;
    (0..n).map(|_| f(r)).collect()
}

fn encode(c: &NpuCompiled, given: &HashMap<String, HostTensor>) -> Result<Vec<u8>, String> {
    let mut w = Writer::default();
    put_list(&mut w, &c.inputs, put_spec);
    put_list(&mut w, &c.outputs, put_spec);
    put_bound(&mut w, &c.bound, given);
    put_strings(&mut w, &c.targets);
    put_list(&mut w, &c.placements, |w, p| {
        w.str(&p.node).str(&p.op).str(&p.backend).str(&p.partition).u64(p.macs);
        match &p.reason {
            Some(u) => w.str(u.reason.code()).str(&u.message),
            None => w.str("").str(""),
        };
    });
    put_list(&mut w, &c.programs, |w, p| {
        w.str(&p.name).bytes(&npu_sim::binary::write(&p.program)).bytes(&p.consts);
        put_strings(w, &p.inputs);
        put_strings(w, &p.outputs);
    });
    if !c.cpu.is_empty() && c.cpu_object.is_empty() {
        return Err("the CPU partitions' object code was not kept".into());
    }
    w.bytes(&c.cpu_object);
    put_strings(&mut w, &c.cpu_checks);
    put_list(&mut w, &c.cpu, |w, f| {
        w.str(&f.name);
        put_list(w, &f.inputs, put_spec);
        put_list(w, &f.outputs, put_spec);
        put_list(w, &f.weights, put_tensor);
    });
    let mut saved = vec![];
    for e in &c.executables {
        saved.push(e.exe.save().ok_or_else(|| format!("backend '{}' cannot save its executables (Executable::save)", e.backend))?);
    }
    put_list(&mut w, &c.executables.iter().zip(&saved).collect::<Vec<_>>(), |w, (e, b)| {
        w.str(&e.backend).str(&e.partition).bytes(b);
    });
    put_list(&mut w, &c.stages, put_stage);
    w.usize(c.slots);
    w.usizes(&c.input_slots).usizes(&c.output_slots);
    Ok(w.0)
}

/// The compile an entry holds, or `None` when it was compiled for other
/// values of the inputs compiled in as constants.
fn decode(b: &bytes::Bytes, given: &HashMap<String, HostTensor>, hw: &HwConfig, targets: &[String]) -> Result<Option<NpuCompiled>, String> {
    let mut r = Reader::new(b);
    let inputs = get_list(&mut r, get_spec)?;
    let outputs = get_list(&mut r, get_spec)?;
    let Some(bound) = get_bound(&mut r, given)? else { return Ok(None) };
    let stored_targets = get_strings(&mut r)?;
    if stored_targets != targets {
        return Err(format!("compiled for the targets {} (asked: {})", stored_targets.join(","), targets.join(",")));
    }
    let placements = get_list(&mut r, |r| {
        let (node, op, backend, partition, macs) = (r.string()?, r.string()?, r.string()?, r.string()?, r.u64()?);
        let (code, message) = (r.string()?, r.string()?);
        let reason = match code.as_str() {
            "" => None,
            c => Some(backend::Unsupported::new(backend::Reason::from_code(c).ok_or_else(|| format!("an unknown reason code '{}'", c))?, message)),
        };
        Ok(Placement { node, op, backend, reason, partition, macs })
    })?;
    let programs = get_list(&mut r, |r| {
        let name = r.string()?;
        let program = npu_sim::binary::read(r.bytes()?)?;
        // A slice of the entry's buffer: the constant image (the weights) is not copied.
        let consts = b.slice_ref(r.bytes()?);
        Ok(NpuProgram { name, program, consts, inputs: get_strings(r)?, outputs: get_strings(r)? })
    })?;
    let cpu_object = r.bytes()?.to_vec();
    let cpu_checks = get_strings(&mut r)?;
    let cpu = get_list(&mut r, |r| Ok(CpuFunc { name: r.string()?, inputs: get_list(r, get_spec)?, outputs: get_list(r, get_spec)?, weights: get_list(r, get_tensor)? }))?;
    let executables = get_list(&mut r, |r| {
        let (name, partition, bytes) = (r.string()?, r.string()?, r.bytes()?);
        let b = backend::resolve(&[name.clone()])?.into_iter().next().ok_or("no backend")?;
        let exe = b.load(bytes).map_err(|e| format!("backend '{}' could not load @{}: {}", name, partition, e))?;
        Ok(Executable { backend: name, partition, exe })
    })?;
    let stages = get_list(&mut r, get_stage)?;
    let slots = r.usize()?;
    let (input_slots, output_slots) = (r.usizes()?, r.usizes()?);
    r.done()?;
    check_plan(&stages, slots, &input_slots, &output_slots, programs.len(), cpu.len(), executables.len())?;
    if input_slots.len() != inputs.len() || output_slots.len() != outputs.len() {
        return Err("the plan does not match the model's inputs and outputs".into());
    }
    let jit = if cpu.is_empty() {
        None
    } else {
        let jit = llvm_cpu::Jit::load_object(&cpu_object, &crate::checks::jit_symbols())?;
        check_cpu_functions(&jit, &cpu)?;
        Some(jit)
    };
    let plan = executor::Plan { inputs, outputs, bound, programs, hw: hw.clone(), jit, cpu, cpu_checks, sim_limits: Default::default(), executables, stages, slots, input_slots, output_slots };
    Ok(Some(NpuCompiled { plan, phases: vec![], placements, targets: targets.to_vec(), compile_ms: 0.0, cache: CacheUse::Hit, cpu_object, reference: None }))
}

const CPU: u64 = 0;
const EXEC: u64 = 1;
const NPU: u64 = 2;
const TRANSPOSE: u64 = 3;
const RESHAPE: u64 = 4;
const CONST: u64 = 5;

fn put_stage(w: &mut Writer, s: &Stage) {
    match s {
        Stage::Cpu { func, args, results } => w.u64(CPU).usize(*func).usizes(args).usizes(results),
        Stage::Exec { exe, args, results, specs } => {
            w.u64(EXEC).usize(*exe).usizes(args).usizes(results);
            put_list(w, specs, put_spec);
            w
        }
        Stage::Npu { program, partition, args, results, specs } => {
            w.u64(NPU).usize(*program).str(partition).usizes(args).usizes(results);
            put_list(w, specs, put_spec);
            w
        }
        Stage::Transpose { perm, arg, result } => w.u64(TRANSPOSE).usizes(perm).usize(*arg).usize(*result),
        Stage::Reshape { arg, result, shape } => w.u64(RESHAPE).usize(*arg).usize(*result).i64s(shape),
        Stage::Const { value, result } => {
            w.u64(CONST);
            put_tensor(w, value);
            w.usize(*result)
        }
    };
}

fn get_stage(r: &mut Reader) -> Result<Stage, String> {
    Ok(match r.u64()? {
        CPU => Stage::Cpu { func: r.usize()?, args: r.usizes()?, results: r.usizes()? },
        EXEC => Stage::Exec { exe: r.usize()?, args: r.usizes()?, results: r.usizes()?, specs: get_list(r, get_spec)? },
        NPU => Stage::Npu { program: r.usize()?, partition: r.string()?, args: r.usizes()?, results: r.usizes()?, specs: get_list(r, get_spec)? },
        TRANSPOSE => Stage::Transpose { perm: r.usizes()?, arg: r.usize()?, result: r.usize()? },
        RESHAPE => Stage::Reshape { arg: r.usize()?, result: r.usize()?, shape: r.i64s()? },
        CONST => Stage::Const { value: get_tensor(r)?, result: r.usize()? },
        k => return Err(format!("an unknown stage kind {}", k)),
    })
}

/// Every index a stored plan holds points into what the entry holds, so a
/// damaged entry that passed its checksum still cannot index out of bounds.
fn check_plan(stages: &[Stage], slots: usize, inputs: &[usize], outputs: &[usize], programs: usize, cpu: usize, exes: usize) -> Result<(), String> {
    let bad = || Err("the stored plan indexes past what the entry holds".to_string());
    let in_slots = |v: &[usize]| v.iter().all(|s| *s < slots);
    if !in_slots(inputs) || !in_slots(outputs) {
        return bad();
    }
    for s in stages {
        let ok = match s {
            Stage::Cpu { func, args, results } => *func < cpu && in_slots(args) && in_slots(results),
            Stage::Exec { exe, args, results, specs } => *exe < exes && in_slots(args) && in_slots(results) && specs.len() == results.len(),
            Stage::Npu { program, args, results, specs, .. } => *program < programs && in_slots(args) && in_slots(results) && specs.len() == results.len(),
            Stage::Transpose { arg, result, .. } | Stage::Reshape { arg, result, .. } => *arg < slots && *result < slots,
            Stage::Const { result, .. } => *result < slots,
        };
        if !ok {
            return bad();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_translate::proto::{GraphProto, ModelProto, SparseTensorProto, StringStringEntryProto, TensorProto};

    fn external(loc: &str) -> TensorProto {
        TensorProto { external_data: vec![StringStringEntryProto { key: Some("location".into()), value: Some(loc.into()) }], ..Default::default() }
    }

    /// External data in the key: files below the model's folder only (the
    /// importer refuses others), sparse initializers included; a device or
    /// FIFO is refused, never read without end.
    #[test]
    fn external_data_files_are_found_and_read_safely() {
        let dir = std::env::temp_dir().join(format!("npu-cache-ext-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let graph = GraphProto {
            initializer: vec![external("w.bin"), external("/dev/zero"), external("../escape.bin")],
            sparse_initializer: vec![SparseTensorProto { values: Some(external("sparse.bin")), ..Default::default() }],
            ..Default::default()
        };
        let model = onnx_translate::proto::encode_model(&ModelProto { graph: Some(graph), ..Default::default() });
        let files = external_files(&model, Some(&dir.join("m.onnx")));
        assert_eq!(files, vec![dir.join("sparse.bin"), dir.join("w.bin")]);
        std::fs::write(dir.join("w.bin"), [1u8, 2, 3]).unwrap();
        let (mut a, mut b) = (KeyBuilder::new(), KeyBuilder::new());
        hash_file(&mut a, &dir.join("w.bin")).unwrap();
        std::fs::write(dir.join("w.bin"), [1u8, 2, 4]).unwrap();
        hash_file(&mut b, &dir.join("w.bin")).unwrap();
        assert_ne!(a.finish(), b.finish(), "the file's bytes are in the key");
        assert!(hash_file(&mut a, Path::new("/dev/zero")).unwrap_err().contains("not a regular file"));
        assert!(hash_file(&mut a, &dir.join("missing.bin")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
