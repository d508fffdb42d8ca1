//! The answers outside `/api` that the server makes itself: the blog's redirects, previews of
//! unsaved posts, the no-script forms' problem pages, and the admin app's shell.

pub(crate) mod admin_shell;
pub(crate) mod blog_pages;
pub mod form_problems;
pub mod previews;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use crate::state::AppState;

/// Every page the server answers itself, in the order they are tried.
pub fn routes(state: &AppState) -> BoxedFilter<(Response,)> {
    form_problems::routes(state.clone())
        .or(blog_pages::routes(state.clone()))
        .unify()
        .or(previews::routes(state.clone()))
        .unify()
        .or(admin_shell::routes(state.static_files.clone()))
        .unify()
        .boxed()
}
