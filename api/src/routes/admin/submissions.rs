//! What visitors sent: contact messages, volunteer signups and newsletter signups. Staff
//! list, export and delete them; each kind is described once in [`KINDS`].

use std::sync::Arc;

use generator::config::SiteConfig;
use rusqlite::types::Value as SqlValue;
use serde_json::{Map, Value, json};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::downloads;
use super::{json, success};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::export::{self, Sheet};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::parse_id;
use crate::state::AppState;
use crate::store::db::Db;

/// One stored field: its column, its key on the wire, its heading in the export.
struct Column {
    sql: &'static str,
    /// What the export reads instead of `sql`, when it differs.
    exported: Option<&'static str>,
    key: &'static str,
    heading: &'static str,
    /// A UTC time: shown in the party's time zone in exports.
    time: bool,
}

const fn text(sql: &'static str, key: &'static str, heading: &'static str) -> Column {
    Column {
        sql,
        exported: None,
        key,
        heading,
        time: false,
    }
}

const fn time(sql: &'static str, key: &'static str, heading: &'static str) -> Column {
    Column {
        time: true,
        ..text(sql, key, heading)
    }
}

/// The phone number: staff see it, but a number that said stop to texts leaves the
/// exports (which feed texting and calling tools) at once.
const PHONE: Column = Column {
    exported: Some(
        "CASE WHEN (SELECT s.action FROM sms_state s WHERE s.phone = phone_e164) = 'revoked' \
         THEN NULL ELSE phone END",
    ),
    ..text("phone", "phone", "Phone")
};

/// A kind of submission.
struct Kind {
    /// `/api/admin/{path}` and the export's file name.
    path: &'static str,
    table: &'static str,
    /// For messages: "There is no {noun} {id}."
    noun: &'static str,
    /// The audit log's target prefix.
    target: &'static str,
    /// Every column but `id`, in display order.
    columns: &'static [Column],
}

const KINDS: [Kind; 3] = [
    Kind {
        path: "contacts",
        table: "contact_messages",
        noun: "contact submission",
        target: "contact",
        columns: &[
            text("name", "name", "Name"),
            text("email", "email", "Email"),
            text("subject", "subject", "Subject"),
            text("message", "message", "Message"),
            time("created_at", "createdAt", "Date"),
        ],
    },
    Kind {
        path: "volunteers",
        table: "volunteer_signups",
        noun: "volunteer signup",
        target: "volunteer",
        columns: &[
            text("name", "name", "Name"),
            text("email", "email", "Email"),
            PHONE,
            text("zip_code", "zipCode", "ZIP Code"),
            text("interests", "interests", "Areas of Interest"),
            time("created_at", "createdAt", "Date"),
        ],
    },
    Kind {
        path: "newsletters",
        table: "newsletter_signups",
        noun: "newsletter signup",
        target: "newsletter",
        columns: &[
            text("email", "email", "Email"),
            PHONE,
            text("zip_code", "zipCode", "ZIP Code"),
            time("created_at", "createdAt", "Date"),
            time("updated_at", "updatedAt", "Updated"),
            // Double opt-in: Pending, Confirmed or Unsubscribed, and when.
            text(
                "upper(substr(status, 1, 1)) || substr(status, 2)",
                "status",
                "Status",
            ),
            time("confirmed_at", "confirmedAt", "Confirmed At"),
            time("unsubscribed_at", "unsubscribedAt", "Unsubscribed At"),
            // Texts: only a ticked box is consent; a number given without it is for contact.
            text(
                "CASE WHEN phone_e164 IS NULL THEN NULL ELSE coalesce((SELECT CASE s.action \
                 WHEN 'granted' THEN 'Consented' ELSE 'Opted out' END FROM sms_state s \
                 WHERE s.phone = phone_e164), 'No consent') END",
                "texts",
                "Text Consent",
            ),
            time(
                "(SELECT s.at FROM sms_state s WHERE s.phone = phone_e164)",
                "textsChangedAt",
                "Text Consent Changed At",
            ),
        ],
    },
];

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let mut all: Option<BoxedFilter<(Response,)>> = None;
    for kind in &KINDS {
        let group = kind_routes(kind, state.clone());
        all = Some(match all {
            None => group,
            Some(before) => before.or(group).unify().boxed(),
        });
    }
    all.expect("there are kinds")
}

