//! What loading can fail on. Embedding cannot fail: any text gives a vector.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The weights are not a safetensors file this model can run on.
    Weights(String),
    /// The tokenizer is not a BERT WordPiece `tokenizer.json`.
    Tokenizer(String),
    /// The static embedder's table is not one `distill` wrote.
    Table(String),
}

impl Error {
    /// The code JavaScript sees on the Error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Weights(_) => "embedder/weights",
            Error::Tokenizer(_) => "embedder/tokenizer",
            Error::Table(_) => "embedder/weights",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Weights(m) => write!(f, "MiniLM weights: {m}"),
            Error::Tokenizer(m) => write!(f, "MiniLM tokenizer: {m}"),
            Error::Table(m) => write!(f, "static table: {m}"),
        }
    }
}

impl std::error::Error for Error {}
