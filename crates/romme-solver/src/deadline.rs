//! The deadlines of the solver's searches: whether one has passed, and a
//! clock read once per so much work instead of at every step (a reading
//! costs tens of nanoseconds, a step of some searches less).

use std::time::Instant;

/// Whether `deadline`, if there is one, has passed.
pub(crate) fn passed(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// A search's deadline, read when its count of work reaches the next
/// reading, which is then `every` further on. Counted from the last
/// reading, not by multiples of `every`: a search whose count jumps
/// between two steps (candidates and bounds add to it) would pass over
/// the multiples, and once ran for seconds past its deadline.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    deadline: Option<Instant>,
    every: u64,
    next: u64,
}

impl Clock {
    /// A clock for `deadline`, read at the first step and then every
    /// `every` units of work.
    pub(crate) fn new(deadline: Option<Instant>, every: u64) -> Clock {
        Clock {
            deadline,
            every,
            next: 0,
        }
    }

    /// The deadline.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the deadline has passed, `count` units of work done; the
    /// clock is read only when the count has reached the next reading.
    pub(crate) fn passed(&mut self, count: u64) -> bool {
        if self.deadline.is_none() || count < self.next {
            return false;
        }
        self.next = count.saturating_add(self.every);
        passed(self.deadline)
    }

    /// Where the next reading is due (for tests).
    #[cfg(test)]
    pub(crate) fn set_next(&mut self, next: u64) {
        self.next = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock is read at the first step, then only once the count has
    /// gone `every` past the last reading, however far it jumped; without
    /// a deadline never.
    #[test]
    fn the_clock_is_read_every_so_much_work_whatever_the_jumps() {
        let now = Some(Instant::now());
        let mut clock = Clock::new(now, 256);
        assert!(clock.passed(1), "the first step reads it");
        let mut clock = Clock::new(now, 256);
        clock.set_next(256);
        assert!(!clock.passed(255), "before the next reading");
        assert!(clock.passed(3 * 256 + 17), "a jump past a multiple");
        assert!(!clock.passed(3 * 256 + 18), "read just now");
        assert!(clock.passed(4 * 256 + 17), "due again");
        let mut none = Clock::new(None, 1);
        assert!(!none.passed(1_000));
        assert!(passed(now));
        assert!(!passed(None));
    }
}
