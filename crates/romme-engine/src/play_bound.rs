//! How many plays a seat's listing could hold at most, worked out without
//! listing them: [`Game::plays_at_most`].
//!
//! The random bot draws one listed action uniformly. After drawing a card,
//! most of a seat's listing is its discards, and building the rest (the
//! hand's single melds, the opening combinations, the lay-offs) costs more
//! than everything else the bot does. With an upper bound `B` on the
//! plays, the draw picks among the discards (and the other actions that
//! need no search: the calls of Rommé, the end of the turn) and `B` slots
//! for the plays. Only when a play's slot is drawn is the listing built,
//! and a slot beyond its plays is drawn again. Every listed action keeps
//! exactly one slot, so the draw stays uniform (see
//! [`Game::random_legal_action`]).
//!
//! The bound comes in parts ([`PlayBound`]): the new melds, which the
//! listing holds first; the lay-offs and joker exchanges, counted per card
//! kind and table meld; the deferred searches. A lay-off's or exchange's
//! slot is told apart without the listing (`Game::table_slot`): after the
//! opening, most plays drawn are these, and the listing (with every
//! single meld of the hand) is then not built at all. A new meld's slot
//! is taken without the rest of the listing: after the opening, the
//! hand's single melds in the listing's order
//! (`Game::single_meld_slots`); before it, the opening combinations, by
//! the opening search alone (`Game::opening_slots`), numbered in the
//! order the search finds them (the listing sorts them best first:
//! another numbering of the same combinations), the search stopped at the
//! one drawn. Where there are fewer, their number replaces the bound and
//! the draw starts again; where the engine refuses the one drawn, the
//! draw starts again on the listing.
//!
//! The bound is worked out where it is cheap and tight: a hand without
//! wild cards in the play phase, outside the concealed and patience
//! variants. There the hand's single melds are its groups of natural
//! cards, one reading each, and they are counted from bit masks without
//! being built or checked: the sets as choices of a rank's suits (or
//! copies, where sets may repeat a suit), the runs as windows along the
//! line of ranks. A run of a whole suit may read with the ace low and
//! high, so a hand holding one gets no bound. Before the opening, the
//! single melds bound the opening combinations: none unless the cards in
//! them, each at its highest value, may reach the threshold
//! ([`opening::points_may_open`]), else at most one per subset of them
//! that puts no card held once into two melds and might open by its
//! points (counted where the groups are few,
//! `Game::natural_openings_at_most`; every subset otherwise), and
//! [`MAX_OPENINGS`] at most. The lay-offs and joker exchanges are
//! counted per card kind from the table's [`LyingTable`].
//!
//! A hand with wild cards before its opening (where lay-offs do not count
//! toward it) is bounded too: its plays are its opening combinations
//! ([`MAX_OPENINGS`] at most) and joker exchanges. With one wild card, the
//! combinations hold at most one meld with the wild card. They are
//! counted as pairs of a subset of the natural groups and one reading of
//! a meld with the wild card (or none) that put no card the hand holds
//! once into two melds and whose points might open
//! (`Game::one_wild_openings_at_most`); where that count is not worked
//! out, their points are bounded by the groups' cards and the best such
//! meld's gain (`Game::one_wild_may_open`): where they cannot reach the
//! threshold there are none.
//!
//! After the opening, a hand with one joker (and no other wild card) is
//! bounded as well: its natural groups, the groups the listing reads with
//! the joker (`NaturalHand::joker_melds_at_most`: a set's missing suits,
//! a run's stretch with the joker beside it or in a one-position gap), and
//! the joker laid off once per face it could stand for on each table meld
//! ([`LyingTable`]). These hands list about a dozen plays, most of them
//! the joker's lay-offs, and the bound is nearly exact.
//!
//! The same counts rule out the solver's way out for most short hands
//! ([`Game::way_out_may_exist`]): a way out the listing can play puts
//! every card but the final discard into a group of the hand or lays it
//! off, so a hand with more cards than that outside its groups and out of
//! the table's reach has none. Its slot is then not given, and the solver
//! is not asked.

use romme_core::meld::MeldChecker;
use romme_core::opening;
use romme_core::ruleset::{FinalDiscard, LayOff, MeldValues, Ruleset, SetSuits};
use romme_core::{Card, CardKind, Face, Rank, Suit};
use smallvec::SmallVec;

use crate::game::{Game, Phase};
use crate::legal::{GO_OUT_HAND, LyingTable, MAX_OPENINGS};

/// The most lay-off and exchange slots a bound gives.
const MAX_TABLE_SLOTS: usize = 4096;

/// Face slots, as [`Face::index`] counts them.
const FACES: usize = Face::SLOTS;

/// The most natural groups whose subsets the one-wild count goes through
/// (`Game::one_wild_openings_at_most`); with more, no count.
const COUNTED_GROUPS: usize = 6;

/// At most how many plays a listing holds, by the part of the listing
/// they lie in: its new melds (single melds or opening combinations, the
/// listing's first part), its lay-offs and joker exchanges, and the
/// slots of the deferred searches (the way out, the rearrangement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlayBound {
    pub(crate) melds: usize,
    /// Exactly the slots [`LyingTable::table_plays_at_most`] counts, which
    /// [`Game::table_slot`] tells apart.
    pub(crate) table: usize,
    pub(crate) searches: usize,
}

impl PlayBound {
    /// All the plays.
    pub(crate) fn total(self) -> usize {
        self.melds
            .saturating_add(self.table)
            .saturating_add(self.searches)
    }
}

