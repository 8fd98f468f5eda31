//! What loading can fail on. Embedding cannot fail: any text gives a vector.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The bytes are not a model file in the layout `file` reads.
    Weights(String),
}

impl Error {
    /// The code JavaScript sees on the Error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Weights(_) => "embedder/weights",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Weights(m) => write!(f, "multilingual-e5-small weights: {m}"),
        }
    }
}

impl std::error::Error for Error {}
