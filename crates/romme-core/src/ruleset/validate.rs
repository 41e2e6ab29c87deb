//! Semantic validation of a [`Ruleset`]: ranges and contradictory
//! combinations. Every [`Violation`] names the key it is about.

use std::fmt;

use super::{
    DeckKind, DiscardTake, FinalDiscard, HandSize, JokerExchange, LayOff, Limit, MatchEnd,
    Rearrange, Ruleset, ScoringScheme, SetSuits, Tier, WildShare,
};

/// One problem with a ruleset: the dotted key and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Dotted key, e.g. `melds.runs.wrap_around`.
    pub key: String,
    /// What is wrong, in plain words.
    pub reason: String,
    /// Other keys of a contradiction; the loader points at whichever of
    /// them the user's own file sets.
    pub related: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.reason)
    }
}

struct Checker(Vec<Violation>);

impl Checker {
    fn fail(&mut self, key: &str, reason: impl Into<String>) {
        self.clash(key, &[], reason);
    }

    /// A contradiction between `key` and `related` keys.
    fn clash(&mut self, key: &str, related: &[&str], reason: impl Into<String>) {
        self.0.push(Violation {
            key: key.to_string(),
            reason: reason.into(),
            related: related.iter().map(|k| k.to_string()).collect(),
        });
    }

    fn range(&mut self, key: &str, value: u32, lo: u32, hi: u32) {
        if value < lo || value > hi {
            self.fail(key, format!("{value} is out of range {lo}..={hi}"));
        }
    }

    fn tiers(&mut self, key: &str, tiers: &[Tier]) {
        for pair in tiers.windows(2) {
            if pair[0].max_points >= pair[1].max_points {
                self.fail(
                    key,
                    format!(
                        "tiers must be in ascending order of max_points ({} is not below {})",
                        pair[0].max_points, pair[1].max_points
                    ),
                );
            }
        }
    }
}

