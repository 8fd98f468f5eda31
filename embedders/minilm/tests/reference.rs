//! The Rust model against vectors computed independently (numpy float64 and
//! Hugging Face's `tokenizers`, scripts/minilm-reference.py, committed in
//! reference.json), with the real weights `bash scripts/setup` fetched.

use memdoc_minilm::safetensors::{self, File};
use memdoc_minilm::{pack_f16, Arithmetic, Error, MiniLm, DIMENSIONS};
use serde_json::Value;
use std::sync::OnceLock;

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../target/models/all-MiniLM-L6-v2"
);

fn read(file: &str) -> Vec<u8> {
    let path = format!("{MODEL}/{file}");
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (bash scripts/setup fetches the model)"))
}

fn tokenizer() -> String {
    String::from_utf8(read("tokenizer.json")).expect("tokenizer.json is UTF-8")
}

fn f32_model() -> &'static MiniLm {
    static MODEL: OnceLock<MiniLm> = OnceLock::new();
    MODEL.get_or_init(|| {
        MiniLm::load(&read("model.safetensors"), &tokenizer()).expect("the f32 model loads")
    })
}

fn f16_model() -> &'static MiniLm {
    static MODEL: OnceLock<MiniLm> = OnceLock::new();
    MODEL.get_or_init(|| {
        let packed = pack_f16(&read("model.safetensors")).expect("packs");
        MiniLm::load(&packed, &tokenizer()).expect("the f16 model loads")
    })
}

struct Case {
    text: String,
    tokens: Vec<u32>,
    vector: Vec<f64>,
}

fn cases() -> Vec<Case> {
    let json: Value = serde_json::from_str(include_str!("reference.json")).expect("reference.json");
    json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            text: c["text"].as_str().expect("text").to_string(),
            tokens: c["tokens"]
                .as_array()
                .expect("tokens")
                .iter()
                .map(|t| t.as_u64().expect("id") as u32)
                .collect(),
            vector: c["vector"]
                .as_array()
                .expect("vector")
                .iter()
                .map(|v| v.as_f64().expect("value"))
                .collect(),
        })
        .collect()
}

fn cosine(a: &[f32], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * y).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|y| y.powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

fn max_diff(a: &[f32], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (*x as f64 - y).abs())
        .fold(0.0, f64::max)
}

/// The worst cosine and the largest difference over every case.
fn compare(model: &MiniLm, label: &str) -> (f64, f64) {
    let (mut worst, mut largest) = (1.0f64, 0.0f64);
    for case in cases() {
        let vector = model.embed(&case.text);
        assert_eq!(vector.len(), DIMENSIONS);
        let (c, d) = (
            cosine(&vector, &case.vector),
            max_diff(&vector, &case.vector),
        );
        worst = worst.min(c);
        largest = largest.max(d);
        eprintln!(
            "{label}: cosine {c:.7} max |diff| {d:.2e}  {:?}",
            case.text.chars().take(40).collect::<String>()
        );
    }
    eprintln!("{label}: worst cosine {worst:.7}, largest |diff| {largest:.2e}");
    (worst, largest)
}

#[test]
fn tokens_are_those_of_hugging_face_tokenizers() {
    let cases = cases();
    assert!(cases.len() >= 20);
    assert!(
        cases.iter().any(|c| c.tokens.len() == 256),
        "a text cut at 256 tokens"
    );
    for case in cases {
        assert_eq!(
            f32_model().tokens(&case.text),
            case.tokens,
            "{:?}",
            case.text
        );
    }
}

#[test]
fn f32_vectors_are_the_reference_within_float_error() {
    let (worst, largest) = compare(f32_model(), "f32");
    assert!(worst >= 0.9999, "worst cosine {worst}");
    assert!(largest <= 1e-4, "largest difference {largest}");
}

/// Texts packed into one forward pass give each text's own vector, to the
/// bit, in either arithmetic; the fast one (fused multiply-add, wide
/// registers, erf and exp as polynomials) stays within float error of the
/// reproducible one.
#[test]
fn packed_texts_give_each_text_s_own_vector_in_either_arithmetic() {
    let model = f32_model();
    let texts: Vec<String> = cases().into_iter().map(|c| c.text).collect();
    let mut both = Vec::new();
    for arithmetic in [Arithmetic::Reproducible, Arithmetic::Fast] {
        let packed = model.embed_batch(&texts, arithmetic);
        assert_eq!(packed.len(), texts.len());
        for (text, vector) in texts.iter().zip(&packed) {
            let alone = model.embed_batch(&[text], arithmetic);
            assert_eq!(vector, &alone[0], "{arithmetic:?}: {text:?}");
        }
        both.push(packed);
    }
    let largest = both[0]
        .iter()
        .flatten()
        .zip(both[1].iter().flatten())
        .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    eprintln!("fast against reproducible: largest |diff| {largest:.2e}");
    assert!(largest <= 1e-5, "largest difference {largest}");
    assert_eq!(
        both[1][0],
        model.embed(&texts[0]),
        "embed is the fast arithmetic"
    );
}

