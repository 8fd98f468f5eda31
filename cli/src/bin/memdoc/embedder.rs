//! `memdoc recall`'s embedders (docs/CLI.md, "Recall by meaning"): where
//! their files are looked for, which one a recall uses, and the vectors it
//! gives the engine. The static table by default, multilingual-e5-small
//! for a memory or a question mostly not in Latin letters (`language`),
//! `MiniLM` when asked; the engine (`run::recall`) ranks and prints.

use std::path::{Path, PathBuf};

use memdoc::{prepare_recall, RecallOptions, RecallVectors};
use memdoc_cli::{exit, messages, run::Meaning, Outcome};
use memdoc_minilm::{Arithmetic, MiniLm, StaticModel};

use crate::language::mostly_not_latin;

/// An embedder `--embedder` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Static,
    MiniLm,
    E5,
}

impl Kind {
    /// `--embedder`'s value (`none`: by words only).
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "static" => Some(Kind::Static),
            "minilm" => Some(Kind::MiniLm),
            "e5" => Some(Kind::E5),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Static => "static",
            Kind::MiniLm => "minilm",
            Kind::E5 => "e5",
        }
    }

    /// Its files, relative to a models folder in setup's layout.
    fn files(self) -> &'static [&'static str] {
        const TOKENIZER: &str = "all-MiniLM-L6-v2/tokenizer.json";
        match self {
            Kind::Static => &["static/all-MiniLM-L6-v2-static-256.i8", TOKENIZER],
            Kind::MiniLm => &["all-MiniLM-L6-v2/model.safetensors", TOKENIZER],
            Kind::E5 => &["multilingual-e5-small/e5-small-q4.bin"],
        }
    }
}

/// The models folder: `MEMDOC_MODELS` when it is set (then only it), else
/// setup's `target/models` beside the binary (target/{release,debug}/).
fn models() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MEMDOC_MODELS").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join("models"))
}

/// Whether every file of `kind` is in `dir`.
fn found(dir: &Path, kind: Kind) -> bool {
    kind.files().iter().all(|file| dir.join(file).is_file())
}

/// The recall of `question` from `text` with `--embedder` (`None`: the
/// static table, or e5 for a text mostly not in Latin letters when its file
/// is there), as `run::recall` prints it.
pub fn recall(
    text: &str,
    question: &str,
    embedder: Option<&str>,
    recall: impl FnOnce(Meaning<'_>) -> Outcome,
) -> Outcome {
    if embedder == Some("none") {
        return recall(Meaning::WordsAsked);
    }
    let asked = embedder.and_then(Kind::parse);
    let Some(dir) = models() else {
        return recall(Meaning::NoFiles(asked.map_or("any", Kind::name)));
    };
    let kind = match asked {
        Some(kind) => kind,
        None if (mostly_not_latin(text) || mostly_not_latin(question)) && found(&dir, Kind::E5) => {
            Kind::E5
        }
        None => Kind::Static,
    };
    if !found(&dir, kind) {
        return recall(Meaning::NoFiles(asked.map_or("any", Kind::name)));
    }
    // The items as the engine lists them; any valid options list the same.
    let Ok(prepared) = prepare_recall(text, question, &RecallOptions::default()) else {
        return recall(Meaning::WordsAsked);
    };
    let items: Vec<&str> = prepared.items().collect();
    match vectors(&dir, kind, question, &items) {
        Ok((id, query, items)) => recall(Meaning::Vectors(RecallVectors {
            embedder: id,
            query: &query,
            items: &items.concat(),
        })),
        Err(failed) => failed,
    }
}

type Vectors = (&'static str, Vec<f32>, Vec<Vec<f32>>);

/// The embedder's id, the question's vector and each item's.
fn vectors(dir: &Path, kind: Kind, question: &str, items: &[&str]) -> Result<Vectors, Outcome> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let files: Vec<Vec<u8>> = kind
        .files()
        .iter()
        .map(|file| read(&dir.join(file)))
        .collect::<Result<_, _>>()?;
    let tokenizer = || String::from_utf8_lossy(&files[1]).into_owned();
    let failed = |error: &dyn std::fmt::Display| {
        let file = dir.join(kind.files()[0]);
        Outcome::failing(&format!("{}: {error}", file.display()), exit::USAGE)
    };
    match kind {
        Kind::Static => {
            let model = StaticModel::load(&files[0], &tokenizer()).map_err(|e| failed(&e))?;
            let items = items.iter().map(|item| model.embed(item)).collect();
            Ok((
                memdoc_minilm::static_table::ID,
                model.embed(question),
                items,
            ))
        }
        Kind::MiniLm => {
            let model = MiniLm::load(&files[0], &tokenizer()).map_err(|e| failed(&e))?;
            let items = model.embed_parallel(items, Arithmetic::Fast, threads);
            Ok((memdoc_minilm::ID, model.embed(question), items))
        }
        Kind::E5 => {
            let bytes = files.into_iter().next().unwrap_or_default();
            let model = memdoc_e5::E5::load(bytes).map_err(|e| failed(&e))?;
            let items = model.embed_parallel(items, memdoc_e5::Role::Passage, threads);
            Ok((
                memdoc_e5::ID,
                model.embed(question, memdoc_e5::Role::Query),
                items,
            ))
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Outcome> {
    std::fs::read(path)
        .map_err(|e| messages::read_failed(&path.display().to_string(), crate::io_kind(&e)))
}
