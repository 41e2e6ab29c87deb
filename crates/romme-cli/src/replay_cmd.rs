//! `romme replay FILE`: a game record step by step, in words (or JSON).

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use romme_core::notation::format_cards;
use romme_engine::{DrawSource, EndReason, Event, LayDownKind, Record};

/// One event in words; `None` for events that need no line.
fn describe(e: &Event) -> Option<String> {
    Some(match e {
        Event::GameStarted {
            game,
            dealer,
            players,
            hand_size,
        } => format!("== game {game}: seat {dealer} deals {hand_size} cards to seats {players:?}"),
        Event::Dealt { seat, count, cards } => match cards {
            Some(c) => format!("seat {seat} holds {}", format_cards(c)),
            None => format!("seat {seat} holds {count} cards"),
        },
        Event::TurnedUp { card } => format!("{card} is turned up"),
        Event::TurnBegan { .. } => return None,
        Event::Drew { seat, from, card } => {
            let src = match from {
                DrawSource::Stock => "the stock".to_string(),
                DrawSource::Discard => "the discard pile".to_string(),
                DrawSource::Pile(p) => format!("stock pile {p}"),
            };
            match card {
                Some(c) => format!("seat {seat} draws {c} from {src}"),
                None => format!("seat {seat} draws from {src}"),
            }
        }
        Event::Melded {
            seat,
            melds,
            laid_off,
            opening,
            table,
        } => {
            let mut s = format!("seat {seat}");
            if let Some(points) = opening {
                let _ = write!(s, " opens with {points} points:");
            }
            for &i in melds {
                if let Some(m) = table.get(i) {
                    let _ = write!(s, " [{}]", format_cards(&m.cards));
                }
            }
            for &i in laid_off {
                if let Some(m) = table.get(i) {
                    let _ = write!(s, " lays off: meld {i} is now [{}]", format_cards(&m.cards));
                }
            }
            s
        }
        Event::JokerExchanged {
            seat,
            meld,
            card,
            result,
        } => format!(
            "seat {seat} puts {card} in meld {meld} for the joker: [{}]",
            format_cards(&result.cards)
        ),
        Event::Discarded { seat, card } => format!("seat {seat} discards {card}"),
        Event::LaidDown {
            seat,
            kind,
            melds,
            rest,
        } => {
            let mut s = format!(
                "seat {seat} {}:",
                match kind {
                    LayDownKind::Out => "lays down",
                    LayDownKind::Knock => "knocks and lays down",
                    LayDownKind::Partial => "lays down in the last turn",
                }
            );
            for m in melds {
                let _ = write!(s, " [{}]", format_cards(&m.cards));
            }
            if !rest.is_empty() {
                let _ = write!(s, ", keeps {}", format_cards(rest));
            }
            s
        }
        Event::Rearranged {
            seat,
            placed,
            table,
        } => {
            let mut s = format!(
                "seat {seat} rearranges the table with {}:",
                format_cards(placed)
            );
            for m in table {
                let _ = write!(s, " [{}]", format_cards(&m.cards));
            }
            s
        }
        Event::TurnEnded { seat } => format!("seat {seat} ends the turn"),
        Event::Placed { hand, out } => {
            format!("the drawn card goes into hand {hand}; {out} leaves the game")
        }
        Event::HandClosed { hand, melds } => {
            let mut s = format!("hand {hand} is laid down:");
            for m in melds {
                let _ = write!(s, " [{}]", format_cards(m));
            }
            s
        }
        Event::BuyAsked { seat, card } => format!("seat {seat} asks to buy {card}"),
        Event::Bought { seat, card } => format!("seat {seat} buys {card}"),
        Event::Knocked {
            seat,
            card,
            skipped,
        } => format!("seat {seat} knocks for {card}, skipping seats {skipped:?}"),
        Event::LastTurns { seats } => format!("last turn for seats {seats:?}"),
        Event::StockReshuffled { cards } => {
            format!("the discard pile is shuffled into a new stock of {cards} cards")
        }
        Event::GameEnded {
            reason,
            winner,
            hands,
            score,
        } => {
            let mut s = match (reason, winner) {
                (EndReason::WentOut, Some(w)) => format!("seat {w} goes out."),
                (EndReason::Knocked, Some(w)) => format!("seat {w} knocked: the game ends."),
                _ => "the stock is exhausted: the game ends.".to_string(),
            };
            for (seat, hand) in hands {
                let p = score.players.get(*seat);
                let _ = write!(
                    s,
                    "\n   seat {seat}: {} -> {} points{}",
                    if hand.is_empty() {
                        "-".to_string()
                    } else {
                        format_cards(hand)
                    },
                    p.map_or(0, |p| p.points),
                    p.and_then(|p| p.rating)
                        .map(|r| format!(", rating {r}"))
                        .unwrap_or_default()
                );
            }
            s
        }
        Event::MatchEnded { winners } => {
            format!("== the match is over; winner(s): seats {winners:?}")
        }
    })
}

/// Replay the record in `file`.
pub fn run(
    file: &Path,
    game_no: usize,
    seat: Option<usize>,
    json: bool,
    out: &mut String,
) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    // One record, or one per line (`romme simulate --out`).
    let record: Record = match serde_json::from_str(&text) {
        Ok(r) if game_no == 1 => r,
        _ => {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let Some(line) = game_no.checked_sub(1).and_then(|i| lines.get(i)) else {
                anyhow::bail!(
                    "{} holds {} record(s); there is no record {game_no}",
                    file.display(),
                    lines.len()
                );
            };
            serde_json::from_str(line).with_context(|| {
                format!(
                    "record {game_no} of {} is not a game record",
                    file.display()
                )
            })?
        }
    };
    if let Some(s) = seat.filter(|&s| s >= record.seats) {
        anyhow::bail!(
            "the record has {} seats; there is no seat {s}",
            record.seats
        );
    }
    let emit = |e: &Event, out: &mut String| {
        let e = match seat {
            Some(s) => e.for_viewer(Some(s)),
            None => e.clone(),
        };
        if json {
            if let Ok(line) = serde_json::to_string(&e) {
                let _ = writeln!(out, "{line}");
            }
        } else if let Some(line) = describe(&e) {
            let _ = writeln!(out, "{line}");
        }
    };
    let mut game = record
        .start()
        .context("the record's game cannot be created")?;
    let _ = writeln!(
        out,
        "{} ({}), {} seats, seed {}",
        record.rules.info.title_en, record.rules.name, record.seats, record.seed
    );
    for e in game.events() {
        emit(e, out);
    }
    for (index, (s, action)) in record.actions.iter().enumerate() {
        match game.apply(*s, action.clone()) {
            Ok(events) => events.iter().for_each(|e| emit(e, out)),
            Err(e) => {
                let _ = writeln!(
                    out,
                    "the record stops here: action {index} (seat {s}) was refused: {e}"
                );
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