impl Game {
    /// At most how many actions `seat`'s listing holds besides its
    /// discards, its calls of Rommé and its end of turn (the deferred
    /// searches' slots counted): see the module docs. `kinds` are the
    /// kinds of the seat's hand, each once. `None` where no cheap bound is
    /// known.
    pub(crate) fn plays_at_most(&self, seat: usize, kinds: &[CardKind]) -> Option<PlayBound> {
        let on_turn = self.phase == Phase::Play && seat == self.turn;
        if !on_turn
            || !self.players.contains(&seat)
            || self.patience.is_some()
            || self.rules.concealed.enabled
        {
            return None;
        }
        let checker = self.checker().ok()?;
        let hand = self.hands.get(seat)?;
        let (natural, wilds) = NaturalHand::of_naturals(&checker, hand);
        let opened = self.opened.get(seat).copied().unwrap_or(false);
        let lays_off = self.lays_off_now(seat);
        // A wild card is bounded before the opening, where it can go
        // nowhere but into a new meld, and one joker after it.
        let one_joker = wilds == 1 && hand.iter().any(|c| c.is_joker());
        if wilds > 0 && (opened || lays_off) && !(opened && one_joker) {
            return None;
        }
        let (groups, faces) = natural.groups(&self.rules)?;
        let melds = if opened && one_joker {
            groups.saturating_add(natural.joker_melds_at_most(&self.rules)?)
        } else if opened {
            groups
        } else if wilds > 1 {
            // Two wild cards fit nearly any card: no points bound.
            MAX_OPENINGS
        } else if wilds == 1 {
            let counted = (groups <= COUNTED_GROUPS)
                .then(|| self.one_wild_openings_at_most(&natural, hand))
                .flatten();
            match counted {
                Some(n) => n.min(MAX_OPENINGS),
                None if self.one_wild_may_open(&natural, groups, &faces, hand) => MAX_OPENINGS,
                None => 0,
            }
        } else if groups == 0 {
            0
        } else {
            // A combination of melds puts each card down once: together at
            // most the cards that lie in some meld, each at its highest
            // value (an ace low or high).
            let (points, cards, _) = grouped(&self.rules, hand, &faces);
            let all = opening::Tally {
                melds: groups,
                sum: points,
                top: points,
                wild_melds: 0,
            };
            if self.tally_may_open(&all, cards, hand.len(), self.opening_table_value()) {
                // The subsets that put no card down twice and might open,
                // where few; else every subset.
                let counted = (groups <= COUNTED_GROUPS)
                    .then(|| self.natural_openings_at_most(&natural, hand))
                    .flatten();
                let subsets = u32::try_from(groups)
                    .ok()
                    .and_then(|n| 1usize.checked_shl(n))
                    .map_or(usize::MAX, |s| s - 1);
                counted.unwrap_or(subsets).min(MAX_OPENINGS)
            } else {
                0
            }
        };
        let lying = self.lying_table();
        let table = lying.table_plays_at_most(kinds, lays_off);
        // (A meld of no shape takes anything: no bound worth drawing from.)
        if table > MAX_TABLE_SLOTS {
            return None;
        }
        let go_out = hand.len() <= GO_OUT_HAND
            && (wilds > 0 || self.natural_way_out_may_exist(seat, &natural, &faces, lying));
        let searches = usize::from(go_out) + usize::from(self.may_rearrange(seat));
        Some(PlayBound {
            melds,
            table,
            searches,
        })
    }

    /// Whether `seat` may lay off now (before its opening only where lay-offs
    /// count toward it): what the listing's lay-offs ask of every card.
    pub(crate) fn lays_off_now(&self, seat: usize) -> bool {
        let opened = self.opened.get(seat).copied().unwrap_or(false);
        self.rules.turn.lay_off != LayOff::Never && (opened || self.rules.opening.lay_offs_count)
    }

    /// Whether a hand of `natural` cards and one wild card might open: a
    /// necessary condition only, worked out from bit masks (see the module
    /// docs). `groups` and `faces` are the natural cards' groups
    /// ([`NaturalHand::groups`]).
    ///
    /// An opening combination holds groups of the natural cards and at
    /// most one meld with the wild card. Its points are at most those of
    /// the cards in some group (`faces`), each at its highest value, plus
    /// the wild meld's gain: the wild card's value and that of its natural
    /// cards outside the groups. The wild meld is a set of one rank, a run
    /// whose one gap (or end) the wild card fills between cards held, or
    /// a group of natural cards with the wild card in a card's place
    /// (worth that card, which lies in another meld). Rules that limit
    /// the wild card (how many per meld, next to each other, at the ends)
    /// are not looked at, and a run round the corner gives no bound.
    fn one_wild_may_open(
        &self,
        natural: &NaturalHand,
        groups: usize,
        faces: &[u16; 5],
        hand: &[Card],
    ) -> bool {
        let rules = &self.rules;
        let m = &rules.melds;
        if m.runs.wrap_around {
            return true;
        }
        let values = &rules.values;
        let in_groups = |f: Face| faces[f.suit.index()] >> f.rank.index() & 1 == 1;
        // The cards that could lie in some meld, as `faces`.
        let mut meldable = *faces;
        // The wild card in a grouped card's place gains that card.
        let (points, _, mut gain) = grouped(rules, hand, faces);
        let min = usize::from(m.min_len);
        let distinct = m.sets.suits == SetSuits::Distinct;
        let suits = rules.deck.kind.suits();
        let max_set = largest_set(rules);
        // Sets: the wild card with cards of one rank.
        for (r, &held) in natural.rank_suits.iter().enumerate() {
            if held == 0 {
                continue;
            }
            let rank = Rank::ALL[r];
            let (mut usable, mut outside) = (0usize, 0usize);
            for &s in suits {
                if held >> s.index() & 1 == 0 {
                    continue;
                }
                let f = Face::new(rank, s);
                let n = if distinct {
                    1
                } else {
                    usize::from(natural.copies[f.index()])
                };
                usable += n;
                if !in_groups(f) {
                    outside += n;
                }
            }
            if usable + 1 < min {
                continue;
            }
            let v = rules.values.highest(Face::new(rank, suits[0]));
            let naturals =
                u32::try_from(outside.min(max_set.saturating_sub(1))).unwrap_or(u32::MAX);
            gain = gain.max(v.saturating_mul(naturals + 1));
            for (s, bits) in meldable.iter_mut().enumerate() {
                *bits |= u16::from(held >> s & 1) << r;
            }
        }
        // Runs: the wild card at a position of the line of ranks not held,
        // the cards held either side of it.
        let line = RankLine::of(rules);
        let line_ok = line.deck(rules);
        for &suit in suits {
            let s = suit.index();
            let held = line.of_ranks(natural.suit_ranks[s]) & line_ok;
            let outside = line.of_ranks(natural.suit_ranks[s] & !faces[s]) & line_ok;
            // A position with no card held next to it gives a run of one
            // card (`groups` has ruled out melds shorter than two).
            let mut gaps = line_ok & !held & (held << 1 | held >> 1);
            while gaps != 0 {
                let p = gaps.trailing_zeros();
                gaps &= gaps - 1;
                // The held positions next to `p`, below and above.
                let below = held.checked_shl(32 - p).map_or(0, |b| b.leading_ones());
                let above = (held >> (p + 1)).trailing_ones();
                if ((below + above + 1) as usize) < min {
                    continue;
                }
                let window = ((1u32 << (below + above + 1)) - 1) << (p - below);
                let mut g = RankLine::value_at(values, p);
                let mut bits = outside & window;
                while bits != 0 {
                    let q = bits.trailing_zeros();
                    bits &= bits - 1;
                    g += RankLine::value_at(values, q);
                }
                gain = gain.max(g);
                meldable[s] |= line.ranks(held & window);
            }
        }
        let wild_meld = !rules.opening.naturals_only;
        let cards = hand
            .iter()
            .filter_map(|c| c.kind().face())
            .filter(|f| meldable[f.suit.index()] >> f.rank.index() & 1 == 1)
            .count();
        let most = points + if wild_meld { gain } else { 0 };
        let all = opening::Tally {
            melds: groups + usize::from(wild_meld),
            sum: most,
            top: most,
            wild_melds: usize::from(wild_meld),
        };
        self.tally_may_open(
            &all,
            cards + usize::from(wild_meld),
            hand.len(),
            self.opening_table_value(),
        )
    }

