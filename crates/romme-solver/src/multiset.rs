//! Card lists as multisets: removing cards by value, one copy each.

use romme_core::card::CardKind;

/// Remove one copy of each of `cards` from `pool`; true if every card was
/// found (those found are removed either way).
pub fn remove(pool: &mut Vec<CardKind>, cards: &[CardKind]) -> bool {
    let mut all = true;
    for c in cards {
        match pool.iter().position(|p| p == c) {
            Some(i) => {
                pool.swap_remove(i);
            }
            None => all = false,
        }
    }
    all
}

/// `a` without one copy of each card of `b`.
pub(crate) fn minus(a: &[CardKind], b: &[CardKind]) -> Vec<CardKind> {
    let mut out = a.to_vec();
    remove(&mut out, b);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use romme_core::notation::parse_cards;

    #[test]
    fn removes_one_copy_each_and_reports_missing_cards() {
        let mut pool = parse_cards("7h 7h 8c *").expect("cards");
        assert!(remove(&mut pool, &parse_cards("7h *").expect("cards")));
        pool.sort();
        assert_eq!(
            pool,
            parse_cards("8c 7h")
                .map(|mut v| {
                    v.sort();
                    v
                })
                .expect("cards")
        );
        assert!(!remove(&mut pool, &parse_cards("Kd").expect("cards")));
        assert_eq!(
            minus(
                &parse_cards("7h 7h").expect("c"),
                &parse_cards("7h").expect("c")
            ),
            parse_cards("7h").expect("c")
        );
    }
}
