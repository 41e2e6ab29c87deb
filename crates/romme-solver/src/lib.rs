//! # romme-solver
//!
//! Exact answers to the questions every bot decision, UI hint and "can I go
//! out?" check asks of a hand, under any romme ruleset:
//!
//! * [`partition`]: the best partition of a hand into melds and deadwood;
//! * [`layoff`]: which hand cards can be laid off on which table meld,
//!   joker exchanges included;
//! * [`turn`]: the best opening, going out this turn, Hand-Rommé;
//! * [`mod@rearrange`]: rebuilding the table to place the most hand cards,
//!   freely (`001`) or by Räuber robbing (`002`, `003`, module `rob`).

mod deadline;
pub mod layoff;
pub mod multiset;
pub mod partition;
pub mod rearrange;
mod rob;
pub mod turn;

pub use layoff::{LayOff, lay_offs};
pub use partition::{Goal, Partition, PartitionSolver, SolverTables, best_partition};
pub use rearrange::{Limits, RearrangeError, Rearrangement, rearrange, rearrange_with};
pub use turn::{
    GoOut, OpeningPlan, best_opening, best_opening_with, go_out, go_out_checked, go_out_with,
    hand_romme,
};
