//! The game state machine: a whole match from the first deal to the final
//! standings. [`Game`] holds the secret state (every hand, the stock order);
//! [`Game::apply`] is the only way to change it and leaves it untouched when
//! it refuses an action; [`Game::view`] is what one seat may know.
//!
//! Readings (where the texts leave room):
//! * Seat 0 deals the first game; the deal passes to the left (seat + 1).
//!   The player left of the dealer begins. With more seats than
//!   `players.active_per_game` the dealer sits the game out (`004` 2).
//! * Each game's shuffle comes from the match seed and the game number, so a
//!   record (ruleset, seats, seed, actions) replays exactly.
//! * `stock.when_empty = "end-game"` (`004` 5): the game ends when a turn
//!   would begin with an empty stock. With `"reshuffle"` the discard pile
//!   without its top card is shuffled into a new stock when a player draws
//!   from an empty stock; if there is nothing to reshuffle the game ends.
//! * An opening is one [`Action::Meld`]: the melds (and lay-offs, where they
//!   count) of that action together must reach the threshold. Later melds
//!   of the same turn need no minimum.
//! * A card that must be melded at once — taken from the discard pile under
//!   `discard_take = "meld-at-once"`, or a joker freed under
//!   `freed_must_be_melded` — goes into the very next meld or lay-off, and
//!   the discard or the exchange is only allowed when that is possible.
//! * When jokers may not be discarded, a play may not leave only jokers in
//!   the hand; a hand of jokers only (after drawing a joker) may discard one.
//! * A Hand-Rommé is going out in a turn that began before the player's
//!   opening; it is "with lay-offs" when the player laid off on another
//!   seat's meld or exchanged a joker in that turn.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use smallvec::{SmallVec, smallvec};

use romme_core::meld::{Declaration, MeldChecker, MeldKind};
use romme_core::ruleset::{JokerExchange, Ruleset};
use romme_core::scoring::sheet::MatchSheet;
use romme_core::{Card, CardKind, Face, MeldCard};
use romme_solver::SolverTables;
use serde::{Deserialize, Serialize};

use crate::action::{Action, LayOffPart};
use crate::claims::ClaimWindow;
use crate::error::{ActionError, NewGameError};
use crate::event::{Event, TableMeld};
use crate::legal::LyingTable;
use crate::meld_cache::MeldCache;
use crate::patience::Patience;
use crate::play::PutDownPlan;

/// Where the match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The seat on turn must draw.
    Draw,
    /// The seat on turn has drawn: meld, lay off, exchange, then discard.
    Play,
    /// The match is over.
    MatchOver,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Draw => "the seat on turn must draw",
            Phase::Play => "the seat on turn may meld, lay off and then discard",
            Phase::MatchOver => "the match is over",
        })
    }
}

/// An explicit first deal (for tests, puzzles and the `romme engine`
/// driver): the cards named here go where they are named; every other card
/// of the deck is shuffled below the named stock cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Hands by seat (a seat sitting out gets an empty list).
    pub hands: Vec<Vec<CardKind>>,
    /// The turned-up card starting the discard pile; `None`: the stock's
    /// top card is turned up as usual.
    #[serde(default)]
    pub discard: Option<CardKind>,
    /// The next cards of the stock, top first.
    #[serde(default)]
    pub stock: Vec<CardKind>,
}

/// A meld on the table with its physical cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Meld {
    pub owner: usize,
    pub kind: MeldKind,
    /// Physical cards in meld order with the face a wild card stands for.
    /// (Shared: a table copied for a play copies its melds without their
    /// cards.)
    pub cards: Arc<[(Card, Option<Face>)]>,
    /// The same cards as shown ([`TableMeld::cards`]): made once with the
    /// meld and shared by every event and view that shows it. (A meld is
    /// never changed in place: a lay-off or an exchange makes a new one.)
    shown: Arc<[MeldCard]>,
}

impl Meld {
    /// The meld of `owner` of `kind` with the physical `cards`.
    pub(crate) fn new(owner: usize, kind: MeldKind, cards: Vec<(Card, Option<Face>)>) -> Meld {
        let shown = cards
            .iter()
            .map(|&(c, f)| MeldCard {
                card: c.kind(),
                stands_for: f,
            })
            .collect();
        Meld {
            owner,
            kind,
            cards: cards.into(),
            shown,
        }
    }

    /// The cards as shown, wild cards with their declaration.
    pub(crate) fn meld_cards(&self) -> Vec<MeldCard> {
        self.shown().to_vec()
    }

    /// [`Meld::meld_cards`], borrowed.
    pub(crate) fn shown(&self) -> &[MeldCard] {
        self.check_shown();
        &self.shown
    }

    /// The cards as shown with `more` after them (a lay-off's), in a
    /// vector made to their size.
    pub(crate) fn shown_with(&self, more: &[MeldCard]) -> Vec<MeldCard> {
        let shown = self.shown();
        let mut cards = Vec::with_capacity(shown.len() + more.len());
        cards.extend_from_slice(shown);
        cards.extend_from_slice(more);
        cards
    }

    /// The meld as events and views show it.
    pub(crate) fn public(&self) -> TableMeld {
        self.check_shown();
        TableMeld {
            owner: self.owner,
            cards: Arc::clone(&self.shown),
        }
    }

    /// (Debug builds:) the cards as shown are still the physical ones.
    fn check_shown(&self) {
        debug_assert!(
            self.shown.len() == self.cards.len()
                && self
                    .shown
                    .iter()
                    .zip(self.cards.iter())
                    .all(|(s, &(c, f))| s.card == c.kind() && s.stands_for == f),
            "a meld changed in place: {self:?}"
        );
    }
}

