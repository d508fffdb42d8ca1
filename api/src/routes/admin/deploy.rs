//! The public site's state, for staff: `GET /api/admin/site-status` (whether the pages are
//! behind the database because a rebuild failed, why and since when), `GET
//! /api/admin/deploy` (the deploy bucket's queue: what is waiting, and the copy that fails,
//! if one does) and `POST /api/admin/deploy/retry` (try again now).

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let state_rebuilder = state.rebuilder.clone();
    let allowed_status = super::allowed(state.clone(), Cap::PostsPublishOwn);
    let deployer = state.deployer.clone();
    let status = warp::path!("deploy")
        .and(warp::get())
        .and(super::allowed(state.clone(), Cap::PostsPublishOwn))
        .and_then(move |_admin| {
            let deployer = deployer.clone();
            async move {
                let status = deployer.status().await.map_err(ApiError::Internal)?;
                Ok::<_, Rejection>(json(StatusCode::OK, &status))
            }
        });
    let deployer = state.deployer.clone();
    let retry = warp::path!("deploy" / "retry")
        .and(warp::post())
        .and(super::allowed(state, Cap::PostsPublishOwn))
        .and_then(move |_admin| {
            let deployer = deployer.clone();
            async move {
                if deployer.remote().is_none() {
                    return Err(Rejection::from(ApiError::Conflict(
                        "No deploy bucket is set up (DEPLOY_URL).".into(),
                    )));
                }
                deployer.retry_now().await.map_err(ApiError::Internal)?;
                // One pass before answering: staff see at once whether it went through.
                deployer.pass().await.map_err(ApiError::Internal)?;
                let status = deployer.status().await.map_err(ApiError::Internal)?;
                Ok::<_, Rejection>(json(StatusCode::OK, &status))
            }
        });
    let rebuilder = state_rebuilder;
    let behind = warp::path!("site-status")
        .and(warp::get())
        .and(allowed_status)
        .map(move |_admin| {
            json(
                StatusCode::OK,
                &serde_json::json!({ "failure": rebuilder.behind() }),
            )
        });
    status.or(retry).unify().or(behind).unify().boxed()
}