pub(super) fn validate(r: &Ruleset) -> Result<(), Vec<Violation>> {
    let mut c = Checker(Vec::new());
    if r.name.trim().is_empty() {
        c.fail("name", "must not be empty");
    }

    // Deck (§1).
    match r.deck.kind {
        DeckKind::French if ![2, 4, 6].contains(&r.deck.jokers) => c.fail(
            "deck.jokers",
            format!(
                "the French double deck is played with 2, 4 or 6 jokers, not {}",
                r.deck.jokers
            ),
        ),
        DeckKind::FiveCrowns if r.deck.jokers != 6 => c.fail(
            "deck.jokers",
            format!("the Five Crowns deck has 6 jokers, not {}", r.deck.jokers),
        ),
        _ => {}
    }

    // Players and deal (§4).
    c.range("players.min", r.players.min.into(), 1, 8);
    c.range("players.max", r.players.max.into(), 1, 8);
    if r.players.min > r.players.max {
        c.fail(
            "players.min",
            format!("min {} is above max {}", r.players.min, r.players.max),
        );
    }
    let active = match r.players.active_per_game {
        Limit::None => r.players.max,
        Limit::At(n) => {
            if n == 0 || n > u16::from(r.players.max) {
                c.fail(
                    "players.active_per_game",
                    format!("{n} must be between 1 and players.max ({})", r.players.max),
                );
            }
            u8::try_from(n).unwrap_or(u8::MAX).min(r.players.max)
        }
    };
    let max_hand = match r.deal.hand_size {
        HandSize::Fixed(n) => {
            c.range("deal.hand_size", n.into(), 1, 20);
            n
        }
        HandSize::RoundPlusTwo => {
            if r.match_rules.end != MatchEnd::Rounds {
                c.fail(
                    "deal.hand_size",
                    "\"round+2\" needs match.end = \"rounds\" (the hand grows every round)",
                );
            }
            r.deck.kind.ranks().len() as u8 + 2
        }
    };
    if r.match_rules.end == MatchEnd::Rounds && r.deal.hand_size != HandSize::RoundPlusTwo {
        c.fail(
            "match.end",
            "\"rounds\" needs deal.hand_size = \"round+2\" (one round per hand size)",
        );
    }
    if r.deal.solo_patience {
        let total: usize = (3..=13).sum();
        if r.players.min != 1 || r.players.max != 1 {
            c.fail(
                "deal.solo_patience",
                "the solo patience has exactly one player (players.min = players.max = 1)",
            );
        }
        if r.deck.kind != DeckKind::FiveCrowns || !r.melds.wilds.round_wild {
            c.fail(
                "deal.solo_patience",
                "the solo patience is played with the Five Crowns deck and round wilds",
            );
        }
        if r.deck.len() <= total {
            c.fail(
                "deal.solo_patience",
                "the deck is too small for eleven hands of 3..13 cards",
            );
        }
    } else {
        let extra = usize::from(r.deal.first_player_extra_card);
        let needed = usize::from(active) * usize::from(max_hand) + extra + 1;
        if needed > r.deck.len() {
            c.fail(
                "deal.hand_size",
                format!(
                    "{active} players x {max_hand} cards need {needed} cards with the stock, the deck has {}",
                    r.deck.len()
                ),
            );
        }
    }
    if (r.scoring.scheme == ScoringScheme::Patience) != r.deal.solo_patience {
        c.fail(
            "scoring.scheme",
            "\"patience\" scoring goes with deal.solo_patience = true, and only with it",
        );
    }

    // Melds (§2).
    let m = &r.melds;
    c.range("melds.min_len", m.min_len.into(), 3, 5);
    let suits = r.deck.kind.suits().len() as u16;
    if let Limit::At(n) = m.sets.max_len {
        if n < u16::from(m.min_len) {
            c.fail(
                "melds.sets.max_len",
                format!("{n} is below melds.min_len ({})", m.min_len),
            );
        }
        if m.sets.suits == SetSuits::Distinct && n > suits {
            c.fail(
                "melds.sets.max_len",
                format!(
                    "a set of distinct suits has at most {suits} cards with this deck, not {n}"
                ),
            );
        }
    }
    if r.deck.kind == DeckKind::FiveCrowns {
        for (key, on) in [
            ("melds.runs.ace_low", m.runs.ace_low),
            ("melds.runs.ace_high", m.runs.ace_high),
            ("melds.runs.wrap_around", m.runs.wrap_around),
        ] {
            if on {
                c.fail(key, "the Five Crowns deck has no aces: set it to false");
            }
        }
    } else if m.runs.wrap_around && !(m.runs.ace_low && m.runs.ace_high) {
        c.fail(
            "melds.runs.wrap_around",
            "K-A-2 needs the ace both high and low (melds.runs.ace_low and ace_high = true)",
        );
    }
    if m.wilds.all_wild && m.wilds.share != WildShare::Any {
        c.fail(
            "melds.wilds.all_wild",
            "melds of wild cards only contradict melds.wilds.share (wilds must be fewer than or as many as naturals)",
        );
    }
    if m.wilds.all_wild
        && m.wilds
            .max_per_meld
            .get()
            .is_some_and(|n| n < u16::from(m.min_len))
    {
        c.fail(
            "melds.wilds.all_wild",
            "melds of wild cards only need melds.wilds.max_per_meld >= melds.min_len",
        );
    }
    if m.wilds.round_wild
        && (r.deck.kind != DeckKind::FiveCrowns || r.deal.hand_size != HandSize::RoundPlusTwo)
    {
        c.fail(
            "melds.wilds.round_wild",
            "round wilds need the Five Crowns deck and deal.hand_size = \"round+2\"",
        );
    }

    // Values (§3).
    c.range("values.face_cards", r.values.face_cards.into(), 1, 20);
    c.range("values.ace_high", r.values.ace_high.into(), 1, 20);
    c.range("values.ace_low", r.values.ace_low.into(), 1, 20);
    for (key, v) in [
        ("penalty.jack", r.penalty.jack),
        ("penalty.queen", r.penalty.queen),
        ("penalty.king", r.penalty.king),
        ("penalty.ace", r.penalty.ace),
        ("penalty.joker", r.penalty.joker),
        ("penalty.round_wild", r.penalty.round_wild),
    ] {
        c.range(key, v.into(), 0, 100);
    }

    // Opening and turn (§5).
    c.range("opening.threshold", r.opening.threshold.into(), 0, 200);
    let t = &r.turn;
    if !t.discard_pile {
        if t.discard_take != DiscardTake::Free {
            c.fail(
                "turn.discard_take",
                "there is no discard pile (turn.discard_pile = false)",
            );
        }
        if r.going_out.final_discard != FinalDiscard::Never {
            c.fail(
                "going_out.final_discard",
                "without a discard pile the last card cannot be discarded: use \"never\"",
            );
        }
        if r.buying.enabled {
            c.fail("buying.enabled", "there is no discard pile to buy from");
        }
        if r.knocking.enabled {
            c.fail("knocking.enabled", "there is no discard pile to knock for");
        }
        if !r.jokers.discard_allowed {
            c.fail(
                "jokers.discard_allowed",
                "there is no discard pile: set it to true",
            );
        }
    }
    if t.rearrange != Rearrange::None && t.lay_off == LayOff::Never {
        c.fail(
            "turn.rearrange",
            "changing the table needs laying off (turn.lay_off = \"after-opening\")",
        );
    }
    if r.opening.lay_offs_count && t.lay_off == LayOff::Never {
        c.fail(
            "opening.lay_offs_count",
            "laying off is not played (turn.lay_off = \"never\")",
        );
    }

    // Jokers.
    let j = &r.jokers;
    if j.exchange != JokerExchange::Never
        && j.exchange_needs_full_set
        && m.sets.suits == SetSuits::Any
        && m.sets.max_len == Limit::None
    {
        c.fail(
            "jokers.exchange_needs_full_set",
            "a mixed set without a maximum length is never full",
        );
    }

    // Buying and knocking.
    c.range(
        "buying.extra_stock_cards",
        r.buying.extra_stock_cards.into(),
        0,
        3,
    );
    c.range(
        "knocking.extra_stock_cards",
        r.knocking.extra_stock_cards.into(),
        0,
        3,
    );
    if r.buying.enabled && r.knocking.enabled {
        c.clash(
            "knocking.enabled",
            &["buying.enabled"],
            "buying and knocking both claim the discard out of turn: enable only one",
        );
    }
    c.range("stock.piles", r.stock.piles.into(), 1, 4);

    // Going out (§6).
    c.range(
        "going_out.rest_allowed",
        r.going_out.rest_allowed.into(),
        0,
        9,
    );
    let h = &r.hand_romme;
    if h.enabled && h.threshold_with_lay_offs && !h.lay_offs_allowed {
        c.fail(
            "hand_romme.threshold_with_lay_offs",
            "lay-offs are not allowed in a Hand-Rommé (hand_romme.lay_offs_allowed = false)",
        );
    }
    let con = &r.concealed;
    if con.enabled {
        if t.lay_off != LayOff::Never {
            c.fail(
                "turn.lay_off",
                "in concealed play nothing is on the table to lay off on: use \"never\"",
            );
        }
        if t.rearrange != Rearrange::None {
            c.fail(
                "turn.rearrange",
                "in concealed play the table cannot be changed: use \"none\"",
            );
        }
        if j.exchange != JokerExchange::Never {
            c.fail(
                "jokers.exchange",
                "in concealed play no joker lies on the table: use \"never\"",
            );
        }
        if r.opening.threshold != 0 {
            c.fail("opening.threshold", "concealed play has no opening: use 0");
        }
        if h.enabled {
            c.fail(
                "hand_romme.enabled",
                "in concealed play every lay-down is all at once: use false",
            );
        }
        if con.lay_down_below == 0 {
            c.fail(
                "concealed.lay_down_below",
                "must be at least 1 (1 = every card in a meld)",
            );
        }
        if let Limit::At(k) = con.knock_below {
            if k <= con.lay_down_below {
                c.fail(
                    "concealed.knock_below",
                    format!(
                        "{k} must be above concealed.lay_down_below ({})",
                        con.lay_down_below
                    ),
                );
            }
        }
    } else if con.knock_below != Limit::None {
        c.fail(
            "concealed.knock_below",
            "knocking to end the game is part of concealed play (concealed.enabled = true)",
        );
    }

    // Scoring (§7).
    c.range(
        "scoring.hand_romme_multiplier",
        r.scoring.hand_romme_multiplier.into(),
        1,
        4,
    );
    c.tiers("scoring.club.opened", &r.scoring.club.opened);
    c.tiers("scoring.club.not_opened", &r.scoring.club.not_opened);

    // Match.
    let mr = &r.match_rules;
    match mr.end {
        MatchEnd::Games => c.range("match.games", mr.games.into(), 1, 1000),
        MatchEnd::PenaltyLimit | MatchEnd::Elimination => {
            c.range("match.limit", mr.limit, 1, 100_000)
        }
        MatchEnd::Rounds => {}
    }
    if mr.end == MatchEnd::Elimination && r.players.min < 2 {
        c.fail("match.end", "elimination needs at least two players");
    }

    // Money and timer.
    if r.money.enabled && r.money.per_points == 0 {
        c.fail(
            "money.per_points",
            "must be at least 1 when money.enabled = true",
        );
    }
    let shares: u32 = r.money.prize_shares.iter().map(|&x| u32::from(x)).sum();
    if shares != 100 {
        c.fail(
            "money.prize_shares",
            format!("the shares must add up to 100 (percent), they add up to {shares}"),
        );
    }
    if r.money.prize_shares.len() > usize::from(r.players.max.max(1)) * 4 {
        c.fail(
            "money.prize_shares",
            "more prize ranks than a series can have",
        );
    }
    if ![0, 15, 30, 60, 120].contains(&r.timer.seconds) {
        c.fail(
            "timer.seconds",
            format!(
                "{} is not one of 0 (none), 15, 30, 60, 120",
                r.timer.seconds
            ),
        );
    }

    if c.0.is_empty() { Ok(()) } else { Err(c.0) }
}
