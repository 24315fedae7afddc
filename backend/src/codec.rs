//! A small binary codec for what a backend saves (`Executable::save`) and
//! the compile cache stores: little-endian integers and length-prefixed bytes
//! written by [`Writer`], read back by [`Reader`], which never reads past the
//! end (a short or damaged input is an error, never a panic or a huge allocation).

/// Appends values to a payload: little-endian integers, length-prefixed bytes.
#[derive(Default)]
pub struct Writer(pub Vec<u8>);

impl Writer {
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.u64(v as u64)
    }
    pub fn usize(&mut self, v: usize) -> &mut Self {
        self.u64(v as u64)
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }
    pub fn usizes(&mut self, v: &[usize]) -> &mut Self {
        self.u64(v.len() as u64);
        v.iter().for_each(|x| {
            self.u64(*x as u64);
        });
        self
    }
    pub fn i64s(&mut self, v: &[i64]) -> &mut Self {
        self.u64(v.len() as u64);
        v.iter().for_each(|x| {
            self.i64(*x);
        });
        self
    }
}

/// Reads what a [`Writer`] wrote; running past the end is an error, never a panic.
pub struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, pos: 0 }
    }
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.b.len()).ok_or("the entry ends early")?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    /// How many bytes are not read yet.
    pub fn remaining(&self) -> usize {
        self.b.len() - self.pos
    }
    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = &self.b[self.pos..];
        self.pos = self.b.len();
        s
    }
    pub fn done(&self) -> Result<(), String> {
        (self.pos == self.b.len()).then_some(()).ok_or_else(|| "the entry has bytes after its end".to_string())
    }
    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().map_err(|_| "short")?))
    }
    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| "short")?))
    }
    pub fn i64(&mut self) -> Result<i64, String> {
        Ok(self.u64()? as i64)
    }
    /// A count of items that are each at least `min` bytes: bounded by what is left.
    pub fn count(&mut self, min: usize) -> Result<usize, String> {
        let n = self.u64()?;
        if n.saturating_mul(min.max(1) as u64) > (self.b.len() - self.pos) as u64 {
            return Err("a count larger than the entry".into());
        }
        Ok(n as usize)
    }
    pub fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(self.u64()?).map_err(|_| "a size out of range".to_string())
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.count(1)?;
        self.take(n)
    }
    pub fn string(&mut self) -> Result<String, String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| "a string that is not UTF-8".to_string())
    }
    pub fn usizes(&mut self) -> Result<Vec<usize>, String> {
        let n = self.count(8)?;
        (0..n).map(|_| self.usize()).collect()
    }
    pub fn i64s(&mut self) -> Result<Vec<i64>, String> {
        let n = self.count(8)?;
        (0..n).map(|_| self.i64()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_never_runs_past_the_end() {
        let mut w = Writer::default();
        w.str("abc").usizes(&[1, 2]);
        let full = w.0.clone();
        for n in 0..full.len() {
            let mut r = Reader::new(&full[..n]);
            assert!(r.string().and_then(|_| r.usizes()).is_err(), "{} bytes read as whole", n);
        }
        let mut huge = Writer::default();
        huge.u64(u64::MAX);
        assert!(Reader::new(&huge.0).bytes().is_err());
    }
}
