//! The moderators' actions as the store keeps them, behind their own
//! interface ([`ModerationStore`], which the PostgreSQL store fills too):
//! each action made and logged in one transaction (who, when, what, on
//! whom, why), the log read back, a rated game's points given back (its
//! changes marked refunded), the largest rating gains of a window with
//! the games that made them, and the rated games between two
//! players. The rules (who may act on whom, what a
//! reason is) are the service's (`awale-service/src/moderation.rs`).

use awale_model::account::{GainGame, LoggedAction, ModAction, NewModAction, RatingGain};
use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::{StoreError, StoreFuture};
use crate::ratings::RATING_LOCK_SPACE;
use crate::tx::{Backend, Tx};

/// Where the service keeps the moderators' actions.
pub trait ModerationStore: Send + Sync {
    /// Makes `action` (close, reopen, mute, unmute, dismiss, a rank
    /// granted or revoked) and logs it, in one transaction: whether it
    /// changed anything (false: it was so already, nothing logged).
    /// A refund is [`ModerationStore::refund_game`].
    fn moderate(&self, action: NewModAction) -> StoreFuture<'_, bool>;

    /// Gives back the rating points game `game` (a public id) moved, to
    /// both its players, marks its changes refunded and logs `action`
    /// (its `game` filled here), in one transaction: whether it did
    /// (false: the game was not rated, or was refunded already).
    fn refund_game(&self, game: String, action: NewModAction) -> StoreFuture<'_, bool>;

    /// The players whose ratings game `game` (a public id) changed, its
    /// refund aside: none when it was not rated.
    fn rated_players(&self, game: String) -> StoreFuture<'_, Vec<PlayerId>>;

    /// The last `limit` actions logged, newest first.
    fn mod_log(&self, limit: usize) -> StoreFuture<'_, Vec<LoggedAction>>;

    /// The accounts that gained at least `min_gain` points in rated games
    /// since `since_ms` (refunded games aside), the largest gain first,
    /// `limit` at most, each with its games of the window (refunded ones
    /// too, marked), newest first.
    fn rating_gains(
        &self,
        since_ms: i64,
        min_gain: f64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingGain>>;

    /// The rated games `a` played against `b` since `since_ms`, newest
    /// first, each seen from `a`'s side.
    fn games_between(
        &self,
        a: PlayerId,
        b: PlayerId,
        since_ms: i64,
    ) -> StoreFuture<'_, Vec<GainGame>>;
}

/// Logs `action` (as [`ModerationStore::moderate`] and
/// [`ModerationStore::refund_game`] do).
async fn log<X: Tx>(tx: &X, a: &NewModAction) -> Result<(), StoreError> {
    let values: [&dyn Value; 7] = [
        &a.at_ms,
        &a.by,
        &a.action.name(),
        &a.target,
        &a.game,
        &a.report,
        &a.reason,
    ];
    tx.execute(
        "INSERT INTO moderation_log (at_ms, by_account, action, target, game_id, report_id, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        &values,
    )
    .await?;
    Ok(())
}

/// The statement that makes `action` on account (or report) `?1`
/// (`?2`: when, for a close and a dismissal; `?3`: who acts, for a
/// dismissal), or None for an action made otherwise.
fn effect(action: ModAction) -> Option<&'static str> {
    Some(match action {
        ModAction::Close => {
            "UPDATE accounts SET closed_ms = ?2
             WHERE id = ?1 AND closed_ms IS NULL AND deleted_ms IS NULL"
        }
        ModAction::Reopen => {
            "UPDATE accounts SET closed_ms = NULL
             WHERE id = ?1 AND closed_ms IS NOT NULL AND deleted_ms IS NULL"
        }
        ModAction::Mute => "UPDATE accounts SET muted = TRUE WHERE id = ?1 AND NOT muted",
        ModAction::Unmute => "UPDATE accounts SET muted = FALSE WHERE id = ?1 AND muted",
        ModAction::Dismiss => {
            "UPDATE reports SET resolved_ms = ?2, resolved_by = ?3
             WHERE id = ?1 AND resolved_ms IS NULL"
        }
        ModAction::GrantModerator => {
            "UPDATE accounts SET role = 'moderator'
             WHERE id = ?1 AND role = 'player'"
        }
        ModAction::RevokeModerator => {
            "UPDATE accounts SET role = 'player'
             WHERE id = ?1 AND role = 'moderator'"
        }
        ModAction::GrantAdmin => {
            "UPDATE accounts SET role = 'admin'
             WHERE id = ?1 AND role <> 'admin'"
        }
        ModAction::RevokeAdmin => {
            "UPDATE accounts SET role = 'player'
             WHERE id = ?1 AND role = 'admin'"
        }
        ModAction::Refund => return None,
    })
}

