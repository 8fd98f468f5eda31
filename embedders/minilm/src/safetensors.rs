//! The safetensors format: an 8-byte little-endian header length, a JSON
//! header naming each tensor's dtype, shape and byte range, then the raw
//! little-endian data. Read as f32 from F32 or F16; written as F16 for the
//! package (`to_f16`).

use crate::Error;
use half::f16;
use serde_json::{Map, Value};

/// One file's header over its data.
pub struct File<'a> {
    header: Map<String, Value>,
    data: &'a [u8],
}

fn bad(message: impl Into<String>) -> Error {
    Error::Weights(message.into())
}

impl<'a> File<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let length = bytes
            .get(..8)
            .ok_or_else(|| bad("shorter than a safetensors header"))?;
        let length = u64::from_le_bytes(length.try_into().expect("8 bytes"));
        let end = usize::try_from(length)
            .ok()
            .and_then(|n| n.checked_add(8))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| bad("the header runs past the end of the file"))?;
        let header: Value = serde_json::from_slice(&bytes[8..end])
            .map_err(|e| bad(format!("header is not JSON: {e}")))?;
        let Value::Object(header) = header else {
            return Err(bad("header is not a JSON object"));
        };
        Ok(File {
            header,
            data: &bytes[end..],
        })
    }

    /// The names of the tensors, in header order (without `__metadata__`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.header
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "__metadata__")
    }

    /// A tensor's dtype, shape and bytes.
    pub fn raw(&self, name: &str) -> Result<(&str, Vec<usize>, &'a [u8]), Error> {
        let entry = self
            .header
            .get(name)
            .ok_or_else(|| bad(format!("no tensor {name}")))?;
        let dtype = entry["dtype"]
            .as_str()
            .ok_or_else(|| bad(format!("{name}: no dtype")))?;
        let shape = entry["shape"]
            .as_array()
            .and_then(|dims| {
                dims.iter()
                    .map(|d| d.as_u64().map(|d| d as usize))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| bad(format!("{name}: no shape")))?;
        let range = entry["data_offsets"]
            .as_array()
            .and_then(|r| Some((r.first()?.as_u64()? as usize, r.get(1)?.as_u64()? as usize)))
            .ok_or_else(|| bad(format!("{name}: no data_offsets")))?;
        let bytes = self
            .data
            .get(range.0..range.1)
            .ok_or_else(|| bad(format!("{name}: data_offsets past the end of the file")))?;
        Ok((dtype, shape, bytes))
    }

    /// A tensor as f32 values, checked against the shape the model expects.
    pub fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, Error> {
        let (dtype, bytes) = self.checked(name, shape)?;
        Ok(match dtype {
            "F32" => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            _ => bytes
                .chunks_exact(2)
                .map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
        })
    }

    /// A tensor's dtype (F32 or F16) and bytes, its shape the one expected
    /// and its bytes as many as the shape needs.
    fn checked(&self, name: &str, shape: &[usize]) -> Result<(&str, &'a [u8]), Error> {
        let (dtype, actual, bytes) = self.raw(name)?;
        if actual != shape {
            return Err(bad(format!("{name}: shape {actual:?}, expected {shape:?}")));
        }
        let width: usize = match dtype {
            "F32" => 4,
            "F16" => 2,
            other => return Err(bad(format!("{name}: dtype {other}, expected F32 or F16"))),
        };
        let count = shape.iter().try_fold(width, |n, d| n.checked_mul(*d));
        if count != Some(bytes.len()) {
            return Err(bad(format!(
                "{name}: {} bytes for shape {shape:?} of {dtype}",
                bytes.len()
            )));
        }
        Ok((dtype, bytes))
    }
}

/// A table of rows kept in the file's own precision (the word embeddings:
/// 30,522 rows of which a text reads a few).
pub enum Table {
    F32(Vec<f32>),
    F16(Vec<f16>),
}

impl Table {
    /// Row `index`'s values as f32, `width` of them.
    pub fn row(&self, index: usize, width: usize, out: &mut [f32]) {
        match self {
            Table::F32(values) => out.copy_from_slice(&values[index * width..][..width]),
            Table::F16(values) => {
                for (o, v) in out.iter_mut().zip(&values[index * width..][..width]) {
                    *o = v.to_f32();
                }
            }
        }
    }
}

impl File<'_> {
    /// A tensor as a Table: F16 stays F16 (half the memory), anything else is read as f32.
    pub fn table(&self, name: &str, shape: &[usize]) -> Result<Table, Error> {
        match self.checked(name, shape)? {
            ("F16", bytes) => Ok(Table::F16(
                bytes
                    .chunks_exact(2)
                    .map(|b| f16::from_le_bytes([b[0], b[1]]))
                    .collect(),
            )),
            _ => self.f32(name, shape).map(Table::F32),
        }
    }
}

/// The same tensors (those named by `keep`) as F16, in a new safetensors
/// file: what memdoc's package ships (half the bytes).
pub fn to_f16(bytes: &[u8], keep: impl Fn(&str) -> bool) -> Result<Vec<u8>, Error> {
    let file = File::parse(bytes)?;
    let mut tensors = Vec::new();
    for name in file.names().filter(|n| keep(n)) {
        let (_, shape, _) = file.raw(name)?;
        let values = file.f32(name, &shape)?;
        let data = values
            .iter()
            .flat_map(|v| f16::from_f32(*v).to_le_bytes())
            .collect();
        tensors.push((name.to_string(), "F16", shape, data));
    }
    Ok(write(tensors))
}

/// A safetensors file of the tensors given: name, dtype, shape, bytes.
pub fn write(tensors: Vec<(String, &str, Vec<usize>, Vec<u8>)>) -> Vec<u8> {
    let mut header = Map::new();
    let mut data = Vec::new();
    for (name, dtype, shape, bytes) in tensors {
        let start = data.len();
        data.extend_from_slice(&bytes);
        let entry = serde_json::json!({ "dtype": dtype, "shape": shape, "data_offsets": [start, data.len()] });
        header.insert(name, entry);
    }
    let mut json = serde_json::to_vec(&Value::Object(header)).expect("a JSON object serialises");
    // The data starts 8-byte aligned, as the format recommends.
    while !(json.len() + 8).is_multiple_of(8) {
        json.push(b' ');
    }
    let mut out = Vec::with_capacity(8 + json.len() + data.len());
    out.extend_from_slice(&(json.len() as u64).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&data);
    out
}