    /// At most how many opening combinations a hand of `natural` cards and
    /// one wild card lists; `None` where no count is worked out (then
    /// [`Game::one_wild_may_open`] decides between none and
    /// [`MAX_OPENINGS`]).
    ///
    /// A combination is some of the natural groups (each reads as one
    /// meld, see [`NaturalHand::groups`]) and at most one meld with the
    /// wild card. The melds with the wild card are counted as readings:
    /// a set is a choice of suits of a rank and the suit the wild card
    /// stands for; a run is a window along the line of ranks and the one
    /// position in it the wild card takes, every other position held.
    /// Each reading's points bound the meld's (every card at its highest
    /// value, the wild card at the value of the card it stands for). The
    /// count is every pair of a subset of the groups and one such reading
    /// or none that might open ([`Game::tally_may_open`]: by its points,
    /// or by its cards where a Hand-Rommé is waived the threshold), except
    /// those that put one card of which the hand holds a single copy into
    /// two melds (the search never puts a card down twice; copies held
    /// twice are not looked at): so it bounds the combinations the opening
    /// search can find.
    ///
    /// Not counted: sets of any suits (copies), runs round the corner,
    /// more than [`COUNTED_GROUPS`] groups, and a table that reaches the
    /// threshold alone.
    fn one_wild_openings_at_most(&self, natural: &NaturalHand, hand: &[Card]) -> Option<usize> {
        self.openings_at_most(natural, hand, true)
    }

    /// [`Game::one_wild_openings_at_most`] for a hand without wild cards:
    /// the subsets of its natural groups that put no card held once into
    /// two melds and might open.
    fn natural_openings_at_most(&self, natural: &NaturalHand, hand: &[Card]) -> Option<usize> {
        self.openings_at_most(natural, hand, false)
    }