/// Makes and logs `action` (as [`ModerationStore::moderate`]).
async fn moderate<X: Tx>(tx: &X, action: NewModAction) -> Result<bool, StoreError> {
    let Some(sql) = effect(action.action) else {
        return Err(StoreError::Refused(format!(
            "`{}` is not made by `moderate`",
            action.action.name()
        )));
    };
    let on = match action.action {
        ModAction::Dismiss => action.report,
        _ => action.target,
    };
    let Some(on) = on else {
        return Err(StoreError::Refused(format!(
            "`{}` names no account or report",
            action.action.name()
        )));
    };
    let values: Vec<&dyn Value> = match action.action {
        ModAction::Close => vec![&on, &action.at_ms],
        ModAction::Dismiss => vec![&on, &action.at_ms, &action.by],
        _ => vec![&on],
    };
    if tx.execute(sql, &values).await? != 1 {
        return Ok(false);
    }
    if action.action == ModAction::Close {
        tx.execute("DELETE FROM sessions WHERE account_id = ?1", &[&on])
            .await?;
    }
    log(tx, &action).await?;
    Ok(true)
}

/// Gives game `game`'s points back and logs `action` (as
/// [`ModerationStore::refund_game`]).
async fn refund<X: Tx>(tx: &X, game: String, mut action: NewModAction) -> Result<bool, StoreError> {
    let Some(id) = tx
        .value_opt::<i64>("SELECT id FROM games WHERE public_id = ?1", &[&game])
        .await?
    else {
        return Ok(false);
    };
    let changes: Vec<(String, String, f64)> = tx
        .query(
            "SELECT player, speed, rating_after - rating_before FROM rating_changes
             WHERE game_id = ?1 AND refunded_ms IS NULL ORDER BY side",
            &[&id],
            |r| Ok((r.cell(0)?, r.cell(1)?, r.cell(2)?)),
        )
        .await?;
    if changes.len() != 2 {
        return Ok(false);
    }
    let mut keys: Vec<&str> = changes.iter().map(|c| c.0.as_str()).collect();
    keys.sort_unstable();
    for key in keys {
        tx.lock(RATING_LOCK_SPACE, key).await?;
    }
    // Marked first: of two refunds at once, the second marks nothing.
    let marked = tx
        .execute(
            "UPDATE rating_changes SET refunded_ms = ?2
             WHERE game_id = ?1 AND refunded_ms IS NULL",
            &[&id, &action.at_ms],
        )
        .await?;
    if marked != 2 {
        return Err(StoreError::Refused(format!(
            "game {game} was refunded at the same time"
        )));
    }
    for (player, speed, moved) in &changes {
        let values: [&dyn Value; 3] = [player, speed, moved];
        tx.execute(
            "UPDATE ratings SET rating = rating - ?3 WHERE player = ?1 AND speed = ?2",
            &values,
        )
        .await?;
    }
    action.game = Some(id);
    log(tx, &action).await?;
    Ok(true)
}

/// The log, newest first, `?1` at most.
const MOD_LOG: &str = "SELECT l.id, l.at_ms, b.username, l.action, t.username, g.public_id,
        l.report_id, l.reason
     FROM moderation_log l LEFT JOIN accounts b ON b.id = l.by_account
     LEFT JOIN accounts t ON t.id = l.target
     LEFT JOIN games g ON g.id = l.game_id
     ORDER BY l.at_ms DESC, l.id DESC LIMIT ?1";

/// An action from a row of [`MOD_LOG`].
fn logged<R: Cells>(r: &R) -> Result<Option<LoggedAction>, R::Error> {
    let action: String = r.cell(3)?;
    let Some(action) = ModAction::from_name(&action) else {
        return Ok(None);
    };
    Ok(Some(LoggedAction {
        id: r.cell(0)?,
        at_ms: r.cell(1)?,
        by: r.cell(2)?,
        action,
        target: r.cell(4)?,
        game: r.cell(5)?,
        report: r.cell(6)?,
        reason: r.cell(7)?,
    }))
}