fn kind_routes(kind: &'static Kind, state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::allowed(state.clone(), cap);
    let (db, site) = (state.db.clone(), state.site.clone());
    let list = warp::path(kind.path)
        .and(warp::path::end())
        .and(warp::get())
        .and(admin(Cap::SubmissionsRead))
        .and_then({
            let db = db.clone();
            move |admin: Admin| list(db.clone(), kind, admin)
        });
    let export = warp::path(kind.path)
        .and(warp::path!("export"))
        .and(warp::get())
        .and(admin(Cap::SubmissionsExport))
        .and_then({
            let db = db.clone();
            move |admin: Admin| export(db.clone(), site.clone(), kind, admin)
        });
    let delete = warp::path(kind.path)
        .and(warp::path::param::<String>())
        .and(warp::path::end())
        .and(warp::delete())
        .and(admin(Cap::SubmissionsDelete))
        .and_then(move |id: String, admin| delete(db.clone(), kind, admin, id));
    list.or(export).unify().or(delete).unify().boxed()
}

/// Every row, newest first, as `(id, values in column order)`; `exported` reads what the
/// export shows.
async fn rows(
    db: &Db,
    kind: &'static Kind,
    exported: bool,
) -> Result<Vec<(i64, Vec<Option<String>>)>, ApiError> {
    let columns: Vec<&str> = kind
        .columns
        .iter()
        .map(|c| c.exported.filter(|_| exported).unwrap_or(c.sql))
        .collect();
    // Table and column names are constants above; nothing here comes from the request.
    let sql = format!(
        "SELECT id, {} FROM {} ORDER BY created_at DESC, id DESC",
        columns.join(", "),
        kind.table
    );
    db.read(move |c| {
        let mut stmt = c.prepare(&sql)?;
        stmt.query_map([], |r| {
            let values = (1..=columns.len())
                .map(|i| match r.get::<_, SqlValue>(i)? {
                    SqlValue::Null => Ok(None),
                    SqlValue::Integer(n) => Ok(Some(n.to_string())),
                    SqlValue::Real(n) => Ok(Some(n.to_string())),
                    SqlValue::Text(t) => Ok(Some(t)),
                    SqlValue::Blob(_) => Ok(None),
                })
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((r.get(0)?, values))
        })?
        .collect()
    })
    .await
    .map_err(ApiError::from)
}

/// GET /api/admin/{contacts|volunteers|newsletters}: every row, newest first.
async fn list(db: Db, kind: &'static Kind, admin: Admin) -> Result<Response, Rejection> {
    let rows = rows(&db, kind, false).await?;
    audit::record_access(&db, Action::View, kind.path, admin.by()).await?;
    let items: Vec<Value> = rows
        .into_iter()
        .map(|(id, values)| {
            let mut object = Map::new();
            object.insert("id".into(), json!(id));
            for (column, value) in kind.columns.iter().zip(values) {
                object.insert(column.key.into(), json!(value));
            }
            Value::Object(object)
        })
        .collect();
    Ok(json(StatusCode::OK, &items))
}

/// GET /api/admin/{contacts|volunteers|newsletters}/export: the same rows as CSV.
async fn export(
    db: Db,
    site: Arc<SiteConfig>,
    kind: &'static Kind,
    admin: Admin,
) -> Result<Response, Rejection> {
    let found = rows(&db, kind, true).await?;
    audit::record_access(&db, Action::Export, kind.path, admin.by()).await?;
    let rows = found
        .into_iter()
        .map(|(id, values)| {
            std::iter::once(id.to_string())
                .chain(kind.columns.iter().zip(values).map(|(column, value)| {
                    if column.time {
                        export::local_time(&site, value.as_deref())
                    } else {
                        value.unwrap_or_default()
                    }
                }))
                .collect()
        })
        .collect();
    let sheet = Sheet {
        kind: kind.path,
        headers: std::iter::once("ID")
            .chain(kind.columns.iter().map(|c| c.heading))
            .collect(),
        rows,
    };
    Ok(downloads::response(&site, &sheet)?)
}

/// DELETE /api/admin/{contacts|volunteers|newsletters}/{id}
async fn delete(
    db: Db,
    kind: &'static Kind,
    admin: Admin,
    id: String,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    let sql = format!("DELETE FROM {} WHERE id = ?1", kind.table);
    let target = format!("{}:{id}", kind.target);
    let deleted = db
        .write(move |tx| {
            let n = tx.execute(&sql, [id])?;
            if n > 0 {
                audit::record(tx, Action::Delete, Some(&target), admin.by())?;
            }
            Ok(n > 0)
        })
        .await?;
    if !deleted {
        return Err(ApiError::NotFound(format!("There is no {} {id}.", kind.noun)).into());
    }
    // Gone from the files too, not only from the table.
    if let Err(e) = db.forget_deleted().await {
        tracing::warn!(error = %e, "a deleted row may stay in the database's log until the next checkpoint");
    }
    Ok(success())
}
