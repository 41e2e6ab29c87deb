//! Player ratings: Elo, counted pairwise against every other seat of a
//! finished match (a better place is a win, an equal place a draw). Bots
//! have fixed ratings by level, so games against bots move a rating too.

/// K factor for one whole match (shared among the pairwise comparisons).
const K: f64 = 32.0;

/// A bot level's fixed rating.
pub fn bot_rating(level: &str) -> f64 {
    if level.starts_with("expert") {
        1700.0
    } else if level.starts_with("heuristic") {
        1500.0
    } else {
        1000.0
    }
}

/// The new rating of a player with `rating` who finished at `place` in a
/// match whose seats had `(rating, place)` (the player included).
pub fn update(rating: f64, place: usize, seats: &[(f64, usize)]) -> f64 {
    let mut others = seats.to_vec();
    // Take the player out once.
    if let Some(i) = others
        .iter()
        .position(|&(r, p)| p == place && (r - rating).abs() < 1e-9)
    {
        others.remove(i);
    }
    if others.is_empty() {
        return rating;
    }
    let k = K / others.len() as f64;
    let delta: f64 = others
        .iter()
        .map(|&(r, p)| {
            let expected = 1.0 / (1.0 + 10f64.powf((r - rating) / 400.0));
            let actual = match place.cmp(&p) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            k * (actual - expected)
        })
        .sum();
    rating + delta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_raises_losing_lowers() {
        let seats = [(1500.0, 1), (1500.0, 2)];
        let w = update(1500.0, 1, &seats);
        let l = update(1500.0, 2, &seats);
        assert!((w - 1516.0).abs() < 1e-9, "{w}");
        assert!((l - 1484.0).abs() < 1e-9, "{l}");
        // Beating a stronger bot gains more.
        let strong = update(1500.0, 1, &[(1500.0, 1), (bot_rating("expert"), 2)]);
        assert!(strong > w);
        assert_eq!(update(1500.0, 1, &[(1500.0, 1)]), 1500.0);
    }
}
