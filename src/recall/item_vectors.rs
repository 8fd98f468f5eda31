//! A prepared memory's item vectors held with it: checked once when they
//! are given, then recalled with query after query, each recall checking
//! only its query's vector (the hub recalls a team's memories with vectors
//! it read once, not copied and checked again for every query).

use crate::error::Error;

use super::{PreparedMemory, Recall, RecallOptions, RecallVectors};

/// Every item's vector of one [`PreparedMemory`], in the order of
/// [`PreparedMemory::items`], checked ([`ItemVectors::new`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemVectors {
    values: Vec<f32>,
    dimensions: usize,
    items: usize,
}

impl ItemVectors {
    /// `values`, every item's vector of `memory` (`dimensions` numbers
    /// each), one after another.
    ///
    /// # Errors
    /// [`Error::InvalidVectors`] as [`RecallVectors::check`]: no
    /// dimensions, another count than the memory's items times
    /// `dimensions`, or a value that is not finite.
    ///
    /// ```
    /// use memdoc::{hybrid_recall, ItemVectors, PreparedMemory, RecallOptions, RecallVectors};
    /// let memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
    /// let prepared = PreparedMemory::new(memory);
    /// let items = ItemVectors::new(&prepared, vec![0.9, 0.2, 0.0, 1.0], 2).unwrap();
    /// let (options, query) = (RecallOptions::default(), [1.0, 0.1]);
    /// let found = prepared.recall_with_item_vectors("which database?", &options, "example", &query, &items);
    /// let vectors = RecallVectors { embedder: "example", query: &query, items: &[0.9, 0.2, 0.0, 1.0] };
    /// assert_eq!(found, hybrid_recall(memory, "which database?", &options, &vectors));
    /// ```
    pub fn new(
        memory: &PreparedMemory,
        values: Vec<f32>,
        dimensions: usize,
    ) -> Result<Self, Error> {
        let items = memory.items().len();
        // Checked as a recall's, the first item's vector standing for the
        // query's (any vector, for a memory without items).
        let query = values.get(..dimensions).unwrap_or(&[0.0]);
        RecallVectors {
            embedder: "",
            query,
            items: &values,
        }
        .check(items)?;
        Ok(Self {
            values,
            dimensions,
            items,
        })
    }

    /// The numbers of each vector.
    #[must_use]
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }
}

impl PreparedMemory {
    /// [`PreparedMemory::recall`] by words and meaning with `items`, this
    /// memory's item vectors, and the query's vector: equal to it given the
    /// same vectors, without checking the items' again.
    ///
    /// # Errors
    /// The errors of [`RecallOptions::check`]; [`Error::InvalidVectors`]
    /// when `items` are another memory's (another number of items), or
    /// the query's vector is not `items.dimensions()` finite numbers.
    pub fn recall_with_item_vectors(
        &self,
        query: &str,
        options: &RecallOptions,
        embedder: &str,
        query_vector: &[f32],
        items: &ItemVectors,
    ) -> Result<Recall, Error> {
        options.check()?;
        let vectors = RecallVectors {
            embedder,
            query: query_vector,
            items: &items.values,
        };
        // The query's vector alone: the items' were checked when held.
        RecallVectors {
            items: &[],
            ..vectors
        }
        .check(0)?;
        if query_vector.len() != items.dimensions || items.items != self.items().len() {
            return Err(Error::InvalidVectors(
                "the query's vector does not fit the items'".to_owned(),
            ));
        }
        Ok(self.recall_checked(query, options, Some(&vectors)))
    }
}