#[test]
fn packaged_f16_vectors_stay_within_0_99_cosine() {
    let (worst, _) = compare(f16_model(), "f16");
    assert!(worst >= 0.99, "worst cosine {worst}");
}

/// The weights rounded as int8 would keep them (each matrix row scaled to
/// ±127 by its largest value), back in f32: what an int8 file would give.
fn int8_model() -> MiniLm {
    let full = read("model.safetensors");
    let file = File::parse(&full).expect("parses");
    let mut tensors = Vec::new();
    for name in file.names().filter(|n| !n.ends_with("position_ids")) {
        let (_, shape, _) = file.raw(name).expect("a tensor");
        let mut values = file.f32(name, &shape).expect("f32");
        if shape.len() == 2 {
            for row in values.chunks_exact_mut(shape[1]) {
                let scale = row.iter().fold(0.0f32, |m, v| m.max(v.abs())) / 127.0;
                if scale > 0.0 {
                    row.iter_mut()
                        .for_each(|v| *v = (*v / scale).round() * scale);
                }
            }
        }
        let data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        tensors.push((name.to_string(), "F32", shape, data));
    }
    MiniLm::load(&safetensors::write(tensors), &tokenizer()).expect("the int8-rounded model loads")
}

/// Measured, not shipped: int8 would be a quarter of f32's bytes.
#[test]
fn int8_rounded_vectors_are_measured() {
    let (worst, _) = compare(&int8_model(), "int8 (per row)");
    assert!(worst >= 0.99, "worst cosine {worst}");
}

#[test]
fn packed_weights_are_half_the_bytes() {
    let full = read("model.safetensors");
    let packed = pack_f16(&full).expect("packs");
    eprintln!("f32 {} bytes, f16 {} bytes", full.len(), packed.len());
    assert!(packed.len() < full.len() / 2);
    assert!(
        packed.len() > full.len() / 2 - 1_000_000,
        "only the pooler and position ids are dropped"
    );
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn questions_are_closest_to_what_answers_them() {
    for model in [f32_model(), f16_model()] {
        let database = model.embed("which relational database do we run?");
        let sync = model.embed("when is the recurring team sync?");
        let postgres = model.embed("Services use PostgreSQL 16");
        let releases = model.embed("Production releases only ship on Tuesdays and Thursdays");
        let standup = model.embed("Our standup is at 10am daily in the #team channel.");
        assert!(dot(&database, &postgres) > dot(&database, &releases) + 0.1);
        assert!(dot(&database, &postgres) > dot(&database, &standup) + 0.1);
        assert!(dot(&sync, &standup) > dot(&sync, &postgres) + 0.1);
        assert!(dot(&sync, &standup) > dot(&sync, &releases));
        let norm = dot(&database, &database).sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "unit length: {norm}");
    }
}

#[test]
fn any_text_gives_a_vector() {
    let model = f32_model();
    let long = "word ".repeat(5_000);
    for text in [
        "",
        " ",
        "\u{0}\u{fffd}",
        "[SEP][SEP][CLS]",
        "##",
        long.as_str(),
        "🚀🚀🚀",
        "\u{10FFFF}",
    ] {
        let v = model.embed(text);
        assert_eq!(v.len(), DIMENSIONS);
        assert!(v.iter().all(|x| x.is_finite()), "{text:?}");
    }
    assert_eq!(model.tokens(&long).len(), 256);
}

#[test]
fn bad_files_are_coded_errors() {
    let tokenizer = tokenizer();
    for weights in [
        &b""[..],
        b"\x10\0\0\0\0\0\0\0{}",
        b"\xff\xff\xff\xff\xff\xff\xff\xff{}",
        b"\x02\0\0\0\0\0\0\0[]",
    ] {
        let Err(error) = MiniLm::load(weights, &tokenizer) else {
            panic!("loaded {weights:?}")
        };
        assert_eq!(error.code(), "embedder/weights", "{error}");
    }
    let weights = read("model.safetensors");
    for json in ["", "{}", r#"{"model":{"type":"BPE"}}"#] {
        let Err(error) = MiniLm::load(&weights, json) else {
            panic!("loaded {json:?}")
        };
        assert!(matches!(error, Error::Tokenizer(_)), "{error}");
        assert_eq!(error.code(), "embedder/tokenizer");
    }
    // A special token whose id the model has no embedding for.
    let beyond = tokenizer.replace(r#""id":103,"#, r#""id":30522,"#);
    assert_ne!(beyond, tokenizer);
    assert_eq!(
        MiniLm::load(&weights, &beyond).err().map(|e| e.code()),
        Some("embedder/weights")
    );
    let truncated = &weights[..weights.len() / 2];
    assert_eq!(
        MiniLm::load(truncated, &tokenizer).err().map(|e| e.code()),
        Some("embedder/weights")
    );
}
