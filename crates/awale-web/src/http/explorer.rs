//! The opening explorer's handler (see [`awale_service::explorer`]): reads
//! the line asked and calls the service.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::UrlQuery;
use crate::AppState;
use awale_service::explorer::ExplorerView;

/// The query of GET /api/explorer.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The moves from the start, as letters (`FfAa`); the start when
    /// absent.
    play: Option<String>,
}

/// GET /api/explorer?play=MOVES: the position after the moves, each of
/// its moves with the site's finished games that played it and their
/// results, and the databases' value where they cover it.
pub async fn show(
    State(state): State<AppState>,
    UrlQuery(q): UrlQuery<ExplorerQuery>,
) -> Result<Json<ExplorerView>, ApiError> {
    Ok(Json(
        state.shared.explorer.explore(q.play.as_deref()).await?,
    ))
}
