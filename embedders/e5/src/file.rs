//! The model file (`e5-small-q4.bin`, "E5S1"), little-endian throughout:
//!
//! ```text
//! "E5S1" u32 version
//! i32 hidden, layers, heads, ffn, vocabulary, positions, token types
//! f32 LayerNorm ε, i32 block size (32)
//! tokenizer: i32 pieces, <s>, </s>, <pad>, <unk> ids; u64 text bytes;
//!            u32 offsets[pieces + 1]; f32 scores[pieces]; the pieces' UTF-8
//! normaliser: i32 entries, u32 bytes; per entry u32 code point, u8 n,
//!             u32 replacement[n] (sorted by code point)
//! tensors: i32 count; per tensor u16 name length, name, u8 type (0 f32,
//!          1 4-bit), u32 elements, u64 offset, u64 bytes
//! ```
//!
//! A 4-bit tensor is rows of 32-value blocks: an f16 scale, then 16 bytes
//! whose low nibbles are values 0–15 and high nibbles values 16–31, each
//! `(nibble − 8) × scale`. This module reads the layout and checks every
//! range against the file's length; it does not interpret the model.

use crate::Error;

/// The numbers at the head of the file.
pub struct Header {
    pub hidden: usize,
    pub layers: usize,
    pub heads: usize,
    pub ffn: usize,
    pub vocabulary: usize,
    pub positions: usize,
    pub eps: f32,
}

/// The tokenizer's tables as the file holds them.
pub struct Vocabulary {
    pub bos: u32,
    pub eos: u32,
    pub unk: u32,
    pub pieces: Vec<String>,
    pub scores: Vec<f32>,
    /// (code point, replacement), sorted by code point.
    pub normalize: Vec<(u32, Vec<char>)>,
}

/// A tensor's place in the file.
pub struct Tensor {
    pub name: String,
    pub quantized: bool,
    pub elements: usize,
    pub start: usize,
    pub end: usize,
}

pub struct Layout {
    pub header: Header,
    pub vocabulary: Vocabulary,
    pub tensors: Vec<Tensor>,
}

/// The bytes of a 4-bit block: an f16 scale and 16 bytes of nibbles.
pub const BLOCK_BYTES: usize = 18;
/// The values of a block.
pub const BLOCK: usize = 32;

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn truncated() -> Error {
    Error::Weights("the file is truncated".to_owned())
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).ok_or_else(truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or_else(truncated)?;
        self.at = end;
        Ok(slice)
    }
    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, Error> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn f32(&mut self) -> Result<f32, Error> {
        Ok(f32::from_bits(self.u32()?))
    }
    /// A count or size: a non-negative i32 no larger than the file.
    fn count(&mut self) -> Result<usize, Error> {
        let n = self.u32()? as usize;
        if n > self.bytes.len() {
            return Err(Error::Weights(format!("a count of {n}")));
        }
        Ok(n)
    }
}

/// Read the layout of `bytes`.
pub fn read(bytes: &[u8]) -> Result<Layout, Error> {
    let mut c = Cursor { bytes, at: 0 };
    if c.take(4)? != b"E5S1" {
        return Err(Error::Weights("not an E5S1 model file".to_owned()));
    }
    let version = c.u32()?;
    if version != 1 {
        return Err(Error::Weights(format!("version {version}")));
    }
    let header = Header {
        hidden: c.count()?,
        layers: c.count()?,
        heads: c.count()?,
        ffn: c.count()?,
        vocabulary: c.count()?,
        positions: c.count()?,
        eps: {
            let _token_types = c.count()?;
            c.f32()?
        },
    };
    let block = c.count()?;
    if block != BLOCK {
        return Err(Error::Weights(format!("blocks of {block}")));
    }
    let vocabulary = read_vocabulary(&mut c)?;
    let count = c.count()?;
    let mut tensors = Vec::with_capacity(count);
    for _ in 0..count {
        let length = usize::from(c.u16()?);
        let name = String::from_utf8_lossy(c.take(length)?).into_owned();
        let quantized = match c.u8()? {
            0 => false,
            1 => true,
            other => return Err(Error::Weights(format!("{name}: type {other}"))),
        };
        let elements = c.u32()? as usize;
        let start = usize::try_from(c.u64()?).map_err(|_| truncated())?;
        let length = usize::try_from(c.u64()?).map_err(|_| truncated())?;
        let expected = if quantized {
            if !elements.is_multiple_of(BLOCK) {
                return Err(Error::Weights(format!("{name}: {elements} values")));
            }
            elements / BLOCK * BLOCK_BYTES
        } else {
            elements * 4
        };
        let end = start.checked_add(length).ok_or_else(truncated)?;
        if length != expected || end > bytes.len() {
            return Err(Error::Weights(format!("{name}: bytes {start}..{end}")));
        }
        tensors.push(Tensor {
            name,
            quantized,
            elements,
            start,
            end,
        });
    }
    Ok(Layout {
        header,
        vocabulary,
        tensors,
    })
}

fn read_vocabulary(c: &mut Cursor) -> Result<Vocabulary, Error> {
    let n = c.count()?;
    let mut id = || -> Result<u32, Error> {
        let id = c.u32()?;
        if id as usize >= n {
            return Err(Error::Weights(format!("special token {id} of {n}")));
        }
        Ok(id)
    };
    let (bos, eos, _pad, unk) = (id()?, id()?, id()?, id()?);
    let text_bytes = usize::try_from(c.u64()?).map_err(|_| truncated())?;
    let offsets: Vec<usize> = (0..=n)
        .map(|_| c.u32().map(|o| o as usize))
        .collect::<Result<_, _>>()?;
    let scores: Vec<f32> = (0..n).map(|_| c.f32()).collect::<Result<_, _>>()?;
    let text = c.take(text_bytes)?;
    let mut pieces = Vec::with_capacity(n);
    for w in offsets.windows(2) {
        let piece = text
            .get(w[0]..w[1])
            .and_then(|b| std::str::from_utf8(b).ok())
            .ok_or_else(|| Error::Weights(format!("piece at {}..{}", w[0], w[1])))?;
        pieces.push(piece.to_owned());
    }
    let entries = c.count()?;
    let _bytes = c.u32()?;
    let mut normalize = Vec::with_capacity(entries);
    for _ in 0..entries {
        let from = c.u32()?;
        let k = c.u8()?;
        let to = (0..k)
            .map(|_| {
                let cp = c.u32()?;
                char::from_u32(cp).ok_or_else(|| Error::Weights(format!("code point {cp:#x}")))
            })
            .collect::<Result<Vec<char>, _>>()?;
        normalize.push((from, to));
    }
    if !normalize.windows(2).all(|w| w[0].0 < w[1].0) {
        return Err(Error::Weights("the normaliser is not sorted".to_owned()));
    }
    Ok(Vocabulary {
        bos,
        eos,
        unk,
        pieces,
        scores,
        normalize,
    })
}
