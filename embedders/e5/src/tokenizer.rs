//! XLM-RoBERTa's SentencePiece unigram tokenizer, from the tables the model
//! file carries (`file::Vocabulary`): each code point through the
//! normaliser's map (NFKC folds, control characters dropped, whitespace to
//! a space), runs of spaces as one, a space before the text and every space
//! as "▁" (U+2581), then the segmentation into pieces whose scores (log
//! probabilities) sum highest, by Viterbi over the characters. A character
//! no piece covers is `<unk>`, scored 10 below the least likely piece.
//! Ties go to the shorter piece first found, as the model file's reference
//! engine does (tests/reference.rs compares the ids).

use std::collections::HashMap;

use crate::file::Vocabulary;

/// SentencePiece's word-start mark.
const MARK: char = '\u{2581}';

pub struct Tokenizer {
    ids: HashMap<String, u32>,
    scores: Vec<f32>,
    normalize: Vec<(u32, Vec<char>)>,
    longest: usize,
    unknown_score: f32,
    unk: u32,
    pub bos: u32,
    pub eos: u32,
}

impl Tokenizer {
    pub fn new(v: Vocabulary) -> Self {
        let mut ids = HashMap::with_capacity(v.pieces.len());
        for (id, piece) in v.pieces.iter().enumerate() {
            if !piece.is_empty() {
                // The first of two equal pieces is the one found.
                ids.entry(piece.clone()).or_insert(id as u32);
            }
        }
        let longest = v.pieces.iter().map(String::len).max().unwrap_or(1).max(1);
        let least = v.scores.iter().copied().fold(f32::INFINITY, f32::min);
        Tokenizer {
            ids,
            scores: v.scores,
            normalize: v.normalize,
            longest,
            unknown_score: least - 10.0,
            unk: v.unk,
            bos: v.bos,
            eos: v.eos,
        }
    }

    /// The normalised text with its word-start marks.
    fn normalized(&self, text: &str) -> String {
        let mut chars: Vec<char> = Vec::with_capacity(text.len());
        for c in text.chars() {
            match self
                .normalize
                .binary_search_by_key(&(c as u32), |(from, _)| *from)
            {
                Ok(at) => chars.extend_from_slice(&self.normalize[at].1),
                Err(_) => chars.push(c),
            }
        }
        chars.dedup_by(|b, a| *a == ' ' && *b == ' ');
        let mut out = String::with_capacity(text.len() + 3);
        if chars.first() != Some(&' ') {
            out.push(MARK);
        }
        out.extend(chars.iter().map(|&c| if c == ' ' { MARK } else { c }));
        out
    }

    /// The piece ids of `text`, without `<s>` and `</s>`.
    pub fn pieces(&self, text: &str) -> Vec<u32> {
        let text = self.normalized(text);
        let starts: Vec<usize> = text
            .char_indices()
            .map(|(at, _)| at)
            .chain([text.len()])
            .collect();
        let n = starts.len() - 1;
        // best[e]: the highest score of a segmentation of the first e
        // characters, and its last piece (None: <unk>) and where it starts.
        let mut best = vec![(f32::NEG_INFINITY, None, 0usize); n + 1];
        best[0].0 = 0.0;
        for i in 0..n {
            let here = best[i].0;
            if here == f32::NEG_INFINITY {
                continue;
            }
            for e in i + 1..=n {
                if starts[e] - starts[i] > self.longest {
                    break;
                }
                if let Some(&id) = self.ids.get(&text[starts[i]..starts[e]]) {
                    if id != self.unk {
                        let score = here + self.scores[id as usize];
                        if score > best[e].0 {
                            best[e] = (score, Some(id), i);
                        }
                    }
                }
            }
            let score = here + self.unknown_score;
            if score > best[i + 1].0 {
                best[i + 1] = (score, None, i);
            }
        }
        let mut ids = Vec::new();
        let mut at = n;
        while at > 0 {
            let (_, id, from) = best[at];
            ids.push(id.unwrap_or(self.unk));
            at = from;
        }
        ids.reverse();
        ids
    }
}
