//! BERT's WordPiece tokenisation, as Hugging Face's `tokenizers` runs the
//! model's tokenizer.json: special tokens split off the raw text, then
//! BertNormalizer (clean text, CJK characters padded, accents stripped,
//! lowercase), BertPreTokenizer (whitespace and punctuation), WordPiece
//! (longest match first, `##` continuations, a word longer than
//! `max_input_chars_per_word` or not covered by the vocabulary is [UNK]),
//! then [CLS] … [SEP], cut to the model's length.

use crate::Error;
use serde_json::Value;
use std::collections::HashMap;
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

pub struct Tokenizer {
    vocab: HashMap<String, u32>,
    /// Added special tokens ([CLS], [MASK], …), matched in the raw text.
    specials: Vec<(String, u32)>,
    unk: u32,
    cls: u32,
    sep: u32,
    prefix: String,
    max_chars: usize,
    clean_text: bool,
    chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
}

fn bad(message: impl Into<String>) -> Error {
    Error::Tokenizer(message.into())
}

impl Tokenizer {
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let root: Value = serde_json::from_str(json).map_err(|e| bad(format!("not JSON: {e}")))?;
        let model = &root["model"];
        if model["type"] != "WordPiece" {
            return Err(bad("model.type is not WordPiece"));
        }
        let vocab: HashMap<String, u32> = model["vocab"]
            .as_object()
            .ok_or_else(|| bad("no model.vocab"))?
            .iter()
            .map(|(token, id)| Some((token.clone(), u32::try_from(id.as_u64()?).ok()?)))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("model.vocab has an id that is not a number"))?;
        let id = |token: &str| {
            vocab
                .get(token)
                .copied()
                .ok_or_else(|| bad(format!("no {token} in the vocabulary")))
        };
        let unk_token = model["unk_token"].as_str().unwrap_or("[UNK]");
        let (unk, cls, sep) = (id(unk_token)?, id("[CLS]")?, id("[SEP]")?);
        let normalizer = &root["normalizer"];
        if normalizer["type"] != "BertNormalizer" {
            return Err(bad("normalizer.type is not BertNormalizer"));
        }
        if root["pre_tokenizer"]["type"] != "BertPreTokenizer" {
            return Err(bad("pre_tokenizer.type is not BertPreTokenizer"));
        }
        let flag = |key: &str, default: bool| normalizer[key].as_bool().unwrap_or(default);
        let lowercase = flag("lowercase", true);
        let mut specials: Vec<(String, u32)> = root["added_tokens"]
            .as_array()
            .map(|tokens| {
                tokens
                    .iter()
                    .filter(|t| t["special"] == true)
                    .filter_map(|t| {
                        Some((
                            t["content"].as_str()?.to_string(),
                            u32::try_from(t["id"].as_u64()?).ok()?,
                        ))
                    })
                    .filter(|(content, _)| !content.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        // Longest first: at one position the longest special token wins.
        specials.sort_by_key(|t| std::cmp::Reverse(t.0.len()));
        Ok(Tokenizer {
            specials,
            unk,
            cls,
            sep,
            prefix: model["continuing_subword_prefix"]
                .as_str()
                .unwrap_or("##")
                .to_string(),
            max_chars: model["max_input_chars_per_word"].as_u64().unwrap_or(100) as usize,
            clean_text: flag("clean_text", true),
            chinese_chars: flag("handle_chinese_chars", true),
            // `null` follows `lowercase`, as in BERT.
            strip_accents: normalizer["strip_accents"].as_bool().unwrap_or(lowercase),
            lowercase,
            vocab,
        })
    }

    /// One more than the largest id it can give (the model must have as many).
    pub fn vocab_size(&self) -> usize {
        let specials = self.specials.iter().map(|(_, id)| id);
        self.vocab
            .values()
            .chain(specials)
            .map(|&id| id as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// The ids of [CLS] and [SEP].
    pub(crate) fn cls_sep(&self) -> (u32, u32) {
        (self.cls, self.sep)
    }

    /// [CLS], the text's ids cut to `max_len - 2`, [SEP].
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let mut ids = vec![self.cls];
        let room = max_len.saturating_sub(2);
        let mut rest = text;
        'text: while !rest.is_empty() {
            // The next special token, if any: the text before it is words.
            let next = self
                .specials
                .iter()
                .filter_map(|(content, id)| {
                    rest.find(content.as_str())
                        .map(|at| (at, content.len(), *id))
                })
                .min_by_key(|&(at, len, _)| (at, std::cmp::Reverse(len)));
            let (words, special) = match next {
                Some((at, len, id)) => (&rest[..at], Some((at + len, id))),
                None => (rest, None),
            };
            for word in self.pre_tokenize(&self.normalize(words)) {
                for id in self.word_piece(&word) {
                    if ids.len() > room {
                        break 'text;
                    }
                    ids.push(id);
                }
            }
            match special {
                Some((end, id)) => {
                    if ids.len() > room {
                        break;
                    }
                    ids.push(id);
                    rest = &rest[end..];
                }
                None => break,
            }
        }
        ids.push(self.sep);
        ids
    }

    /// BertNormalizer.
    fn normalize(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if self.clean_text && (c == '\0' || c == '\u{fffd}' || is_control(c)) {
                continue;
            }
            if self.clean_text && is_whitespace(c) {
                out.push(' ');
            } else if self.chinese_chars && is_chinese_char(c) {
                out.push(' ');
                out.push(c);
                out.push(' ');
            } else {
                out.push(c);
            }
        }
        if self.strip_accents {
            out = out.nfd().filter(|c| !c.is_mark_nonspacing()).collect();
        }
        if self.lowercase {
            out = out.chars().flat_map(char::to_lowercase).collect();
        }
        out
    }

    /// BertPreTokenizer: split at whitespace (dropped) and around each
    /// punctuation character (kept as a word of its own).
    fn pre_tokenize(&self, text: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        for c in text.chars() {
            if c.is_whitespace() || is_punctuation(c) {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if is_punctuation(c) {
                    words.push(c.to_string());
                }
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        words
    }

    /// WordPiece: the longest vocabulary entry at each position.
    fn word_piece(&self, word: &str) -> Vec<u32> {
        if word.chars().count() > self.max_chars {
            return vec![self.unk];
        }
        let mut ids = Vec::new();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                piece.clear();
                if start > 0 {
                    piece.push_str(&self.prefix);
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(&piece) {
                    found = Some(id);
                    break;
                }
                end = word[..end]
                    .char_indices()
                    .next_back()
                    .map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => ids.push(id),
                None => return vec![self.unk],
            }
            start = end;
        }
        ids
    }
}

fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Control, format, private-use and unassigned characters (Cc, Cf, Co, Cn),
/// except the whitespace controls.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK Unified Ideographs blocks BERT pads with spaces.
fn is_chinese_char(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}