    /// The count of [`Game::one_wild_openings_at_most`] (with the wild
    /// card's readings where `wild`, else without).
    fn openings_at_most(&self, natural: &NaturalHand, hand: &[Card], wild: bool) -> Option<usize> {
        let rules = &self.rules;
        let m = &rules.melds;
        if m.runs.wrap_around || m.sets.suits != SetSuits::Distinct || m.min_len < 2 {
            return None;
        }
        let table_value = self.opening_table_value();
        let opens = |t: &opening::Tally, cards: usize| {
            self.tally_may_open(t, cards, hand.len(), table_value)
        };
        let one = opening::Tally {
            melds: 1,
            ..opening::Tally::default()
        };
        // A meld of no points and no cards opens only by the table.
        if opens(&one, 0) {
            return None;
        }
        let values = &rules.values;
        let min = usize::from(m.min_len);
        let suits = rules.deck.kind.suits();
        let max_set = largest_set(rules);
        // The wild card's readings, where they are wanted.
        let readings_wanted = wild && !rules.opening.naturals_only;
        // The faces the hand holds once (a bit per `Face::index`): two
        // melds cannot both hold one of them.
        // (The natural faces held, less those held twice or more: the
        // hand is sorted, so a face's copies lie side by side, and a
        // wide shift per card cost more than the rest of the set-up.)
        let mut single = natural
            .suit_ranks
            .iter()
            .rev()
            .fold(0u128, |faces, &ranks| faces << 13 | u128::from(ranks));
        for pair in hand.windows(2) {
            if let (Some(f), Some(g)) = (pair[0].kind().face(), pair[1].kind().face()) {
                if f == g {
                    single &= !(1u128 << f.index());
                }
            }
        }
        // The natural groups as (points, cards, faces), and the readings
        // with the wild card as (points, cards, how many, natural faces).
        let mut groups: SmallVec<[(u32, usize, u128); 8]> = SmallVec::new();
        let mut readings: SmallVec<[(u32, usize, usize, u128); 32]> = SmallVec::new();
        // Sets: `k` suits of a rank, with the wild card for one more; each
        // choice of suits apart (a combination may hold two sets of the
        // rank: copies).
        for (r, &held) in natural.rank_suits.iter().enumerate() {
            let n = ones(u16::from(held));
            if n == 0 {
                continue;
            }
            let rank = Rank::ALL[r];
            let v = values.highest(Face::new(rank, suits[0]));
            // (`Face::index` is the suit's thirteen places, then the rank.)
            let faces_of = |mut chosen: u8| {
                let mut m = 0u128;
                while chosen != 0 {
                    let s = chosen.trailing_zeros() as usize;
                    chosen &= chosen - 1;
                    m |= 1 << (13 * s + rank.index());
                }
                m
            };
            // Every nonempty choice of the held suits, by its bits.
            let mut chosen = held;
            while chosen != 0 {
                let k = ones(u16::from(chosen));
                let size = k as u32;
                if k <= max_set {
                    if k >= min {
                        groups.push((v * size, k, faces_of(chosen)));
                    }
                    if readings_wanted && k + 1 >= min && k < max_set {
                        let stands_for = suits.len().saturating_sub(k);
                        readings.push((v * (size + 1), k + 1, stands_for, faces_of(chosen)));
                    }
                }
                chosen = (chosen - 1) & held;
            }
        }
        if groups.len() > COUNTED_GROUPS {
            return None;
        }
        // Runs along the line of ranks: the points of a window from the
        // sums of the line's values below each position.
        let line = RankLine::of(rules);
        let line_ok = line.deck(rules);
        let mut below_sum = [0u32; 16];
        for p in 0..15u32 {
            let v = if line_ok >> p & 1 == 1 {
                RankLine::value_at(values, p)
            } else {
                0
            };
            below_sum[p as usize + 1] = below_sum[p as usize] + v;
        }
        let points = |from: u32, to: u32| below_sum[to as usize + 1] - below_sum[from as usize];
        for &suit in suits {
            let held = line.of_ranks(natural.suit_ranks[suit.index()]) & line_ok;
            if held == 0 {
                continue;
            }
            // The faces at line positions `from..=to` but `skip` (if any).
            let faces_at = |from: u32, to: u32, skip: Option<u32>| {
                let window = (((1u64 << (to - from + 1)) - 1) << from) as u32;
                let positions = window & !skip.map_or(0, |p| 1 << p);
                u128::from(line.ranks(positions)) << (13 * suit.index())
            };
            // Natural runs: every window of `min` or more held positions.
            for (at, len) in stretches(held) {
                for a in at..at + len {
                    for b in a + min as u32 - 1..at + len {
                        groups.push((points(a, b), (b - a + 1) as usize, faces_at(a, b, None)));
                    }
                }
            }
            // Runs with the wild card at position `p`, held cards on
            // either side of it.
            let mut places = if readings_wanted {
                line_ok & (held << 1 | held >> 1)
            } else {
                0
            };
            while places != 0 {
                let p = places.trailing_zeros();
                places &= places - 1;
                let below = held.checked_shl(32 - p).map_or(0, |b| b.leading_ones());
                let above = (held >> (p + 1)).trailing_ones();
                // Windows of `min` cards or more, one natural card at least.
                let shortest = (min as u32).max(2) - 1;
                if below + above < shortest {
                    continue;
                }
                for x in 0..=below {
                    for y in shortest.saturating_sub(x)..=above {
                        let faces = faces_at(p - x, p + y, Some(p));
                        readings.push((points(p - x, p + y), (x + y + 1) as usize, 1, faces));
                    }
                }
            }
        }
        if groups.len() > COUNTED_GROUPS {
            return None;
        }
        let most_points = readings.iter().map(|r| r.0).max().unwrap_or(0);
        let most_cards = readings.iter().map(|r| r.1).max().unwrap_or(0);
        let mut count = 0usize;
        'subsets: for subset in 0u32..1 << groups.len() {
            let (mut t, mut cards, mut used) = (opening::Tally::default(), 0, 0u128);
            for (i, &(v, c, faces)) in groups.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    if faces & used & single != 0 {
                        // Two of its groups share a card held once.
                        continue 'subsets;
                    }
                    used |= faces;
                    t = t.with(v, false);
                    cards += c;
                }
            }
            // Alone (by points or by putting out the whole hand).
            let mut here = usize::from(subset != 0 && opens(&t, cards));
            if readings.is_empty() {
                // (No wild card: the subset alone is all there is.)
                count = count.saturating_add(here);
                if count >= MAX_OPENINGS {
                    return Some(MAX_OPENINGS);
                }
                continue;
            }
            // With a reading: the fewest points that open with the subset
            // (more points never close what fewer open), found by halving.
            let need = if opens(&t.with(most_points, true), 0) {
                let (mut lo, mut hi) = (0, most_points);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if opens(&t.with(mid, true), 0) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                lo
            } else {
                u32::MAX
            };
            // The readings with those points, and those without that put
            // out the whole hand.
            // (Points first: most subsets open with no reading at all.)
            let whole = opens(&t.with(0, true), cards + most_cards);
            if need <= most_points || whole {
                let clash = used & single;
                for &(v, c, n, faces) in &readings {
                    if (v >= need || (whole && opens(&t.with(v, true), cards + c)))
                        && faces & clash == 0
                    {
                        here = here.saturating_add(n);
                    }
                }
            }
            count = count.saturating_add(here);
            if count >= MAX_OPENINGS {
                return Some(MAX_OPENINGS);
            }
        }
        Some(count)
    }

    /// Whether the solver's way out may find a play for `seat`: false only
    /// where the hand holds no wild card and more of its cards than a way
    /// out may leave (the final discard) lie in no meld of the hand and
    /// could not be laid off (see [`Game::natural_way_out_may_exist`]).
    /// The listing's slot for the way out, and the way out itself, ask this
    /// first.
    pub(crate) fn way_out_may_exist(&self, seat: usize) -> bool {
        let Some(hand) = self.hands.get(seat) else {
            return false;
        };
        let Ok(checker) = self.checker() else {
            return true;
        };
        let Some(natural) = NaturalHand::of(&checker, hand) else {
            return true;
        };
        let Some((_, faces)) = natural.groups(&self.rules) else {
            return true;
        };
        self.natural_way_out_may_exist(seat, &natural, &faces, self.lying_table())
    }

    /// [`Game::way_out_may_exist`] for a hand without wild cards, given its
    /// [`NaturalHand`], the faces in its groups and the table. A way out
    /// that the listing can play puts down every card but the final
    /// discard in new melds (groups of the hand) and lay-offs without a
    /// joker exchange. A card can be laid off only where a table meld
    /// could take it ([`LyingTable::takes`]) or next to a card of its suit
    /// that can (laid off first, in a row). A necessary condition only:
    /// copies, the rules of sets, and which melds the seat may lay off on
    /// are not looked at. With a rest allowed (a call of Rommé), always
    /// true.
    fn natural_way_out_may_exist(
        &self,
        seat: usize,
        natural: &NaturalHand,
        faces: &[u16; 5],
        lying: &LyingTable,
    ) -> bool {
        let going_out = &self.rules.going_out;
        if going_out.rest_allowed > 0 {
            return true;
        }
        let Some(hand) = self.hands.get(seat) else {
            return false;
        };
        let lays_off = self.lays_off_now(seat);
        // Per suit, the ranks held that can be laid off: those a table meld
        // takes, then their neighbours in the hand (round the corner too),
        // and theirs.
        let mut placed = *faces;
        for (s, place) in placed.iter_mut().enumerate() {
            let held = natural.suit_ranks[s];
            if !lays_off || held == 0 {
                continue;
            }
            let mut layable = 0u16;
            let mut bits = held;
            while bits != 0 {
                let r = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if lying.takes(Face::new(Rank::ALL[r], Suit::ALL[s])) {
                    layable |= 1 << r;
                }
            }
            const ALL: u16 = (1 << 13) - 1;
            loop {
                let next = ((layable << 1) | (layable >> 1) | (layable << 12) | (layable >> 12))
                    & ALL
                    & held;
                if next & !layable == 0 {
                    break;
                }
                layable |= next;
            }
            *place |= layable;
        }
        let left = hand
            .iter()
            .filter_map(|c| c.kind().face())
            .filter(|f| placed[f.suit.index()] >> f.rank.index() & 1 == 0)
            .count();
        left <= usize::from(going_out.final_discard != FinalDiscard::Never)
    }
}

/// A hand without wild cards as bits: its ranks per suit and its suits
/// per rank (a bit per [`Rank::index`], per [`romme_core::Suit::index`]).
struct NaturalHand {
    suit_ranks: [u16; 5],
    rank_suits: [u8; 13],
    /// Copies per face ([`Face::index`]).
    copies: [u8; FACES],
}

impl NaturalHand {
    /// `None` when the hand holds a wild card.
    fn of(checker: &MeldChecker, hand: &[Card]) -> Option<NaturalHand> {
        match NaturalHand::of_naturals(checker, hand) {
            (h, 0) => Some(h),
            _ => None,
        }
    }

    /// The hand's natural cards (those not wild), and how many wild cards
    /// it holds besides.
    fn of_naturals(checker: &MeldChecker, hand: &[Card]) -> (NaturalHand, usize) {
        let mut h = NaturalHand {
            suit_ranks: [0; 5],
            rank_suits: [0; 13],
            copies: [0; FACES],
        };
        let mut wilds = 0;
        for c in hand {
            let k = c.kind();
            let f = match k {
                CardKind::Natural(f) if !checker.is_wild(k) => f,
                _ => {
                    wilds += 1;
                    continue;
                }
            };
            h.suit_ranks[f.suit.index()] |= 1 << f.rank.index();
            h.rank_suits[f.rank.index()] |= 1 << f.suit.index();
            h.copies[f.index()] = h.copies[f.index()].saturating_add(1);
        }
        (h, wilds)
    }