/// The melds on the table, in table order, and what is worked out from
/// them the first time it is asked for: what the listing of legal actions
/// asks of them ([`LyingTable`]) and their checks (for the solver's way
/// out). A table lies unchanged for many turns and is listed for at every
/// decision, so these are kept with it, read without a lock: games that
/// share the table (a game and its copies) share them, and a table
/// changed through [`Table::melds_mut`] or copied starts without them. A
/// cache, not state: tables compare by their melds. Reads as the melds.
#[derive(Default)]
pub(crate) struct Table {
    melds: Vec<Meld>,
    lying: OnceLock<LyingTable>,
    checks: OnceLock<TableChecks>,
}

/// A table's melds as cards, and each one's check (`None` when one fails).
pub(crate) type TableChecks = (Vec<Vec<MeldCard>>, Option<Vec<Declaration>>);

impl Table {
    /// The melds to change; what was worked out from them is dropped.
    pub(crate) fn melds_mut(&mut self) -> &mut Vec<Meld> {
        self.lying = OnceLock::new();
        self.checks = OnceLock::new();
        &mut self.melds
    }

    /// What the listing asks of the melds, worked out by `make` the first
    /// time.
    pub(crate) fn lying(&self, make: impl FnOnce(&[Meld]) -> LyingTable) -> &LyingTable {
        self.lying.get_or_init(|| make(&self.melds))
    }

    /// The melds as cards and their checks, worked out by `make` the first
    /// time.
    pub(crate) fn checks(&self, make: impl FnOnce() -> TableChecks) -> &TableChecks {
        self.checks.get_or_init(make)
    }
}

impl From<Vec<Meld>> for Table {
    fn from(melds: Vec<Meld>) -> Table {
        Table {
            melds,
            lying: OnceLock::new(),
            checks: OnceLock::new(),
        }
    }
}

/// A copy is made to be changed: it starts without the lying table.
impl Clone for Table {
    fn clone(&self) -> Table {
        Table::from(self.melds.clone())
    }
}

/// Shown as its melds.
impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.melds.fmt(f)
    }
}

/// Tables are equal when their melds are.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.melds == other.melds
    }
}

impl std::ops::Deref for Table {
    type Target = Vec<Meld>;
    fn deref(&self) -> &Vec<Meld> {
        &self.melds
    }
}

/// What the seat on turn has done so far in this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TurnState {
    /// The card taken from the discard pile, while it must still be melded.
    pub taken: Option<Card>,
    /// The card taken from the discard pile this turn (public).
    pub took: Option<Card>,
    /// Jokers freed by exchange that must still be melded.
    pub freed: Vec<Card>,
    /// A joker was exchanged this turn.
    pub exchanged: bool,
    /// Laid off on another seat's meld this turn.
    pub laid_off_on_others: bool,
    /// The seat had opened when the turn began.
    pub opened_before: bool,
}

/// The end of a game once a player has laid down or knocked while the
/// others still play a last turn (Five Crowns, Wiener knock).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LastTurns {
    /// The seat that laid down or knocked.
    pub by: usize,
    /// It knocked (Wiener): the others draw from the stock and discard once.
    pub knocked: bool,
    /// Seats still to play their last turn, in turn order (the seat on
    /// turn is no longer listed).
    pub left: Vec<usize>,
}

/// A hand's cards (and the cards known in it): on the stack up to the
/// usual hand sizes, so that copying a game for a legality check or a
/// seat's view does not allocate.
pub(crate) type Hand = SmallVec<[Card; 24]>;

/// Put `card` into the sorted `hand` where it belongs (a hand is kept
/// sorted; one card in costs less than sorting it again).
pub(crate) fn put_in_hand(hand: &mut Hand, card: Card) {
    debug_assert!(hand.is_sorted(), "hand {hand:?} not sorted");
    let at = hand.partition_point(|&c| c < card);
    hand.insert(at, card);
}

/// The stock or the discard pile: on the stack up to two decks and jokers.
pub(crate) type Pile = SmallVec<[Card; 128]>;

/// One entry per seat: on the stack up to six seats.
pub(crate) type Seats<T> = SmallVec<[T; 6]>;

/// Events a new match has room for before its history grows: random
/// four-seat `klassisch` matches hold 325 on average (961 at most over
/// 300), and growing the history from nothing copied it eight times over
/// (1.3 % of such a match's instructions).
const HISTORY_RESERVE: usize = 512;

/// ... and actions in its log (such a match holds 220 on average, and
/// more than 256 in three of ten: growing the log copied it, 0.5 % of the
/// instructions).
const LOG_RESERVE: usize = 512;

/// A whole match of one ruleset: the single source of truth.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) seats: usize,
    pub(crate) seed: u64,
    /// Shared between forks until one of them records a game.
    pub(crate) sheet: Arc<MatchSheet>,
    /// Game number, 1-based.
    pub(crate) game_no: u32,
    pub(crate) dealer: usize,
    /// Seats playing this game, in turn order.
    pub(crate) players: Seats<usize>,
    pub(crate) hands: Seats<Hand>,
    /// Top = last. Split into piles (`stock.piles`): pile `i` is the
    /// `i`-th segment, `pile_sizes[i]` cards long, its top the segment's end.
    pub(crate) stock: Pile,
    pub(crate) pile_sizes: SmallVec<[usize; 4]>,
    /// Top = last.
    pub(crate) discard: Pile,
    /// Shared between forks (legality checks, seat views) until one of
    /// them changes the table.
    pub(crate) table: Arc<Table>,
    pub(crate) opened: Seats<bool>,
    pub(crate) first_to_meld: Option<usize>,
    pub(crate) turn: usize,
    pub(crate) phase: Phase,
    pub(crate) ts: TurnState,
    /// Last turns of the others after a lay-down or knock, if running.
    pub(crate) ending: Option<LastTurns>,
    /// The card just discarded while it may be bought or knocked for.
    pub(crate) window: Option<ClaimWindow>,
    /// Cards every seat saw go into a seat's hand (taken from the discard
    /// pile, bought, knocked for); shown while they stay in that hand.
    pub(crate) known: Seats<Hand>,
    /// The solo patience's eleven hands, when that is the game.
    pub(crate) patience: Option<Patience>,
    /// Reshuffles in this game (for their seeds).
    pub(crate) reshuffles: u32,
    pub(crate) history: Vec<Event>,
    pub(crate) log: Vec<(usize, Action)>,
    /// The explicit first deal, if any (kept for records).
    pub(crate) fixed: Option<Deal>,
    /// The partition solver's tables for this game's ruleset and round.
    pub(crate) solver: SolverCache,
    /// The readings of candidate meld groups for this game's ruleset and
    /// round (see [`MeldCache`]).
    pub(crate) melds: MeldCache,
    /// Set on a copy that only tries an action (see [`Trial`]).
    pub(crate) trial: Trial,
    /// The play last drawn and checked by `random_legal_action` (see
    /// [`PlannedPlay`]).
    pub(crate) planned: PlannedPlay,
}