/// The accounts' gains since `?1` of at least `?2`, largest first, `?3`
/// at most.
const GAINS: &str = "SELECT a.username, c.player, SUM(c.rating_after - c.rating_before)
     FROM rating_changes c JOIN accounts a ON a.player = c.player
     WHERE c.at_ms > ?1 AND c.refunded_ms IS NULL
     GROUP BY a.username, c.player
     HAVING SUM(c.rating_after - c.rating_before) >= ?2
     ORDER BY SUM(c.rating_after - c.rating_before) DESC, a.username LIMIT ?3";

/// The columns of a [`GainGame`] of change `c` (its player's account `ca`,
/// the opponent's change `o` and account `oa`, the game `g`).
const GAIN_GAME_COLUMNS: &str = "g.public_id, COALESCE(ca.username, ''),
        COALESCE(oa.username, ''), c.rating_after - c.rating_before, c.at_ms, c.refunded_ms
     FROM rating_changes c JOIN games g ON g.id = c.game_id
     LEFT JOIN accounts ca ON ca.player = c.player
     LEFT JOIN rating_changes o ON o.game_id = c.game_id AND o.side <> c.side
     LEFT JOIN accounts oa ON oa.player = o.player";

/// A game of a gain from a row of [`GAIN_GAME_COLUMNS`].
fn gain_game<R: Cells>(r: &R) -> Result<GainGame, R::Error> {
    Ok(GainGame {
        game: r.cell(0)?,
        player: r.cell(1)?,
        opponent: r.cell(2)?,
        points: r.cell::<f64>(3)?.round() as i64,
        at_ms: r.cell(4)?,
        refunded_ms: r.cell(5)?,
    })
}

/// Games of a gain's list at most.
const GAIN_GAMES: i64 = 100;

impl<S: Backend> ModerationStore for S {
    fn moderate(&self, action: NewModAction) -> StoreFuture<'_, bool> {
        self.write(move |tx| Box::pin(moderate(tx, action)))
    }

    fn refund_game(&self, game: String, action: NewModAction) -> StoreFuture<'_, bool> {
        self.write(move |tx| Box::pin(refund(tx, game, action)))
    }

    fn rated_players(&self, game: String) -> StoreFuture<'_, Vec<PlayerId>> {
        self.read(move |tx| {
            Box::pin(async move {
                tx.query(
                    "SELECT c.player FROM rating_changes c JOIN games g ON g.id = c.game_id
                     WHERE g.public_id = ?1 ORDER BY c.side",
                    &[&game],
                    |r| Ok(PlayerId(r.cell(0)?)),
                )
                .await
            })
        })
    }

    fn mod_log(&self, limit: usize) -> StoreFuture<'_, Vec<LoggedAction>> {
        self.read(move |tx| {
            Box::pin(async move {
                let rows = tx.query(MOD_LOG, &[&(limit as i64)], |r| logged(r)).await?;
                Ok(rows.into_iter().flatten().collect())
            })
        })
    }

    fn rating_gains(
        &self,
        since_ms: i64,
        min_gain: f64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingGain>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 3] = [&since_ms, &min_gain, &(limit as i64)];
                let gainers: Vec<(String, String, f64)> = tx
                    .query(GAINS, &values, |r| Ok((r.cell(0)?, r.cell(1)?, r.cell(2)?)))
                    .await?;
                let sql = format!(
                    "SELECT {GAIN_GAME_COLUMNS} WHERE c.player = ?1 AND c.at_ms > ?2
                     ORDER BY c.at_ms DESC, c.game_id DESC LIMIT ?3"
                );
                let mut gains = Vec::new();
                for (username, player, gain) in gainers {
                    let values: [&dyn Value; 3] = [&player, &since_ms, &GAIN_GAMES];
                    let games = tx.query(&sql, &values, |r| gain_game(r)).await?;
                    gains.push(RatingGain {
                        username,
                        gain: gain.round() as i64,
                        games,
                    });
                }
                Ok(gains)
            })
        })
    }

    fn games_between(
        &self,
        a: PlayerId,
        b: PlayerId,
        since_ms: i64,
    ) -> StoreFuture<'_, Vec<GainGame>> {
        self.read(move |tx| {
            Box::pin(async move {
                let sql = format!(
                    "SELECT {GAIN_GAME_COLUMNS}
                     WHERE c.player = ?1 AND o.player = ?2 AND c.at_ms > ?3
                     ORDER BY c.at_ms DESC, c.game_id DESC LIMIT ?4"
                );
                let values: [&dyn Value; 4] = [&a.0, &b.0, &since_ms, &GAIN_GAMES];
                tx.query(&sql, &values, |r| gain_game(r)).await
            })
        })
    }
}