    /// How many groups the listing's single melds are read from (sets of
    /// distinct suits, `min..=max` of a rank's suits; runs, every window
    /// of `min` or more ranks in a row along the line of the ruleset's
    /// aces), and the faces that lie in one of them (a bit per
    /// [`Rank::index`], per suit). Each group reads as one meld at most.
    /// `None` where that is not so or the count would not be the
    /// listing's: sets of any suits (copies), melds of fewer than two
    /// cards (a card alone reads as a set and a run), a whole suit held (a
    /// run of it may read with the ace low and high).
    fn groups(&self, rules: &Ruleset) -> Option<(usize, [u16; 5])> {
        let m = &rules.melds;
        if m.min_len < 2 {
            return None;
        }
        let ranks = rules.deck.kind.ranks();
        // The deck's ranks lie in a row of `Rank::ALL`.
        let deck: u16 = match (ranks.first(), ranks.len()) {
            (Some(first), n) => (((1u32 << n) - 1) << first.index()) as u16,
            (None, _) => 0,
        };
        if self.suit_ranks.iter().any(|&r| r & deck == deck) {
            return None;
        }
        let min = usize::from(m.min_len);
        let max_set = largest_set(rules);
        let mut groups = 0usize;
        // Sets: every choice of `min..=max_set` cards of a rank, of distinct
        // suits or of any copies; the ranks that have one.
        let mut set_ranks = 0u16;
        if m.sets.suits == SetSuits::Distinct {
            // The ranks held in `min` suits or more, counted for all
            // ranks at once: a rank's count is its bits in the suits'
            // words, added up bit-sliced.
            let mut candidates = ranks_in_suits_at_least(&self.suit_ranks, min);
            while candidates != 0 {
                let r = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let n = ones(u16::from(self.rank_suits[r]));
                groups += (min..=max_set.min(n))
                    .map(|k| binomial(n, k))
                    .sum::<usize>();
                set_ranks |= 1 << r;
            }
        } else {
            for (r, &held) in self.rank_suits.iter().enumerate() {
                if held == 0 {
                    continue;
                }
                let sets = self.sets_of_copies(r, held, min, max_set);
                if sets > 0 {
                    groups += sets;
                    set_ranks |= 1 << r;
                }
            }
        }
        let mut faces = self.suit_ranks.map(|held| held & set_ranks);
        // Runs along the line of ranks. The ranks a deck lacks are never
        // held, so the deck's ranks lie in a row. A stretch of `len`
        // positions holds a run of every window of `min..=len` of them:
        // counted as the windows of each length `min`, `min + 1`, … that
        // fit (a bit per first position), until none does.
        let line = RankLine::of(rules);
        for (bits, &held) in faces.iter_mut().zip(&self.suit_ranks) {
            let positions = line.of_ranks(held);
            // The first positions of `min` held positions in a row.
            let mut windows = positions;
            for k in 1..min {
                windows &= positions >> k;
            }
            if windows == 0 {
                continue;
            }
            // Every held position in such a window.
            let mut covered = 0u32;
            for k in 0..min {
                covered |= windows << k;
            }
            *bits |= line.ranks(covered);
            let mut longer = windows;
            let mut len = min;
            while longer != 0 {
                groups += ones(longer as u16);
                longer &= positions >> len;
                len += 1;
            }
        }
        Some((groups, faces))
    }
}

impl NaturalHand {
    /// At most how many single melds with the hand's one joker the listing
    /// holds (each reading of each group with the joker counts): `None`
    /// where not worked out (sets of any suits, melds of fewer than three
    /// cards, runs round the corner).
    ///
    /// Sets: every choice of `k` of a rank's suits that a joker makes a
    /// set of, read once per suit it lacks. Runs: the listing walks the
    /// line from each start, naturals where the hand holds them and the
    /// joker in the first gap. Its groups are a stretch of held positions
    /// with the joker beside it (a prefix of a maximal stretch whose left
    /// neighbour is on the line, or a suffix where the right one is; at
    /// most two readings, the joker at either end), or positions on both
    /// sides of a one-position gap, the joker in the gap (one reading).
    fn joker_melds_at_most(&self, rules: &Ruleset) -> Option<usize> {
        let m = &rules.melds;
        let min = usize::from(m.min_len);
        if min < 3 || m.sets.suits != SetSuits::Distinct || m.runs.wrap_around {
            return None;
        }
        let suits = rules.deck.kind.suits().len();
        let max_set = largest_set(rules);
        let mut melds = 0usize;
        for &held in &self.rank_suits {
            let n = ones(u16::from(held));
            for k in (min - 1)..=n.min(max_set.saturating_sub(1)) {
                melds += binomial(n, k) * suits.saturating_sub(k);
            }
        }
        let line = RankLine::of(rules);
        let deck = line.deck(rules);
        for &ranks in &self.suit_ranks {
            let held = line.of_ranks(ranks) & deck;
            if held == 0 {
                continue;
            }
            let on_line = |p: u32| p < 32 && deck >> p & 1 == 1;
            // Whole stretches with the joker beside them.
            for (at, len) in stretches(held) {
                let left = at > 0 && on_line(at - 1);
                let right = on_line(at + len);
                // Stretch lengths `l` with `l + 1 >= min`.
                let lengths = (len as usize + 2).saturating_sub(min);
                let groups = usize::from(left) * lengths + usize::from(right) * lengths
                    - usize::from(left && right && lengths > 0);
                melds += 2 * groups;
            }
            // A gap of one position between two held stretches.
            let mut g = deck & !held & (held << 1) & (held >> 1);
            while g != 0 {
                let u = g.trailing_zeros();
                g &= g - 1;
                // The stretch ending at u - 1 and the one starting at u + 1.
                let left = (held << (32 - u)).leading_ones() as usize;
                let right = (held >> (u + 1)).trailing_ones() as usize;
                // Pairs of a first card a (1..=left before the gap) and a
                // last card c (1..=right after it) with a + c + 1 >= min.
                for a in 1..=left {
                    let need = min.saturating_sub(a + 1).max(1);
                    melds += (right + 1).saturating_sub(need);
                }
            }
        }
        Some(melds)
    }

    /// How many choices of copies per suit of rank `r` (the suits `held`)
    /// hold `min..=max` cards together: the sets of any suits the walk
    /// lists for the rank.
    fn sets_of_copies(&self, r: usize, held: u8, min: usize, max: usize) -> usize {
        // Choices per number of cards, suit by suit.
        let mut ways = [0usize; 16];
        ways[0] = 1;
        let mut most = 0;
        for (s, &suit) in Suit::ALL.iter().enumerate() {
            if held >> s & 1 == 0 {
                continue;
            }
            let c = usize::from(self.copies[Face::new(Rank::ALL[r], suit).index()]);
            most += c;
            if most >= ways.len() {
                // More copies than a hand holds: no bound worth having.
                return usize::MAX / 4;
            }
            for total in (1..=most).rev() {
                let extra: usize = (1..=c.min(total)).map(|k| ways[total - k]).sum();
                ways[total] += extra;
            }
        }
        if most < min {
            return 0;
        }
        ways[min..=max.min(most)].iter().sum()
    }
}