/// The action that `random_legal_action` last drew and found legal on
/// this game, with what it changes, so that applying it next (as a
/// simulation does at once) does not check or play it a second time: a
/// play of new melds or lay-offs with its plan, or an action `accepts`
/// tried on a copy of the game (a joker exchange, a draw that reshuffles,
/// a call of Rommé) with that copy after it. Not part of the state: a
/// copy starts without one, any two compare equal, and every action
/// applied to the game takes it out, so it serves only the next action
/// applied, and only when that is the same action of the same seat
/// (nothing changes a game but its actions; `accepts` and the listings
/// only read it).
#[derive(Default)]
pub(crate) struct PlannedPlay(Mutex<Option<(usize, Action, Kept)>>);

/// What [`PlannedPlay`] keeps of an action. (One per game, so its size
/// does not matter; a boxed plan would cost an allocation per play drawn.)
#[allow(clippy::large_enum_variant)]
enum Kept {
    /// A play's plan, committed by `act`.
    Plan(PutDownPlan),
    /// The copy of the game the action was tried on, after it, and the
    /// events it caused (boxed: a game is large, a plan small).
    Tried(Box<(Game, Vec<Event>)>),
}

impl PlannedPlay {
    /// Keep `plan`, `seat`'s checked `action`.
    pub(crate) fn keep(&self, seat: usize, action: &Action, plan: PutDownPlan) {
        self.put(seat, action, Kept::Plan(plan));
    }

    /// Keep `after`, the copy of the game `seat`'s `action` was tried on,
    /// and the events it caused.
    fn keep_tried(&self, seat: usize, action: &Action, after: Game, events: Vec<Event>) {
        self.put(seat, action, Kept::Tried(Box::new((after, events))));
    }

    fn put(&self, seat: usize, action: &Action, kept: Kept) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *slot = Some((seat, action.clone(), kept));
    }

    /// Take what is kept out; it is handed back only if it is `seat`'s
    /// `action`.
    fn take(&mut self, seat: usize, action: &Action) -> Option<Kept> {
        let kept = self
            .0
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        (kept.0 == seat && kept.1 == *action).then_some(kept.2)
    }
}

impl Clone for PlannedPlay {
    fn clone(&self) -> PlannedPlay {
        PlannedPlay::default()
    }
}

impl PartialEq for PlannedPlay {
    fn eq(&self, _: &PlannedPlay) -> bool {
        true
    }
}

impl std::fmt::Debug for PlannedPlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlannedPlay")
    }
}

/// Whether a game is a copy made only to try an action (`accepts`): its
/// refusals are not worded, since nobody reads them (wording a refused
/// meld reads its cards again). Not part of the state: any two compare
/// equal.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Trial(pub(crate) bool);

impl PartialEq for Trial {
    fn eq(&self, _: &Trial) -> bool {
        true
    }
}

/// The partition solver's tables for the game in progress, built the first
/// time the engine asks the solver (how to go out, a concealed hand's
/// melds, the listed rearrangement). Cells shared by the game and its forks
/// (legality checks, seat views and the games a bot deals from them), so
/// whichever asks first builds the tables for all. A cache, not part of the
/// state: any two caches compare equal, and a new game starts with cells of
/// its own.
#[derive(Clone, Default)]
pub(crate) struct SolverCache(Arc<SolverCells>);

/// The cells of a [`SolverCache`].
#[derive(Default)]
struct SolverCells {
    /// For the game's ruleset and round.
    game: KeptTables,
    /// For the listed rearrangement (the ruleset with joker exchanges off,
    /// see `Game::rearrange_candidates`).
    listing: KeptTables,
}

/// A cell of solver tables, with the game's ruleset they were made for
/// (`None`: the solver refuses it).
type KeptTables = OnceLock<Option<(Arc<Ruleset>, Arc<SolverTables>)>>;

impl std::fmt::Debug for SolverCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.0.game.get().is_some_and(Option::is_some);
        write!(f, "SolverCache {{ built: {built} }}")
    }
}

impl PartialEq for SolverCache {
    fn eq(&self, _: &SolverCache) -> bool {
        true
    }
}

impl Game {
    /// The partition solver's tables for this game's ruleset and round,
    /// built the first time they are asked for and shared by the game's
    /// copies and seat views (bots make their solvers from them). `None`
    /// when the solver refuses the ruleset.
    pub fn solver_tables(&self) -> Option<Arc<SolverTables>> {
        self.kept_tables(&self.solver.0.game, Arc::clone)
    }

    /// The solver's tables for the listed rearrangement: the game's ruleset
    /// with joker exchanges off (an exchange is an action of its own), built
    /// once per game like [`Game::solver_tables`]. `None` when the solver
    /// refuses the ruleset.
    pub(crate) fn listing_tables(&self) -> Option<Arc<SolverTables>> {
        self.kept_tables(&self.solver.0.listing, |rules| {
            let mut rules = (**rules).clone();
            rules.jokers.exchange = JokerExchange::Never;
            Arc::new(rules)
        })
    }

