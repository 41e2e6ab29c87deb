//! The heuristic bot: rules of thumb a good club player follows, driven by
//! the exact partition solver.
//!
//! * **Drawing.** Take the discard when the best hand after taking it (and
//!   discarding) is clearly better than what a card from the stock is
//!   expected to give; otherwise draw from the stock.
//! * **Melding.** Go out whenever some play does. Otherwise make the play
//!   that improves the hand most (deadwood first, then the points still
//!   held), as long as it improves it; a joker is not laid off alone, and
//!   the opening is held back while a Hand-Rommé is near and no opponent is
//!   close to going out.
//! * **Discarding.** The card whose loss hurts the hand least, the highest
//!   of equals; never a joker while another card will do; not a card the
//!   next player is known to want (it took a card of the same rank, or a
//!   neighbour in the same suit, from the discard pile).
//! * **Claims.** Buy or knock for a card only when it completes a meld and
//!   lowers the deadwood by at least 10 points.
//!
//! The decisions work on a complete game: the bot itself passes a
//! determinization of its [`SeatState`] (so nothing it reads there is real
//! hidden information); the expert's playouts pass their sampled games.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use romme_core::CardKind;
use romme_core::ruleset::FinalDiscard;
use romme_engine::{Action, DrawSource, Event, Game, Phase, SeatState, View};

use crate::Bot;
use crate::eval::{Eval, Measure, PatienceEval, kinds, without};

/// Improvement a play must bring to be made.
pub(crate) const PLAY_MARGIN: f64 = 0.5;
/// Extra badness of laying off or discarding a joker.
pub(crate) const JOKER_KEEP: f64 = 8.0;
/// Extra badness of a discard the next player is known to want.
const DANGER: f64 = 4.0;
/// How much better than a stock card the discard must make the hand.
const TAKE_MARGIN: f64 = 1.0;
/// Concealed play: lay the hand down once at most this much deadwood stays.
pub(crate) const LAY_DOWN_REST: u32 = 10;
/// Stock cards sampled to estimate a stock draw.
const STOCK_SAMPLES: usize = 4;

/// The heuristic player (see the module docs).
#[derive(Debug, Clone)]
pub struct HeuristicBot {
    rng: ChaCha8Rng,
}