/// The line of ranks a run is read along, as bits of a `u32`: the ace
/// low at position 0 where the rules allow it, the two to the king at
/// 1..=12, the ace high at 13 where the rules allow it (or runs go round
/// the corner).
#[derive(Clone, Copy)]
pub(crate) struct RankLine {
    low: bool,
    high: bool,
}

impl RankLine {
    pub(crate) fn of(rules: &Ruleset) -> RankLine {
        let runs = &rules.melds.runs;
        RankLine {
            low: runs.ace_low,
            high: runs.ace_high || runs.wrap_around,
        }
    }

    /// The positions of `ranks` (a bit per [`Rank::index`]).
    fn of_ranks(self, ranks: u16) -> u32 {
        let ace = Rank::Ace.index();
        let has_ace = ranks >> ace & 1 == 1;
        (u32::from(ranks & !(1 << ace)) << 1)
            | u32::from(has_ace && self.low)
            | u32::from(has_ace && self.high) << 13
    }

    /// The ranks at `positions` (the inverse of [`RankLine::of_ranks`]).
    fn ranks(self, positions: u32) -> u16 {
        let ace = 1u16 << Rank::Ace.index();
        let mut bits = (positions >> 1) as u16 & !ace;
        if positions & (1 | 1 << 13) != 0 {
            bits |= ace;
        }
        bits
    }

    /// The rank at line position `p` (0 and 13: the ace).
    pub(crate) fn rank_at(p: u32) -> Rank {
        match p {
            1..=12 => Rank::ALL[p as usize - 1],
            _ => Rank::Ace,
        }
    }

    /// The meld value of a card at line position `p` (the ace low only at
    /// 0; a card's value does not depend on its suit).
    fn value_at(values: &MeldValues, p: u32) -> u32 {
        values.value(Face::new(RankLine::rank_at(p), Suit::ALL[0]), p == 0)
    }

    /// The positions of the deck's ranks.
    pub(crate) fn deck(self, rules: &Ruleset) -> u32 {
        let all = rules
            .deck
            .kind
            .ranks()
            .iter()
            .fold(0u16, |bits, r| bits | 1 << r.index());
        self.of_ranks(all)
    }
}

/// The most cards a set may hold ([`Ruleset::set_max_len`]); with any
/// suits and no limit, the two copies of each face the decks hold.
pub(crate) fn largest_set(rules: &Ruleset) -> usize {
    rules
        .set_max_len()
        .unwrap_or(2 * rules.deck.kind.suits().len())
}

/// The natural cards of `hand` in the groups' `faces`: their points, each
/// at its highest value, how many they are, and the highest one's value.
fn grouped(rules: &Ruleset, hand: &[Card], faces: &[u16; 5]) -> (u32, usize, u32) {
    let (mut points, mut cards, mut top) = (0u32, 0usize, 0u32);
    for f in hand.iter().filter_map(|c| c.kind().face()) {
        if faces[f.suit.index()] >> f.rank.index() & 1 == 1 {
            let v = rules.values.highest(f);
            points += v;
            cards += 1;
            top = top.max(v);
        }
    }
    (points, cards, top)
}

/// The stretches of set bits in `bits`, lowest first: (first bit, length).
fn stretches(mut bits: u32) -> impl Iterator<Item = (u32, u32)> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let at = bits.trailing_zeros();
        let len = (bits >> at).trailing_ones();
        bits &= !(((1u64 << len) - 1) << at) as u32;
        Some((at, len))
    })
}

/// The bits set in `bits`, looked up per byte (the baseline target has no
/// instruction that counts them).
fn ones(bits: u16) -> usize {
    const BYTE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        t
    };
    usize::from(BYTE[usize::from(bits & 0xff)] + BYTE[usize::from(bits >> 8)])
}

/// The ranks (a bit per [`Rank::index`]) held in at least `min` of the
/// suits' words `suit_ranks`: the five words added up bit-sliced, each
/// rank's count in three bits (at most five suits).
fn ranks_in_suits_at_least(suit_ranks: &[u16; 5], min: usize) -> u16 {
    let (mut b0, mut b1, mut b2) = (0u16, 0u16, 0u16);
    for &w in suit_ranks {
        let carry0 = b0 & w;
        b0 ^= w;
        let carry1 = b1 & carry0;
        b1 ^= carry0;
        b2 |= carry1;
    }
    match min {
        0 => u16::MAX,
        1 => b0 | b1 | b2,
        2 => b1 | b2,
        3 => b2 | (b1 & b0),
        4 => b2,
        5 => b2 & (b1 | b0),
        _ => 0,
    }
}