    /// The tables `cell` keeps, for the ruleset `derive` makes of this
    /// game's, and its round: built the first time; built afresh and not
    /// kept when the cell was filled for another ruleset or round (a copy
    /// handed caches it cannot use).
    fn kept_tables(
        &self,
        cell: &KeptTables,
        derive: impl Fn(&Arc<Ruleset>) -> Arc<Ruleset>,
    ) -> Option<Arc<SolverTables>> {
        let round = self.round();
        let build = || {
            let tables = SolverTables::new(derive(&self.rules), round).ok()?;
            Some((Arc::clone(&self.rules), Arc::new(tables)))
        };
        match cell.get_or_init(build) {
            Some((from, t)) if t.round() == round && Arc::ptr_eq(from, &self.rules) => {
                Some(Arc::clone(t))
            }
            _ => build().map(|(_, t)| t),
        }
    }
}

/// What a game has worked out for its ruleset and round that the next
/// match of the same ruleset can use (a simulation plays thousands): the
/// partition solver's tables and the readings of meld groups (see
/// [`Game::warm_caches`]). Answers are the same with or without them; only
/// the time differs.
#[derive(Debug, Clone, Default)]
pub struct WarmCaches {
    rules: Option<Arc<Ruleset>>,
    round: Option<u8>,
    solver: SolverCache,
    melds: MeldCache,
}

impl Game {
    /// This game's caches, for [`Game::use_warm_caches`] of the next match.
    pub fn warm_caches(&self) -> WarmCaches {
        WarmCaches {
            rules: Some(Arc::clone(&self.rules)),
            round: self.round(),
            solver: self.solver.clone(),
            melds: self.melds.clone(),
        }
    }

    /// Take over `caches` if they were made for this game's ruleset and
    /// round; otherwise keep this game's own. The game then shares the
    /// caches' copy of the (equal) ruleset, which the solver's tables are
    /// kept with.
    pub fn use_warm_caches(&mut self, caches: &WarmCaches) {
        let Some(rules) = &caches.rules else {
            return;
        };
        let same_rules = Arc::ptr_eq(rules, &self.rules) || **rules == *self.rules;
        if same_rules && caches.round == self.round() {
            self.rules = Arc::clone(rules);
            self.solver = caches.solver.clone();
            self.melds = caches.melds.clone();
        }
    }
}

/// A copy of per-seat hands, each copied as one block (`SmallVec`'s
/// `clone` copies card by card).
pub(crate) fn copy_hands(hands: &[Hand]) -> Seats<Hand> {
    let mut out = Seats::with_capacity(hands.len());
    for h in hands {
        out.push(Hand::from_slice(h));
    }
    out
}

