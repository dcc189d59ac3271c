//! The opening explorer's handler (see [`awale_service::explorer`]): reads
//! the line asked and calls the service.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::{ClientIp, UrlQuery};
use crate::AppState;
use awale_service::explorer::{ExplorerFilter, ExplorerView};

/// The query of GET /api/explorer.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The moves from the start, as letters (`FfAa`); the start when
    /// absent.
    play: Option<String>,
    /// Games of this speed only (`blitz`...).
    speed: Option<String>,
    /// Rated games whose players' mean rating was at least this.
    min_rating: Option<i64>,
    /// Rated games whose players' mean rating was below this.
    max_rating: Option<i64>,
}

/// GET /api/explorer?play=MOVES&speed=S&min_rating=A&max_rating=B: the
/// position after the moves, each of its moves with the site's finished
/// games that played it (of that speed, of players rated from A to below
/// B on average) and their results and mean rating, and the databases'
/// value where they cover it; each legal move's evaluation (the engine's
/// small search, or the databases' exact result where they decide it),
/// the search on the computer's slots for the asker's address.
pub async fn show(
    State(state): State<AppState>,
    ClientIp(asker): ClientIp,
    UrlQuery(q): UrlQuery<ExplorerQuery>,
) -> Result<Json<ExplorerView>, ApiError> {
    let filter = ExplorerFilter::parse(q.speed.as_deref(), q.min_rating, q.max_rating)?;
    Ok(Json(
        state
            .shared
            .explorer
            .explore_games(q.play.as_deref(), filter, asker)
            .await?,
    ))
}