impl HeuristicBot {
    /// A heuristic bot with its own seed.
    pub fn new(seed: u64) -> HeuristicBot {
        HeuristicBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for HeuristicBot {
    fn act(&mut self, state: &SeatState) -> Action {
        let sample = state.determinize(&mut self.rng);
        let seat = state.seat();
        // Plays are checked by trying them (see `decide`).
        decide(&sample, seat, &sample.legal_actions_unchecked_plays(seat))
    }

    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        let sample = state.determinize(&mut self.rng);
        claim(&sample, state.seat(), &sample.legal_actions(state.seat()))
    }
    /// What it remembers (discards, cards taken) is in the seat's view.
    fn observes(&self) -> bool {
        false
    }
}

/// The result of trying an action on a copy.
pub(crate) struct Tried {
    pub(crate) game: Game,
    won: bool,
}

/// `a` applied to a copy of `g` (none when the engine refuses it).
pub(crate) fn try_action(g: &Game, seat: usize, a: &Action) -> Option<Tried> {
    let mut next = g.detached();
    let events = next.apply(seat, a.clone()).ok()?;
    let won = events.iter().any(|e| match e {
        Event::GameEnded { winner, .. } => *winner == Some(seat),
        _ => false,
    }) || next.hand(seat).is_some_and(<[_]>::is_empty);
    Some(Tried { game: next, won })
}

/// Cards an action takes out of the hand (an upper bound for rearranging:
/// the whole new table).
fn cards_out(g: &Game, a: &Action) -> usize {
    match a {
        Action::Meld { melds, lay_offs } => {
            melds.iter().map(Vec::len).sum::<usize>()
                + lay_offs.iter().map(|p| p.cards.len()).sum::<usize>()
        }
        Action::LayOff { cards, .. } => cards.len(),
        Action::LayDown { melds, discard } => {
            melds.iter().map(Vec::len).sum::<usize>() + usize::from(discard.is_some())
        }
        Action::Discard { .. } => 1,
        Action::Rearrange { table } => {
            let now: usize = g.view(None).table.iter().map(|m| m.cards.len()).sum();
            table
                .iter()
                .map(Vec::len)
                .sum::<usize>()
                .saturating_sub(now)
        }
        _ => 0,
    }
}

/// The heuristic's choice for `seat` on turn in the complete game `g`
/// (`legal` is the seat's legal list, or that list with plays the engine
/// refuses, [`Game::legal_actions_unchecked_plays`]: every play is tried
/// on a copy before it is chosen, and the fallbacks take the first action
/// the engine accepts, so both lists give the same choice).
pub(crate) fn decide(g: &Game, seat: usize, legal: &[Action]) -> Action {
    let first = || {
        legal
            .iter()
            .find(|a| !a.is_play() || g.accepts(seat, a))
            .cloned()
            .unwrap_or(Action::EndTurn)
    };
    if legal.len() <= 1 {
        return first();
    }
    let eval = Eval::for_game(g);
    let hand = kinds(g.hand(seat).unwrap_or(&[]));
    // The solo patience: the placement that leaves the hands best.
    let view = g.view(Some(seat));
    if view.patience.is_some() {
        let eval = PatienceEval::new(g.rules());
        let choice = match g.hand(seat) {
            Some([drawn]) => crate::patience::placements(&eval, &view, drawn.kind(), legal)
                .best()
                .cloned(),
            _ => None,
        };
        return choice.unwrap_or_else(first);
    }
    // Going out now.
    for a in legal {
        let could = matches!(a, Action::CallRomme { .. }) || cards_out(g, a) + 1 >= hand.len();
        if could && try_action(g, seat, a).is_some_and(|t| t.won) {
            return a.clone();
        }
    }
    // The best improving play.
    if let Some(a) = best_play(g, &view, seat, legal, &eval, &hand) {
        return a;
    }
    if legal.iter().any(|a| matches!(a, Action::Draw { .. })) {
        return draw(g, view.discard.last().copied(), legal, &eval, &hand);
    }
    if let Some(a) = discard(&view, seat, legal, &eval, &hand) {
        return a;
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::EndTurn))
        .cloned()
        .unwrap_or_else(first)
}