/// Seed of a game's shuffle (or of its `k`-th reshuffle) from the match seed.
pub(crate) fn derived_seed(seed: u64, game: u32, reshuffle: u32) -> u64 {
    // SplitMix64 over the three numbers.
    let mut z = seed
        ^ (u64::from(game)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(reshuffle)).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Game {
    /// A new match: `seats` players, the shuffle from `seed`. The first game
    /// is dealt at once; [`Game::events`] holds its start.
    pub fn new(rules: Ruleset, seats: usize, seed: u64) -> Result<Game, NewGameError> {
        Game::start(rules, seats, seed, None)
    }

    /// A new match; the first game dealt as `fixed` says, if given.
    fn start(
        rules: Ruleset,
        seats: usize,
        seed: u64,
        fixed: Option<Deal>,
    ) -> Result<Game, NewGameError> {
        let p = &rules.players;
        if seats < usize::from(p.min) || seats > usize::from(p.max) {
            return Err(NewGameError::Seats {
                seats,
                min: p.min,
                max: p.max,
            });
        }
        if let Err(violations) = rules.validate() {
            let text: Vec<String> = violations.iter().map(ToString::to_string).collect();
            return Err(NewGameError::InvalidRules(text.join("; ")));
        }
        MeldChecker::new(&rules, rules.melds.wilds.round_wild.then_some(1))?;
        let mut game = Game {
            rules: Arc::new(rules),
            seats,
            seed,
            sheet: Arc::new(MatchSheet::new(seats)),
            game_no: 0,
            dealer: seats - 1,
            players: Seats::new(),
            hands: smallvec![Hand::new(); seats],
            stock: Pile::new(),
            pile_sizes: SmallVec::new(),
            discard: Pile::new(),
            table: Arc::default(),
            opened: smallvec![false; seats],
            first_to_meld: None,
            turn: 0,
            phase: Phase::Draw,
            ts: TurnState::default(),
            ending: None,
            window: None,
            known: smallvec![Hand::new(); seats],
            patience: None,
            reshuffles: 0,
            history: Vec::with_capacity(HISTORY_RESERVE),
            log: Vec::with_capacity(LOG_RESERVE),
            fixed,
            solver: SolverCache::default(),
            melds: MeldCache::default(),
            trial: Trial::default(),
            planned: PlannedPlay::default(),
        };
        let mut events = std::mem::take(&mut game.history);
        game.deal(&mut events)?;
        game.history = events;
        Ok(game)
    }

    /// A new match whose first game is dealt as `deal` says.
    pub fn with_deal(
        rules: Ruleset,
        seats: usize,
        seed: u64,
        deal: Deal,
    ) -> Result<Game, NewGameError> {
        Game::start(rules, seats, seed, Some(deal))
    }

    /// The explicit first deal, if the match was created with one.
    pub fn fixed_deal(&self) -> Option<&Deal> {
        self.fixed.as_ref()
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The match seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat on turn (`None` once the match is over).
    pub fn turn(&self) -> Option<usize> {
        (self.phase != Phase::MatchOver).then_some(self.turn)
    }

    /// The current game number (1-based).
    pub fn game_number(&self) -> u32 {
        self.game_no
    }

    /// The match score sheet.
    pub fn sheet(&self) -> &MatchSheet {
        &self.sheet
    }

    /// Every event so far (with secrets: filter with [`Event::for_viewer`]).
    pub fn events(&self) -> &[Event] {
        &self.history
    }

    /// Every accepted action so far, with its seat.
    pub fn actions(&self) -> &[(usize, Action)] {
        &self.log
    }

    /// Every physical card, wherever it is (hands, stock, discard pile,
    /// table): for conservation checks.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.hands.iter().flatten().copied().collect();
        out.extend(self.stock.iter().copied());
        out.extend(self.discard.iter().copied());
        out.extend(self.table.iter().flat_map(|m| m.cards.iter().map(|c| c.0)));
        if let Some(p) = &self.patience {
            out.extend(p.hands.iter().flatten().copied());
        }
        out
    }

    /// A seat's hand (secret state, for tests and the server's own use).
    pub fn hand(&self, seat: usize) -> Option<&[Card]> {
        self.hands.get(seat).map(Hand::as_slice)
    }

    /// The stock, top last (secret state).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The melds on the table, in table order, wild cards declared (the
    /// views' `table` without the owners, without building a view).
    pub fn table_melds(&self) -> Vec<Vec<MeldCard>> {
        self.table.iter().map(Meld::meld_cards).collect()
    }

    /// Whether `seat` has opened (melded) in this game.
    pub fn has_opened(&self, seat: usize) -> bool {
        self.opened.get(seat).copied().unwrap_or(false)
    }

    /// The top card of the discard pile.
    pub fn discard_top(&self) -> Option<CardKind> {
        self.discard.last().map(|c| c.kind())
    }

    /// Whether this is the solo patience (placing cards on open hands).
    pub fn is_patience(&self) -> bool {
        self.patience.is_some()
    }

    /// The meld checker (the ruleset was accepted by `new`, so this only
    /// fails if that check was wrong).
    pub(crate) fn checker(&self) -> Result<MeldChecker<'_>, ActionError> {
        MeldChecker::new(&self.rules, self.round())
            .map_err(|e| ActionError::Internal(e.to_string()))
    }

    /// The Five Crowns round (the game number) where the ruleset has round
    /// wilds; `None` otherwise.
    pub fn round(&self) -> Option<u8> {
        self.rules
            .melds
            .wilds
            .round_wild
            .then(|| u8::try_from(self.game_no).unwrap_or(u8::MAX))
    }

    /// The card just discarded while it may be bought or knocked for (the
    /// views' `claims`, without building a view).
    pub fn claims(&self) -> Option<crate::claims::Claims> {
        self.window.as_ref().map(ClaimWindow::public)
    }

    /// The last turns running after a lay-down or knock, if any.
    pub fn last_turns(&self) -> Option<&LastTurns> {
        self.ending.as_ref()
    }

    /// Apply `seat`'s action. On success the events it caused; on error the
    /// game is exactly as before.
    pub fn apply(&mut self, seat: usize, action: Action) -> Result<Vec<Event>, ActionError> {
        self.precheck(seat, &action)?;
        let mut events = Vec::new();
        if self.checked_before_change(&action) {
            // `act` refuses it before it changes anything: no copy needed.
            self.act(seat, &action, &mut events)?;
            self.log.push((seat, action));
            self.history.extend(events.iter().cloned());
            return Ok(events);
        }
        if let Some(Kept::Tried(tried)) = self.planned.take(seat, &action) {
            let (next, events) = *tried;
            self.adopt(seat, action, next, &events);
            return Ok(events);
        }
        self.apply_on_copy(seat, action, &mut events)
            .map_err(|refused| refused.0)?;
        Ok(events)
    }

    /// [`Game::apply`] for a caller that reads the events from the history
    /// (a simulation's driver): they are moved there, not copied. A refused
    /// action comes back with the error (the game as it was), so that the
    /// caller need not keep a copy of every action it applies to report
    /// the few that are refused.
    pub fn apply_quietly(
        &mut self,
        seat: usize,
        action: Action,
    ) -> Result<(), Box<(ActionError, Action)>> {
        if let Err(e) = self.precheck(seat, &action) {
            return Err(Box::new((e, action)));
        }
        if self.checked_before_change(&action) {
            // The events go straight into the history (no vector of their
            // own per action); a refusal leaves it as it was.
            let mut history = std::mem::take(&mut self.history);
            let before = history.len();
            let done = self.act(seat, &action, &mut history);
            if done.is_err() {
                history.truncate(before);
            }
            self.history = history;
            if let Err(e) = done {
                return Err(Box::new((e, action)));
            }
            self.log.push((seat, action));
            return Ok(());
        }
        if let Some(Kept::Tried(tried)) = self.planned.take(seat, &action) {
            let (next, events) = *tried;
            self.adopt(seat, action, next, &events);
            return Ok(());
        }
        self.apply_on_copy(seat, action, &mut Vec::new())
            .map_err(Box::new)
    }

    /// Apply on a copy of the game (without the long history) and keep it
    /// only on success; the events are copied into the history. A refusal
    /// hands the action back.
    fn apply_on_copy(
        &mut self,
        seat: usize,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), (ActionError, Action)> {
        // Work on a copy (without the long history), keep it only on success.
        let mut next = self.fork();
        if let Err(e) = next.act(seat, &action, events) {
            return Err((e, action));
        }
        self.adopt(seat, action, next, events);
        Ok(())
    }

    /// Become `next`, a copy of this game after `seat`'s `action`, which
    /// caused `events`: the history and the log go on in it.
    fn adopt(&mut self, seat: usize, action: Action, mut next: Game, events: &[Event]) {
        next.history = std::mem::take(&mut self.history);
        next.log = std::mem::take(&mut self.log);
        next.log.push((seat, action));
        next.history.extend(events.iter().cloned());
        *self = next;
    }

    /// Whether `apply` would accept the action (checked in place where `act`
    /// checks before it changes anything, otherwise tried on a copy).
    pub fn accepts(&self, seat: usize, action: &Action) -> bool {
        self.accepts_keeping(seat, action, false)
    }

    /// [`Game::accepts`]; with `keep`, an accepted play of new melds or
    /// lay-offs is kept with its plan for the next action (see
    /// [`PlannedPlay`]).
    pub(crate) fn accepts_keeping(&self, seat: usize, action: &Action, keep: bool) -> bool {
        if self.precheck(seat, action).is_err() {
            return false;
        }
        // The commonest actions are checked in place.
        if self.patience.is_none() {
            let checked = match action {
                Action::Discard { card } => Some(self.discard_checks(seat, *card).map(|_| ())),
                Action::Draw { from } => self.draw_checks(seat, *from),
                Action::EndTurn => Some(self.end_turn_checks()),
                Action::Meld { melds, lay_offs } => {
                    let plan = self.put_down_plan(seat, melds, lay_offs, true);
                    Some(plan.map(|p| self.keep_plan(keep, seat, action, p)))
                }
                Action::LayOff { meld, cards } => {
                    let part = LayOffPart {
                        meld: *meld,
                        cards: cards.clone(),
                    };
                    let plan = self.put_down_plan(seat, &[], std::slice::from_ref(&part), true);
                    Some(plan.map(|p| self.keep_plan(keep, seat, action, p)))
                }
                _ => None,
            };
            if let Some(r) = checked {
                return r.is_ok();
            }
        }
        let mut next = self.fork();
        next.trial = Trial(true);
        let mut events = Vec::new();
        if next.act(seat, action, &mut events).is_err() {
            return false;
        }
        if keep {
            // The copy is the game after the action: applying it next
            // takes the copy instead of trying the action again.
            next.trial = self.trial;
            self.planned.keep_tried(seat, action, next, events);
        }
        true
    }

    /// Keep an accepted play's plan, if asked to.
    fn keep_plan(&self, keep: bool, seat: usize, action: &Action, plan: PutDownPlan) {
        if keep {
            self.planned.keep(seat, action, plan);
        }
    }

    /// Whether `act` makes every check of `action` before it changes the
    /// game, so that a refused action leaves the game as it was: a discard,
    /// ending the turn, new melds and lay-offs, and a draw while the stock
    /// has cards (from an empty stock the draw reshuffles the discard pile
    /// first).
    fn checked_before_change(&self, action: &Action) -> bool {
        self.patience.is_none()
            && match action {
                Action::Discard { .. }
                | Action::EndTurn
                | Action::Meld { .. }
                | Action::LayOff { .. } => true,
                Action::Draw { .. } => !self.stock.is_empty(),
                _ => false,
            }
    }

    /// The checks before an action is tried: the match runs, the seat
    /// plays, and it is its turn (or the action may be made out of turn).
    pub(crate) fn precheck(&self, seat: usize, action: &Action) -> Result<(), ActionError> {
        if self.phase == Phase::MatchOver {
            return Err(ActionError::MatchOver);
        }
        if seat >= self.seats {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if !self.players.contains(&seat) {
            return Err(ActionError::SitsOut(seat));
        }
        if seat != self.turn && !action.out_of_turn() {
            return Err(ActionError::NotYourTurn {
                expected: self.turn,
                got: seat,
            });
        }
        Ok(())
    }

    /// A copy of the state without the history and the action log, for
    /// trying actions in a search (cheaper than `clone` on a long game).
    pub fn detached(&self) -> Game {
        self.fork()
    }

    /// A copy of the state without the history and the action log (for
    /// trying actions).
    pub(crate) fn fork(&self) -> Game {
        Game {
            rules: Arc::clone(&self.rules),
            seats: self.seats,
            seed: self.seed,
            sheet: self.sheet.clone(),
            game_no: self.game_no,
            dealer: self.dealer,
            players: Seats::from_slice(&self.players),
            hands: copy_hands(&self.hands),
            stock: Pile::from_slice(&self.stock),
            pile_sizes: SmallVec::from_slice(&self.pile_sizes),
            discard: Pile::from_slice(&self.discard),
            table: self.table.clone(),
            opened: Seats::from_slice(&self.opened),
            first_to_meld: self.first_to_meld,
            turn: self.turn,
            phase: self.phase,
            ts: self.ts.clone(),
            ending: self.ending.clone(),
            window: self.window.clone(),
            known: copy_hands(&self.known),
            patience: self.patience.clone(),
            reshuffles: self.reshuffles,
            history: Vec::new(),
            log: Vec::new(),
            fixed: self.fixed.clone(),
            solver: self.solver.clone(),
            melds: self.melds.clone(),
            trial: self.trial,
            planned: PlannedPlay::default(),
        }
    }

    pub(crate) fn act(
        &mut self,
        seat: usize,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        // A play checked just before needs no second check.
        if let Some(Kept::Plan(plan)) = self.planned.take(seat, action) {
            self.commit_put_down(seat, plan, ev);
            return Ok(());
        }
        if self.patience.is_some() && !matches!(action, Action::Draw { .. } | Action::Place { .. })
        {
            return Err(ActionError::NotInPatience);
        }
        match action {
            Action::Draw { from } => self.draw(seat, *from, ev),
            Action::Meld { melds, lay_offs } => self.put_down(seat, melds, lay_offs, ev),
            Action::LayOff { meld, cards } => {
                let part = LayOffPart {
                    meld: *meld,
                    cards: cards.clone(),
                };
                self.put_down(seat, &[], std::slice::from_ref(&part), ev)
            }
            Action::ExchangeJoker { meld, card } => self.exchange(seat, *meld, *card, ev),
            Action::Discard { card } => self.discard_card(seat, *card, ev),
            Action::CallRomme { discard } => self.call_romme(seat, *discard, ev),
            Action::LayDown { melds, discard } => self.lay_down(seat, melds, *discard, ev),
            Action::Rearrange { table } => self.rearrange_table(seat, table, ev),
            Action::EndTurn => self.end_turn(seat, ev),
            Action::Place { hand, out } => self.place_in_hand(seat, *hand, *out, ev),
            Action::Buy => self.buy(seat, ev),
            Action::Knock => self.knock(seat, ev),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use romme_core::ruleset::presets;

    use super::{Game, SolverCache};

    /// A play `random_legal_action` drew is applied with the plan it kept
    /// (an action tried on a copy, with that copy), and makes the game
    /// (and events) that checking it again makes, on a copy without the
    /// plan, by `apply` and by `apply_quietly`; what is kept serves the
    /// next action only: the same action applied once more is checked
    /// anew, as on a copy. Random matches of every preset.
    #[test]
    fn a_kept_play_is_applied_as_checking_it_again_would() {
        use rand::SeedableRng;
        let (mut plays, mut other_kept, mut tried) = (0, 0, 0);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let seats = usize::from(rules.players.min).max(3);
            for seed in 0..3 {
                let Ok(mut game) = Game::new(rules.clone(), seats, seed) else {
                    continue;
                };
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..300 {
                    let Some(seat) = game.turn() else { break };
                    let Some(action) = game.random_legal_action(seat, &mut rng) else {
                        break;
                    };
                    let mut fresh = game.clone();
                    // Now and then another play is drawn (and kept) last:
                    // its plan must not be taken for this action's.
                    if plays % 2 == 0 {
                        let other = game.random_legal_action(seat, &mut rng);
                        other_kept +=
                            usize::from(other.is_some_and(|o| o.is_play() && o != action));
                    }
                    let on_copy = !game.checked_before_change(&action);
                    tried += usize::from(on_copy);
                    if plays % 3 == 1 {
                        let quiet = game.apply_quietly(seat, action.clone()).map_err(|e| e.0);
                        assert_eq!(
                            quiet,
                            fresh.apply_quietly(seat, action.clone()).map_err(|e| e.0),
                            "{name}"
                        );
                        assert_eq!(game.events(), fresh.events(), "{name}");
                    } else {
                        let kept = game.apply(seat, action.clone());
                        assert_eq!(kept, fresh.apply(seat, action.clone()), "{name}");
                    }
                    assert_eq!(game, fresh, "{name}");
                    if action.is_play() || on_copy {
                        plays += 1;
                        let mut again = game.clone();
                        let twice = game.apply(seat, action.clone());
                        assert_eq!(twice, again.apply(seat, action), "{name}");
                        assert_eq!(game, again, "{name}");
                    }
                }
            }
        }
        assert!(plays > 200, "only {plays} plays");
        assert!(other_kept > 50, "only {other_kept} other plays kept");
        assert!(tried > 50, "only {tried} actions tried on a copy");
    }

    /// A refused action comes back from `apply_quietly` with the error
    /// `apply` gives, the game as it was: refused by the first checks (out
    /// of turn), in place (a discard before drawing) and on a copy (an
    /// exchange on a meld that is not there).
    #[test]
    fn a_refused_action_comes_back_from_apply_quietly() {
        use crate::action::Action;
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("preset klassisch");
        };
        let mut game = Game::new(rules, 3, 7).expect("game");
        let Some(seat) = game.turn() else {
            panic!("a seat on turn");
        };
        let card = game.hands[seat][0].kind();
        let refused = [
            ((seat + 1) % 3, Action::Discard { card }),
            (seat, Action::Discard { card }),
            (seat, Action::ExchangeJoker { meld: 99, card }),
        ];
        for (who, action) in refused {
            let before = game.clone();
            let error = game
                .clone()
                .apply(who, action.clone())
                .expect_err("refused");
            let back = game
                .apply_quietly(who, action.clone())
                .expect_err("refused");
            assert_eq!(*back, (error, action.clone()), "{action:?}");
            assert!(game == before, "{action:?} changed the game");
            assert_eq!(game.events(), before.events(), "{action:?}");
        }
    }

    /// `apply_quietly` makes the same game as `apply` (state, log and
    /// history), and `apply` hands back exactly the events it added to the
    /// history: random matches of three presets (as many as it takes for
    /// 400 actions each), the two played side by side.
    #[test]
    fn applying_quietly_makes_the_same_game() {
        use rand::SeedableRng;
        for name in ["klassisch", "offen", "raeuber"] {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let mut actions = 0;
            for seed in 5..15 {
                let mut loud = Game::new(rules.clone(), 3, seed).expect("game");
                let mut quiet = Game::new(rules.clone(), 3, seed).expect("game");
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                while let Some(seat) = loud.turn() {
                    let Some(action) = loud.random_legal_action(seat, &mut rng) else {
                        break;
                    };
                    let before = loud.events().len();
                    let events = loud.apply(seat, action.clone()).expect("listed action");
                    assert_eq!(&loud.events()[before..], &events[..], "{name}");
                    quiet.apply_quietly(seat, action).expect("listed action");
                    assert!(
                        loud == quiet,
                        "{name} seed {seed}: the games differ after {actions} actions"
                    );
                    assert_eq!(loud.events(), quiet.events(), "{name}");
                    actions += 1;
                    if actions == 400 {
                        break;
                    }
                }
                if actions == 400 {
                    break;
                }
            }
            assert_eq!(actions, 400, "{name}: only {actions} actions");
        }
    }

    /// The solver's tables are built once per game and shared with its
    /// forks; a new game (Five Crowns: a new round and wild rank) gets its
    /// own, built for its round.
    #[test]
    fn solver_tables_are_kept_per_game() {
        let Some(Ok(rules)) = presets::load("koenigs") else {
            panic!("preset koenigs");
        };
        let mut game = Game::new(rules, 3, 7).expect("game");
        let first = game.solver_tables().expect("tables");
        assert_eq!(first.round(), game.round());
        assert!(Arc::ptr_eq(&first, &game.solver_tables().expect("tables")));
        let fork = game.fork();
        assert!(Arc::ptr_eq(&first, &fork.solver_tables().expect("tables")));
        assert_eq!(
            SolverCache::default(),
            fork.solver,
            "the cache is not part of the state"
        );
        let mut ev = Vec::new();
        game.deal(&mut ev).expect("next game");
        let second = game.solver_tables().expect("tables");
        assert!(!Arc::ptr_eq(&first, &second));
        assert_eq!(second.round(), game.round());
        assert_ne!(first.round(), second.round());
        // The fork kept the first game's tables.
        assert!(Arc::ptr_eq(&first, &fork.solver_tables().expect("tables")));
    }

    /// Discards and draws are checked and applied without a copy of the
    /// game: the answers and the games after them are exactly those of
    /// trying each on a copy. Random matches of every preset; at each turn
    /// every listed action, a discard of every card kind and a draw from
    /// every source (most of them refused, for every reason there is).
    #[test]
    fn actions_checked_in_place_match_trying_them_on_a_copy() {
        use crate::{Action, DrawSource};

        let (mut compared, mut refused) = (0usize, 0usize);
        let walks = crate::walk::Walks {
            seats: 2,
            matches: 3,
            steps: 400,
            seed: 5,
        };
        walks.run(|name, rules, game, seat| {
            let mut kinds: Vec<romme_core::CardKind> =
                rules.deck.cards().iter().map(|c| c.kind()).collect();
            kinds.sort_unstable();
            kinds.dedup();
            let mut tries = game.legal_actions(seat);
            tries.extend(kinds.iter().map(|&card| Action::Discard { card }));
            for from in [
                DrawSource::Stock,
                DrawSource::Discard,
                DrawSource::Pile(0),
                DrawSource::Pile(1),
                DrawSource::Pile(7),
            ] {
                tries.push(Action::Draw { from });
            }
            for a in &tries {
                let by_copy = game.precheck(seat, a).is_ok()
                    && game.fork().act(seat, a, &mut Vec::new()).is_ok();
                assert_eq!(game.accepts(seat, a), by_copy, "{name}: {a:?}");
                // Applied in place or on a copy: the same outcome.
                let mut in_place = game.clone();
                let got = in_place.apply(seat, a.clone());
                let mut copy = game.fork();
                let mut events = Vec::new();
                let want = game
                    .precheck(seat, a)
                    .and_then(|()| copy.act(seat, a, &mut events));
                match (got, want) {
                    (Ok(e), Ok(())) => {
                        assert_eq!(e, events, "{name}: {a:?}");
                        copy.history = game.history.clone();
                        copy.history.extend(events);
                        copy.log = game.log.clone();
                        copy.log.push((seat, a.clone()));
                        assert!(in_place == copy, "{name}: {a:?}");
                    }
                    (Err(e), Err(w)) => {
                        assert_eq!(e, w, "{name}: {a:?}");
                        assert!(in_place == *game, "{name}: {a:?} changed the game");
                        refused += 1;
                    }
                    (g, w) => panic!("{name}: {a:?}: {g:?} against {w:?}"),
                }
                compared += 1;
            }
        });
        assert!(compared > 10_000, "only {compared} actions compared");
        assert!(refused > 1_000, "only {refused} refusals compared");
    }

    /// A new match takes over the warm caches of a match of the same
    /// ruleset and round (equal rulesets, not only the same allocation),
    /// and keeps its own for another ruleset.
    #[test]
    fn warm_caches_go_to_matches_of_the_same_ruleset() {
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("preset klassisch");
        };
        let first = Game::new(rules.clone(), 3, 1).expect("game");
        let warm = first.warm_caches();
        let mut next = Game::new(rules, 4, 2).expect("game");
        next.use_warm_caches(&warm);
        assert!(next.melds.shares(&first.melds));
        let tables = first.solver_tables().expect("tables");
        let next_tables = next.solver_tables().expect("tables");
        assert!(
            Arc::ptr_eq(&tables, &next_tables),
            "the solver's tables too"
        );
        let Some(Ok(other)) = presets::load("offen") else {
            panic!("preset offen");
        };
        let mut other = Game::new(other, 3, 1).expect("game");
        other.use_warm_caches(&warm);
        assert!(!other.melds.shares(&first.melds));
        let mut none = Game::new(next.rules().clone(), 3, 1).expect("game");
        none.use_warm_caches(&super::WarmCaches::default());
        assert!(!none.melds.shares(&first.melds));
    }

    /// The readings of meld groups are kept per game like the solver's
    /// tables: one cache for the game, its forks and seat views, filled by
    /// listing legal actions, and a new one with the next deal.
    #[test]
    fn meld_readings_are_kept_per_game() {
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("preset klassisch");
        };
        let mut game = Game::new(rules, 3, 7).expect("game");
        let fork = game.fork();
        assert!(fork.melds.shares(&game.melds));
        // Draw, then list the plays: the hand's groups are read.
        let draw = crate::Action::Draw {
            from: crate::DrawSource::Stock,
        };
        game.apply(game.turn, draw).expect("draw");
        assert_eq!(game.melds.len(), 0);
        let listed = game.legal_actions(game.turn);
        assert!(listed.len() > 1);
        assert!(game.melds.len() > 0, "listing reads the hand's groups");
        assert_eq!(fork.melds.len(), game.melds.len(), "shared with the fork");
        // A seat's view lists on a copy of the game: the same cache.
        let before = game.melds.len();
        assert_eq!(game.seat_state(game.turn).legal_actions(), listed);
        assert_eq!(game.melds.len(), before, "the view found every group read");
        let mut ev = Vec::new();
        game.deal(&mut ev).expect("next game");
        assert!(!game.melds.shares(&fork.melds));
        assert_eq!(game.melds.len(), 0);
    }
}