/// `n` choose `k`, for the few suits of a set.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    use super::*;
    use crate::legal::single_meld_declarations;

    /// Worked examples of the count of single melds with one joker after
    /// the opening (`klassisch`: runs of three, sets of distinct suits),
    /// each against the melds the listing reads with the joker.
    #[test]
    fn joker_meld_examples() {
        let Some(Ok(klassisch)) = presets::load("klassisch") else {
            panic!("klassisch loads");
        };
        let game = Game::new(klassisch.clone(), 3, 1).expect("a game");
        let checker = game.checker().expect("a checker");
        let count = |cards: &str| -> (Option<usize>, usize) {
            let kinds: Vec<CardKind> = cards
                .split_whitespace()
                .map(|t| t.parse().expect("a card"))
                .collect();
            let hand: Vec<Card> = kinds
                .iter()
                .map(|&k| match k {
                    CardKind::Natural(f) => Card::natural(f, 0),
                    CardKind::Joker => Card::joker(0),
                })
                .collect::<Option<_>>()
                .expect("cards of the deck");
            let (natural, wilds) = NaturalHand::of_naturals(&checker, &hand);
            assert_eq!(wilds, 1, "{cards}");
            let with_joker: usize = crate::legal::single_melds(&checker, &klassisch, &kinds, None)
                .iter()
                .flat_map(|g| g.iter())
                .filter(|d| d.ordered.iter().any(|c| c.card == CardKind::Joker))
                .count();
            (natural.joker_melds_at_most(&klassisch), with_joker)
        };
        // 7 8 9 and the joker: 7 8 *, 8 9 * and 7 8 9 *, each with the
        // joker at either end.
        assert_eq!(count("7h 8h 9h *"), (Some(6), 6));
        // 7 _ 9: the joker in the gap only.
        assert_eq!(count("7h 9h *"), (Some(1), 1));
        // Two sevens: the joker as either missing seven.
        assert_eq!(count("7h 7s *"), (Some(2), 2));
        // Three sevens: with two of them (three ways, two suits each
        // missing) or all three (one suit missing).
        assert_eq!(count("7h 7s 7c *"), (Some(7), 7));
        // Q K: the joker as the jack or the ace (high).
        assert_eq!(count("Qh Kh *"), (Some(2), 2));
        // Nothing two cards of which are near enough.
        assert_eq!(count("2h 7s Jc *"), (Some(0), 0));
    }

    /// Worked examples of the one-wild check (`klassisch`: 40 points to
    /// open, the ace high or low). The largest opening each hand has is
    /// worked out by hand; the check may say yes above it (it is a bound)
    /// but never no below it, and these examples are tight.
    #[test]
    fn one_wild_card_examples() {
        let Some(Ok(klassisch)) = presets::load("klassisch") else {
            panic!("klassisch loads");
        };
        let read = |rules: &Ruleset, cards: &str| -> (Game, Vec<Card>) {
            let game = Game::new(rules.clone(), 3, 1).expect("a game");
            let mut copies = std::collections::HashMap::new();
            let hand: Vec<Card> = cards
                .split_whitespace()
                .map(|t| {
                    let kind: CardKind = t.parse().expect("a card");
                    let n = copies.entry(kind).or_insert(0u8);
                    *n += 1;
                    match kind {
                        CardKind::Natural(f) => Card::natural(f, *n - 1),
                        CardKind::Joker => Card::joker(*n - 1),
                    }
                    .expect("a card of the deck")
                })
                .collect();
            (game, hand)
        };
        let may_open = |rules: &Ruleset, cards: &str| -> bool {
            let (game, hand) = read(rules, cards);
            let checker = game.checker().expect("a checker");
            let (natural, wilds) = NaturalHand::of_naturals(&checker, &hand);
            assert_eq!(wilds, 1, "{cards}");
            let (groups, faces) = natural.groups(rules).expect("groups");
            game.one_wild_may_open(&natural, groups, &faces, &hand)
        };
        // The count of the opening combinations (`one_wild_openings_at_most`), and
        // how many the listing's search finds.
        let openings = |rules: &Ruleset, cards: &str| -> (Option<usize>, usize) {
            let (game, hand) = read(rules, cards);
            let checker = game.checker().expect("a checker");
            let (natural, _) = NaturalHand::of_naturals(&checker, &hand);
            let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
            let groups = crate::legal::single_melds(&checker, rules, &kinds, None);
            (
                game.one_wild_openings_at_most(&natural, &hand),
                game.opening_combos_for_tests(&groups, &kinds),
            )
        };
        // Each hand ends in cards that make no meld with the others or the
        // joker, so that the hand cannot go out at once (which would waive
        // the threshold).
        // K K and the joker: 30 points.
        assert!(!may_open(&klassisch, "Kh Ks * 2c 7d 4s"));
        assert_eq!(openings(&klassisch, "Kh Ks * 2c 7d 4s"), (Some(0), 0));
        // 10 J _ K with the joker as the queen: 40, the one opening (the
        // joker's other places give 30 at most).
        assert!(may_open(&klassisch, "10h Jh Kh * 2c 7d 4s"));
        assert_eq!(openings(&klassisch, "10h Jh Kh * 2c 7d 4s"), (Some(1), 1));
        // Three kings: the one opening is K K K and the joker (40). The
        // natural K K K (30) with a reading of a set of kings with the
        // joker would put a king down twice, so the count is that one too
        // (before shared cards were looked at, it was 8: the natural set
        // with each of the seven readings).
        assert_eq!(openings(&klassisch, "Kh Ks Kc * 2c 7d 4s"), (Some(1), 1));
        // With a second king of hearts (two decks), the natural K K K and
        // the joker with the other Kh and a king still held once cannot
        // share that one: the count holds the pairs whose shared cards are
        // all held twice, a bound (the search finds 1 here as well).
        let (bound, found) = openings(&klassisch, "Kh Kh Ks Kc * 2c 7d 4s");
        assert!(
            bound.is_some_and(|b| b >= found && b < 8),
            "{bound:?} {found}"
        );
        // 9 _ J _ K: the joker fills one gap, 30 at most.
        assert!(!may_open(&klassisch, "9h Jh Kh * 2c 7d 4s"));
        // A natural run (6 7 8, 21) and the joker with 9 and J (29): 50.
        assert!(may_open(&klassisch, "6d 7d 8d 9s Js * 2c 4s Qc"));
        // A natural run (6 7 8, 21) and the joker with two kings (30): 51.
        assert!(may_open(&klassisch, "6d 7d 8d Kh Ks * 2c 4s Qc"));
        // A natural set of threes (9) and the joker with two fives (15):
        // 24.
        assert!(!may_open(&klassisch, "3h 3s 3d 5h 5s * 2c 7d Qc"));
        // The joker in a card's place: 9 10 J Q K of hearts with the ace
        // only low. Best: 9 10 *=J and J Q K, 29 + 30 = 59 (the joker at
        // the run's end, as the eight: 57).
        let mut low_ace = klassisch.clone();
        low_ace.melds.runs.ace_high = false;
        for (threshold, opens) in [(59, true), (60, false)] {
            low_ace.opening.threshold = threshold;
            assert_eq!(
                may_open(&low_ace, "9h 10h Jh Qh Kh * 2c 7d 4s"),
                opens,
                "threshold {threshold}"
            );
        }
    }

    /// The one-wild count bounds the opening combinations the listing's
    /// search finds: on random hands with one wild card of every preset
    /// and of house rules that change what counts (the table toward the
    /// opening, one meld alone, no wild card in it, no Hand-Rommé waiver),
    /// where hands are often given a run or a set to reach the threshold.
    /// Among them, hands counted exactly, hands counted with none though
    /// the old check said they might open, and hands with many. The same
    /// hands without the wild card bound theirs as well
    /// ([`Game::natural_openings_at_most`]).
    #[test]
    fn the_one_wild_count_bounds_the_opening_combinations() {
        let (mut counted, mut exact, mut none_left, mut many) = (0, 0, 0, 0);
        let (mut natural_counted, mut natural_exact, mut natural_some) = (0, 0, 0);
        let mut variants: Vec<(String, Ruleset)> = Vec::new();
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                continue;
            };
            variants.push((name.to_string(), rules.clone()));
            let mut single = rules.clone();
            single.opening.count = romme_core::ruleset::OpeningCount::SingleMeld;
            variants.push((format!("{name}, one meld alone"), single));
            let mut natural = rules.clone();
            natural.opening.naturals_only = true;
            variants.push((format!("{name}, naturals only"), natural));
            let mut no_waiver = rules.clone();
            no_waiver.hand_romme.threshold_waived = false;
            no_waiver.opening.threshold = 30;
            variants.push((format!("{name}, 30 without waiver"), no_waiver));
        }
        for (name, rules) in &variants {
            let Ok(game) = Game::new(rules.clone(), 3, 1) else {
                continue;
            };
            let Ok(checker) = game.checker() else {
                continue;
            };
            let cards = rules.deck.cards();
            let (wild, mut naturals): (Vec<Card>, Vec<Card>) =
                cards.into_iter().partition(|c| checker.is_wild(c.kind()));
            let Some(&wild) = wild.first() else {
                continue;
            };
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            for trial in 0..1000 {
                naturals.shuffle(&mut rng);
                let size = 5 + trial % 11;
                let mut hand: Vec<Card> = naturals[..size].to_vec();
                // A run or a set started by the first card, often.
                if let Some(first) = hand.first().and_then(|c| c.kind().face()) {
                    let near = |f: Face| match trial % 3 {
                        0 => f.rank == first.rank && f.suit != first.suit,
                        1 => {
                            f.suit == first.suit
                                && f.rank != first.rank
                                && f.rank.index().abs_diff(first.rank.index()) < 4
                        }
                        _ => false,
                    };
                    let extra: Vec<Card> = naturals[size..]
                        .iter()
                        .filter(|c| c.kind().face().is_some_and(near))
                        .take(2 + trial % 3)
                        .copied()
                        .collect();
                    hand.extend(extra);
                }
                hand.sort_unstable();
                // What the listing's search finds for a hand, and its kinds.
                let search = |hand: &[Card]| {
                    let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
                    let groups = crate::legal::single_melds(&checker, rules, &kinds, None);
                    (game.opening_combos_for_tests(&groups, &kinds), kinds)
                };
                // The hand without the wild card first.
                let (natural, _) = NaturalHand::of_naturals(&checker, &hand);
                if let Some(bound) = game.natural_openings_at_most(&natural, &hand) {
                    let (combos, kinds) = search(&hand);
                    assert!(
                        combos <= bound,
                        "{name}: {combos} natural opening combinations over the bound {bound}: {kinds:?}"
                    );
                    natural_counted += 1;
                    natural_exact += usize::from(combos == bound);
                    natural_some += usize::from(combos > 0);
                }
                hand.push(wild);
                hand.sort_unstable();
                let (natural, wilds) = NaturalHand::of_naturals(&checker, &hand);
                assert_eq!(wilds, 1, "{name}");
                let Some(bound) = game.one_wild_openings_at_most(&natural, &hand) else {
                    continue;
                };
                let (combos, kinds) = search(&hand);
                assert!(
                    combos <= bound,
                    "{name}: {combos} opening combinations over the bound {bound}: {kinds:?}"
                );
                counted += 1;
                exact += usize::from(combos == bound);
                many += usize::from(combos >= 8);
                if bound == 0 {
                    if let Some((groups, faces)) = natural.groups(rules) {
                        none_left +=
                            usize::from(game.one_wild_may_open(&natural, groups, &faces, &hand));
                    }
                }
            }
        }
        assert!(counted > 12_000, "only {counted} hands counted");
        // The same hands without the wild card: 15,120 counted, 15,104
        // exactly, 3,415 with an opening.
        assert!(
            natural_counted > 12_000,
            "only {natural_counted} natural hands"
        );
        assert!(
            natural_exact > 14_000,
            "only {natural_exact} natural hands exact"
        );
        assert!(
            natural_some > 2_500,
            "only {natural_some} natural hands open"
        );
        // (Before shared cards were looked at: 8,450 exact, 1,343 ruled out.)
        assert!(exact > 12_000, "only {exact} counted exactly");
        assert!(none_left > 1_500, "only {none_left} newly ruled out");
        assert!(many > 3_000, "only {many} hands with eight or more");
    }

    /// The bit-sliced count of suits per rank agrees with counting each
    /// rank's bits, on random words of up to five suits and every `min`.
    #[test]
    fn ranks_in_suits_are_counted_bit_sliced() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..2_000 {
            let words: [u16; 5] = std::array::from_fn(|_| rng.random_range(0..1u16 << 13));
            for min in 0..=6 {
                let expected = (0..13)
                    .filter(|&r| words.iter().filter(|&&w| w >> r & 1 == 1).count() >= min)
                    .fold(0u16, |m, r| m | 1 << r);
                let got = ranks_in_suits_at_least(&words, min) & 0x1fff;
                assert_eq!(got, expected, "{words:?}, min {min}");
            }
        }
    }

    /// The counted groups are the listing's single melds: on random hands
    /// without wild cards of every preset (now and then with all suits of
    /// a rank, for the larger sets, or a long stretch of one suit), as
    /// many as [`single_meld_declarations`] reads, and the faces given are
    /// exactly their cards.
    #[test]
    fn counted_groups_are_the_single_melds() {
        let (mut hands, mut melds, mut big_sets, mut long_runs) = (0, 0, 0, 0);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                continue;
            };
            let Ok(checker) = MeldChecker::new(&rules, Some(1)) else {
                continue;
            };
            let deck: Vec<Card> = rules
                .deck
                .cards()
                .into_iter()
                .filter(|c| !checker.is_wild(c.kind()))
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            for trial in 0..300 {
                let mut pool = deck.clone();
                pool.shuffle(&mut rng);
                let mut hand: Vec<Card> = pool[..6 + trial % 11].to_vec();
                if let Some(first) = hand.first().and_then(|c| c.kind().face()) {
                    let same = |f: Face| match trial % 3 {
                        0 => f.rank == first.rank,
                        1 => {
                            f.suit == first.suit && f.rank.index().abs_diff(first.rank.index()) < 6
                        }
                        _ => false,
                    };
                    hand.extend(
                        pool[20..]
                            .iter()
                            .filter(|c| c.kind().face().is_some_and(same))
                            .take(5),
                    );
                }
                hand.sort_unstable();
                let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
                let Some(natural) = NaturalHand::of(&checker, &hand) else {
                    panic!("{name}: a hand without wild cards");
                };
                let Some((groups, faces)) = natural.groups(&rules) else {
                    continue;
                };
                let read = single_meld_declarations(&checker, &rules, &kinds);
                assert_eq!(groups, read.len(), "{name}: {kinds:?}");
                let mut in_melds = [0u16; 5];
                for d in &read {
                    for f in d.ordered.iter().filter_map(|c| c.card.face()) {
                        in_melds[f.suit.index()] |= 1 << f.rank.index();
                    }
                    big_sets += usize::from(
                        d.kind == romme_core::meld::MeldKind::Set && d.ordered.len() > 3,
                    );
                    long_runs += usize::from(d.ordered.len() > 5);
                }
                assert_eq!(faces, in_melds, "{name}: {kinds:?}");
                hands += 1;
                melds += read.len();
            }
        }
        assert!(hands > 2_000, "only {hands} hands");
        assert!(melds > 2_000, "only {melds} melds");
        assert!(big_sets > 100, "only {big_sets} sets of four or more");
        assert!(long_runs > 100, "only {long_runs} runs of six or more");
    }
}
