//! # romme-solver
//!
//! Exact answers to the questions every bot decision, UI hint and "can I go
//! out?" check asks of a hand, under any romme ruleset. This version answers
//! the first: the best partition of a hand into melds and deadwood
//! ([`partition`]).

pub mod partition;

pub use partition::{Partition, PartitionSolver, best_partition};
