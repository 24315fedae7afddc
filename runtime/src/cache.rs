//! The compile cache (`npu-run --cache-dir DIR`): compiled artifacts stored
//! under a key that hashes everything the compile read, so that a hit is the
//! compile's own result. An entry is never trusted blindly: one from another
//! version, with another key, truncated or whose checksum does not match is
//! reported and recompiled (and overwritten), never a crash.
//!
//! An entry file is `DIR/<kind>-<key>.bin`: the magic, the format's version,
//! the framework's version, the key, the payload's length and its xxh3
//! checksum, then the payload. Entries are written to a temporary file and
//! renamed, so a reader never sees half of one.

pub use backend::codec::{Reader, Writer};
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

const MAGIC: &[u8; 8] = b"NPUCACHE";
/// Bumped whenever a payload's layout changes.
const FORMAT: u32 = 4;
/// The compiler that wrote an entry: a different one may compile differently.
pub const COMPILER: &str = concat!(env!("CARGO_PKG_VERSION"), "/", env!("CARGO_PKG_NAME"));

/// A 128-bit key (xxh3) over the compile's inputs, fed in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(pub u128);

/// Builds a [`Key`]: every part is length-prefixed, so `("ab", "c")` and `("a", "bc")` differ.
pub struct KeyBuilder(Xxh3);

impl Default for KeyBuilder {
    fn default() -> Self {
        KeyBuilder::new()
    }
}

impl KeyBuilder {
    pub fn new() -> KeyBuilder {
        let mut h = Xxh3::new();
        h.write(MAGIC);
        h.write(&FORMAT.to_le_bytes());
        h.write(COMPILER.as_bytes());
        KeyBuilder(h)
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.write(&(b.len() as u64).to_le_bytes());
        self.0.write(b);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }
    /// Bytes without a length prefix (a stream whose length was fed before).
    pub fn raw(&mut self, b: &[u8]) -> &mut Self {
        self.0.write(b);
        self
    }
    pub fn finish(&self) -> Key {
        Key(self.0.digest128())
    }
}

/// A directory of entries.
pub struct Cache {
    dir: PathBuf,
}

/// What a lookup found.
pub enum Lookup {
    /// The payload, sharing the buffer the entry was read into (slices of
    /// it, such as a constant image, need no copy).
    Hit(bytes::Bytes),
    Miss,
    /// An entry was there but cannot be trusted (the message says why).
    Bad(String),
}

impl Cache {
    pub fn open(dir: &Path) -> Result<Cache, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cache directory {}: {}", dir.display(), e))?;
        Ok(Cache { dir: dir.to_path_buf() })
    }

    pub fn path(&self, kind: &str, key: Key) -> PathBuf {
        self.dir.join(format!("{}-{:032x}.bin", kind, key.0))
    }

    pub fn get(&self, kind: &str, key: Key) -> Lookup {
        let path = self.path(kind, key);
        // A hit runs the entry's object code: only entries this user wrote are
        // trusted (a shared, writable directory could hold anyone's).
        if let Some(why) = foreign(&path) {
            return Lookup::Bad(format!("{}: {}", path.display(), why));
        }
        let bytes = match map(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => return Lookup::Bad(format!("{}: {}", path.display(), e)),
        };
        match check(&bytes, key) {
            Ok(start) => Lookup::Hit(bytes.slice(start..)),
            Err(why) => Lookup::Bad(format!("{}: {}", path.display(), why)),
        }
    }

    /// Stores an entry; a failure to write is a warning for the caller, not an error.
    pub fn put(&self, kind: &str, key: Key, payload: &[u8]) -> Result<(), String> {
        let path = self.path(kind, key);
        let mut out = Vec::with_capacity(payload.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&(COMPILER.len() as u32).to_le_bytes());
        out.extend_from_slice(COMPILER.as_bytes());
        out.extend_from_slice(&key.0.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&xxh3_64(payload).to_le_bytes());
        out.extend_from_slice(payload);
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let tmp = path.with_extension(format!("tmp{}-{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
        std::fs::write(&tmp, &out).and_then(|_| std::fs::rename(&tmp, &path)).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("could not write the cache entry {}: {}", path.display(), e)
        })
    }
}

