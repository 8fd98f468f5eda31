//! A name from the engine's fixed vocabulary (a code, a severity, a kind, a
//! status) as a result carries it.

use serde::{Serialize, Serializer};

/// A fixed name: serialized as a unit variant, which is a plain string in
/// JSON and, through the boundary's serializer (`crate::wire::packed`), a
/// JavaScript string sent once per name and then reused, where a `&str` is
/// sliced again on every line of every result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name(pub &'static str);

impl Name {
    /// The name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant("Name", 0, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn serializes_as_the_plain_string() {
        assert_eq!(serde_json::to_string(&Name("entry")).unwrap(), "\"entry\"");
        assert_eq!(
            serde_json::to_string(&Some(Name("raw"))).unwrap(),
            "\"raw\""
        );
    }
}
