//! Every route group, combined under `/api`.

pub mod newsletter;
mod submission;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use crate::state::AppState;

/// All routes below `/api/` (the caller adds the prefix).
pub fn api(state: AppState) -> BoxedFilter<(Response,)> {
    newsletter::routes(state).boxed()
}