/// An entry's bytes, mapped rather than read: a hit of a model with large
/// weights then costs no copy and no fresh pages (a 58 MB ResNet-18 entry took
/// 60-75 ms to read, most of it faulting in the buffer). Entries are only ever
/// replaced by a rename (`put`), never written in place, so a mapped one does
/// not change under the reader.
fn map(path: &Path) -> std::io::Result<bytes::Bytes> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(bytes::Bytes::new());
    }
    // SAFETY: the file is never modified in place (see above); a user who
    // truncates a cache entry by hand while it is being read is outside what
    // the cache guards against, as for any mapped file.
    match unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
        Ok(m) => Ok(bytes::Bytes::from_owner(m)),
        // A file system that cannot map files: read it.
        Err(_) => std::fs::read(path).map(bytes::Bytes::from),
    }
}

/// Why an entry at `path` is not this user's to trust, if it exists and is not.
fn foreign(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let entry = std::fs::symlink_metadata(path).ok()?;
    let me = std::fs::metadata("/proc/self").ok()?.uid();
    if entry.file_type().is_symlink() {
        return Some("a symbolic link, not an entry written here".into());
    }
    (entry.uid() != me).then(|| format!("owned by user {}, not by this user ({})", entry.uid(), me))
}

/// Where the payload of an entry starts, if it is whole and was written for `key` by this compiler.
fn check(b: &[u8], key: Key) -> Result<usize, String> {
    let mut r = Reader::new(b);
    if r.take(8).ok() != Some(MAGIC.as_slice()) {
        return Err("not a cache entry".into());
    }
    let format = r.u32().map_err(|_| "truncated header")?;
    let version = r.u32().and_then(|n| r.take(n as usize)).map_err(|_| "truncated header")?;
    if format != FORMAT || version != COMPILER.as_bytes() {
        return Err(format!("written by another version ({}, format {})", String::from_utf8_lossy(version), format));
    }
    let stored = u128::from_le_bytes(r.take(16).map_err(|_| "truncated header")?.try_into().unwrap_or_default());
    if stored != key.0 {
        return Err("written for another key".into());
    }
    let len = r.u64().map_err(|_| "truncated header")?;
    let sum = r.u64().map_err(|_| "truncated header")?;
    let start = b.len() - r.remaining();
    let payload = r.rest();
    if payload.len() as u64 != len {
        return Err(format!("truncated: {} of {} payload bytes", payload.len(), len));
    }
    if xxh3_64(payload) != sum {
        return Err("checksum mismatch".into());
    }
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp() -> PathBuf {
        let d = std::env::temp_dir().join(format!("npu-cache-test-{}-{:?}", std::process::id(), std::thread::current().id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip_and_every_kind_of_damage() {
        let dir = tmp();
        let c = Cache::open(&dir).unwrap();
        let key = KeyBuilder::new().str("model").bytes(&[1, 2, 3]).finish();
        assert!(matches!(c.get("npu", key), Lookup::Miss));
        c.put("npu", key, b"payload bytes").unwrap();
        match c.get("npu", key) {
            Lookup::Hit(b) => assert_eq!(&b[..], b"payload bytes"),
            _ => panic!("no hit"),
        }
        let path = c.path("npu", key);
        let good = std::fs::read(&path).unwrap();
        let damaged: Vec<(&str, Vec<u8>)> = vec![
            ("truncated", good[..good.len() - 3].to_vec()),
            ("checksum", {
                let mut b = good.clone();
                *b.last_mut().unwrap() ^= 1;
                b
            }),
            ("another version", {
                let mut b = good.clone();
                b[8] ^= 0x40;
                b
            }),
            ("not a cache entry", b"garbage".to_vec()),
            ("truncated header", good[..20].to_vec()),
        ];
        for (what, bytes) in damaged {
            std::fs::write(&path, &bytes).unwrap();
            match c.get("npu", key) {
                Lookup::Bad(why) => assert!(!why.is_empty(), "{}", what),
                _ => panic!("{}: a damaged entry was trusted", what),
            }
        }
        // An entry copied under another key's name.
        let other = KeyBuilder::new().str("model").bytes(&[1, 2, 4]).finish();
        assert_ne!(key, other);
        std::fs::write(c.path("npu", other), &good).unwrap();
        assert!(matches!(c.get("npu", other), Lookup::Bad(why) if why.contains("another key")));
        // A link in place of an entry is not followed (a hit would run what it points at).
        let third = KeyBuilder::new().str("third").finish();
        std::fs::write(dir.join("elsewhere.bin"), &good).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere.bin"), c.path("npu", third)).unwrap();
        assert!(matches!(c.get("npu", third), Lookup::Bad(why) if why.contains("symbolic link")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn key_parts_are_delimited() {
        assert_ne!(KeyBuilder::new().str("ab").str("c").finish(), KeyBuilder::new().str("a").str("bc").finish());
    }
}
