//! Every route group, combined under `/api`.

pub mod admin;
pub mod blogs;
pub mod contact;
pub mod donations;
pub mod events;
mod mail_complaints;
pub mod monthly;
pub mod newsletter;
pub mod openapi;
pub mod stripe_webhook;
mod submission;
pub mod volunteer;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use crate::state::AppState;

/// All routes below `/api/` (the caller adds the prefix).
pub fn api(state: AppState) -> BoxedFilter<(Response,)> {
    newsletter::routes(state.clone())
        .or(contact::routes(state.clone()))
        .unify()
        .or(volunteer::routes(state.clone()))
        .unify()
        .or(events::routes(state.clone()))
        .unify()
        .or(admin::routes(state.clone()))
        .unify()
        .or(donations::routes(state.clone()))
        .unify()
        .or(monthly::routes(state.clone()))
        .unify()
        .or(stripe_webhook::routes(state.clone()))
        .unify()
        .or(mail_complaints::routes(state.clone()))
        .unify()
        .or(blogs::routes(state.db.clone()))
        .unify()
        .or(openapi::routes())
        .unify()
        .boxed()
}