/// The play that improves the hand most, if any does.
fn best_play(
    g: &Game,
    view: &View,
    seat: usize,
    legal: &[Action],
    eval: &Eval,
    hand: &[CardKind],
) -> Option<Action> {
    let plays: Vec<&Action> = legal.iter().filter(|a| a.is_play()).collect();
    if plays.is_empty() {
        return None;
    }
    let opened = view.seats.get(seat).is_some_and(|s| s.opened);
    let rules = g.rules();
    if !opened && hold_back(g, view, seat, eval, hand) {
        return None;
    }
    // Concealed play: lay down when little is left.
    if rules.concealed.enabled {
        return plays
            .iter()
            .filter_map(|a| {
                let t = try_action(g, seat, a)?;
                let rest = kinds(t.game.hand(seat).unwrap_or(&[]));
                let left = f64::from(eval.deadwood(&rest).0);
                (left <= f64::from(LAY_DOWN_REST)).then_some((left, *a))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, a)| a.clone());
    }
    let base = eval.hand(hand);
    // Without a final discard the turn still ends with a discard: a play
    // that leaves two cards leaves one after it, and a single card goes out
    // only with the next card drawn. Keep two for a meld of three.
    let keep_two = rules.going_out.final_discard == FinalDiscard::Never;
    let mut best: Option<(f64, &Action)> = None;
    for a in plays {
        let Some(t) = try_action(g, seat, a) else {
            continue;
        };
        let after = kinds(t.game.hand(seat).unwrap_or(&[]));
        if keep_two && after.len() == 2 {
            continue;
        }
        let mut v = eval.hand(&after);
        if let Action::LayOff { cards, .. } = a {
            if cards.iter().all(|c| c.card.is_joker()) && after.len() > 3 {
                v += JOKER_KEEP;
            }
        }
        if v < base - PLAY_MARGIN && best.is_none_or(|(b, _)| v < b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a.clone())
}

/// Hold back the opening: a Hand-Rommé pays extra and is near, it is early
/// in the game, and no opponent is close to going out.
pub(crate) fn hold_back(
    g: &Game,
    view: &View,
    seat: usize,
    eval: &Eval,
    hand: &[CardKind],
) -> bool {
    let rules = g.rules();
    if !rules.hand_romme.enabled || rules.scoring.hand_romme_multiplier < 2 {
        return false;
    }
    let danger = view
        .seats
        .iter()
        .any(|s| s.seat != seat && s.playing && s.cards <= 5);
    // Early in the game only: about the first four rounds.
    let early = view.discard.len() < 4 * view.seats.len();
    early && !danger && eval.deadwood(hand).0 <= 15
}

/// Stock or discard pile.
pub(crate) fn draw(
    g: &Game,
    top: Option<CardKind>,
    legal: &[Action],
    eval: &Eval,
    hand: &[CardKind],
) -> Action {
    let stock = legal
        .iter()
        .find(|a| {
            matches!(
                a,
                Action::Draw {
                    from: DrawSource::Stock | DrawSource::Pile(_)
                }
            )
        })
        .cloned();
    let take = Action::Draw {
        from: DrawSource::Discard,
    };
    if let (true, Some(top)) = (legal.contains(&take), top) {
        let with = after_best_discard(eval, hand, top, Some(top));
        // The stock of a determinized game is a random order of the unseen
        // cards: its top cards are samples of what a stock draw gives.
        let samples: Vec<CardKind> = g
            .stock()
            .iter()
            .rev()
            .take(STOCK_SAMPLES)
            .map(|c| c.kind())
            .collect();
        let expected = if samples.is_empty() {
            eval.hand(hand)
        } else {
            samples
                .iter()
                .map(|&x| after_best_discard(eval, hand, x, None))
                .sum::<f64>()
                / samples.len() as f64
        };
        if with < expected - TAKE_MARGIN || stock.is_none() {
            return take;
        }
    }
    stock.unwrap_or_else(|| legal[0].clone())
}

/// The hand's value after adding `card` and discarding the best other card
/// (`keep`: a card that may not be discarded).
fn after_best_discard(
    eval: &Eval,
    hand: &[CardKind],
    card: CardKind,
    keep: Option<CardKind>,
) -> f64 {
    let mut h = hand.to_vec();
    h.push(card);
    let mut kinds = h.clone();
    kinds.sort_unstable();
    kinds.dedup();
    kinds.retain(|&k| Some(k) != keep || h.iter().filter(|&&x| x == k).count() > 1);
    eval.best_removal(&h, &kinds, Measure::Hand, |_, v| v)
        .map_or(f64::INFINITY, |(_, v)| v)
}

/// The discard (or call of Rommé).
pub(crate) fn discard(
    view: &View,
    seat: usize,
    legal: &[Action],
    eval: &Eval,
    hand: &[CardKind],
) -> Option<Action> {
    if let Some(call) = legal.iter().find(|a| matches!(a, Action::CallRomme { .. })) {
        return Some(call.clone());
    }
    let wanted = wanted_by_next(view, seat);
    let options: Vec<(CardKind, &Action)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard { card } => Some((*card, a)),
            _ => None,
        })
        .collect();
    let cards: Vec<CardKind> = options.iter().map(|o| o.0).collect();
    let score = |i: usize, value: f64| {
        let card = cards[i];
        let mut v = value - 0.01 * f64::from(eval.points(card));
        if hand.len() == 3 {
            if let [x, y] = without(hand, card)[..] {
                // Two cards left: a pair or neighbours wait for a third.
                if related(x, y) || x.is_joker() || y.is_joker() {
                    v -= DANGER;
                }
            }
        }
        if card.is_joker() {
            v += JOKER_KEEP * 2.0;
        }
        if wanted.iter().any(|w| related(*w, card)) {
            v += DANGER;
        }
        v
    };
    let (i, _) = eval.best_removal(hand, &cards, Measure::Hand, score)?;
    Some(options[i].1.clone())
}

/// Cards the next playing seat is known to hold (taken from the discard
/// pile, bought).
fn wanted_by_next(view: &View, seat: usize) -> Vec<CardKind> {
    let playing: Vec<usize> = view
        .seats
        .iter()
        .filter(|s| s.playing)
        .map(|s| s.seat)
        .collect();
    let next = playing
        .iter()
        .copied()
        .find(|&s| s > seat)
        .or_else(|| playing.first().copied());
    match next {
        Some(n) if n != seat => view.seats[n].known.clone(),
        _ => Vec::new(),
    }
}

/// Same rank, or a neighbour (within two) in the same suit.
fn related(a: CardKind, b: CardKind) -> bool {
    match (a.face(), b.face()) {
        (Some(x), Some(y)) => {
            x.rank == y.rank || (x.suit == y.suit && (x.rank as i32 - y.rank as i32).abs() <= 2)
        }
        _ => false,
    }
}

/// Out of turn: buy or knock for the discarded card when it completes a
/// meld and lowers the deadwood by at least 10.
pub(crate) fn claim(g: &Game, seat: usize, legal: &[Action]) -> Option<Action> {
    let a = legal.first()?;
    let card = g.view(Some(seat)).discard.last().copied()?;
    let eval = Eval::for_game(g);
    let hand = kinds(g.hand(seat).unwrap_or(&[]));
    let (now, melded) = eval.deadwood(&hand);
    let mut with = hand.clone();
    with.push(card);
    let (then, melded_then) = eval.deadwood(&with);
    (melded_then > melded && then + 10 <= now).then(|| a.clone())
}

/// Play a heuristic move for `seat` in a complete game (the expert's
/// playouts): a claim out of turn, else its move on turn.
pub(crate) fn playout_step(g: &Game, seat: usize) -> Option<Action> {
    // Plays are checked by trying them (see `decide`); is anything legal?
    let legal = g.legal_actions_unchecked_plays(seat);
    let any_legal = legal.iter().any(|a| !a.is_play()) || legal.iter().any(|a| g.accepts(seat, a));
    if !any_legal {
        return None;
    }
    if g.turn() != Some(seat) {
        return claim(g, seat, &legal);
    }
    if g.phase() == Phase::MatchOver {
        return None;
    }
    Some(decide(g, seat, &legal))
}

#[cfg(test)]
mod tests {
    use romme_core::ruleset::presets;

    use super::*;

    /// `decide` chooses the same with the legal list and with the list
    /// whose plays are not checked, at every turn of heuristic games of
    /// every preset; the second list does hold refused plays, and a list of
    /// nothing but a refused play gives what an empty legal list gives.
    #[test]
    fn unchecked_plays_change_no_choice() {
        let (mut turns, mut refused) = (0, 0);
        for name in presets::NAMES {
            let rules = presets::load(name).expect("preset").expect("loads");
            let seats = if *name == "koenigs-solo" { 1 } else { 3 };
            for seed in 1..4 {
                let mut g = Game::new(rules.clone(), seats, seed).expect("game");
                for _ in 0..150 {
                    let Some(seat) = g.turn() else { break };
                    if g.phase() == Phase::MatchOver {
                        break;
                    }
                    let legal = g.legal_actions(seat);
                    let listed = g.legal_actions_unchecked_plays(seat);
                    refused += listed.len() - legal.len();
                    // A list of one refused play: as an empty legal list.
                    if let Some(r) = listed.iter().find(|a| !legal.contains(a)) {
                        let alone = std::slice::from_ref(r);
                        assert_eq!(decide(&g, seat, alone), Action::EndTurn, "{name}");
                    }
                    let choice = decide(&g, seat, &legal);
                    assert_eq!(decide(&g, seat, &listed), choice, "{name} seed {seed}");
                    turns += 1;
                    if g.apply(seat, choice).is_err() {
                        break;
                    }
                }
            }
        }
        assert!(turns > 2000, "{turns} turns");
        assert!(refused > 50, "{refused} refused plays listed");
    }
}
