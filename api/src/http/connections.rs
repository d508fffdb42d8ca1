//! Room for connections. Each open connection holds a file descriptor, and a client can
//! open many and send nothing: without a bound, a few hundred silent sockets use up the
//! process's descriptors and nobody else is let in. So:
//!
//! - the process raises its descriptor limit to the most it may at start ([`raise_fd_limit`]);
//! - connections are counted overall (the limit less a reserve for the database, uploads and
//!   pages) and per client address;
//! - when a new connection finds no room, the oldest connection that is not in the middle of
//!   a request (one that has sent nothing yet, or a kept-alive one between requests) is
//!   closed to make it; only when every connection is busy is the new one refused.
//!
//! Silent connections are also closed after [`FIRST_BYTE`] (see the server loop), so they
//! cannot pile up for long in the first place.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

/// How long a new connection may stay silent before it is closed.
pub const FIRST_BYTE: Duration = Duration::from_secs(10);
/// Descriptors kept free for everything that is not a client connection.
const RESERVE: usize = 64;

/// What one connection shares with the registry: whether it is busy, and the bell that
/// closes it.
#[derive(Default)]
pub struct Activity {
    in_flight: AtomicUsize,
    close: Notify,
}

impl Activity {
    /// A request has started on this connection; it is busy until the guard drops.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        Busy(self.clone())
    }

    /// Resolves when the registry closes this connection to make room.
    pub async fn closed(&self) {
        self.close.notified().await;
    }
}

pub struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

struct Open {
    ip: IpAddr,
    activity: Arc<Activity>,
}

#[derive(Default)]
struct Table {
    next: u64,
    /// By age: the lowest id is the oldest.
    open: BTreeMap<u64, Open>,
    per_address: HashMap<IpAddr, usize>,
}

impl Table {
    fn remove(&mut self, id: u64) -> Option<Open> {
        let open = self.open.remove(&id)?;
        if let Some(n) = self.per_address.get_mut(&open.ip) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&open.ip);
            }
        }
        Some(open)
    }

    /// Closes the oldest idle connection (from `ip` only, if given); false if none is idle.
    fn evict_oldest_idle(&mut self, ip: Option<IpAddr>) -> bool {
        let victim = self
            .open
            .iter()
            .find(|(_, o)| {
                ip.is_none_or(|ip| o.ip == ip) && o.activity.in_flight.load(Ordering::SeqCst) == 0
            })
            .map(|(id, _)| *id);
        match victim.and_then(|id| self.remove(id)) {
            Some(open) => {
                // notify_one keeps the bell rung if the task is not waiting yet.
                open.activity.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// The registry of open connections.
pub struct Connections {
    table: Mutex<Table>,
    total: usize,
    per_address: usize,
    /// Peers exempt from the per-address bound (our reverse proxies).
    exempt: Box<dyn Fn(IpAddr) -> bool + Send + Sync>,
}

/// A connection let in; it leaves the registry when this drops.
pub struct Admitted {
    id: u64,
    pub activity: Arc<Activity>,
    connections: Arc<Connections>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections.table.lock().unwrap().remove(self.id);
    }
}

impl Connections {
    /// Room for `total` connections, `per_address` from one address (but `exempt` ones).
    pub fn new(
        total: usize,
        per_address: usize,
        exempt: impl Fn(IpAddr) -> bool + Send + Sync + 'static,
    ) -> Arc<Connections> {
        Arc::new(Connections {
            table: Mutex::default(),
            total: total.max(1),
            per_address: per_address.max(1),
            exempt: Box::new(exempt),
        })
    }

    /// Sized from the process's descriptor limit: all of it but a reserve, a quarter of that
    /// for one address.
    pub fn for_fd_limit(
        fd_limit: usize,
        exempt: impl Fn(IpAddr) -> bool + Send + Sync + 'static,
    ) -> Arc<Connections> {
        let total = fd_limit.saturating_sub(RESERVE).max(16);
        Connections::new(total, (total / 4).max(8), exempt)
    }

    /// Lets a connection from `ip` in, closing an idle one to make room if needed; `None`
    /// when every connection that stands in the way is busy. The bound per address counts
    /// an IPv6 address's whole /64 (`http::network::limit_key`).
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Admitted> {
        let exempt = (self.exempt)(ip);
        // Counted by network: an IPv6 client holds a whole /64.
        let ip = crate::http::network::limit_key(ip);
        let mut table = self.table.lock().unwrap();
        if !exempt
            && table.per_address.get(&ip).copied().unwrap_or(0) >= self.per_address
            && !table.evict_oldest_idle(Some(ip))
        {
            return None;
        }
        if table.open.len() >= self.total && !table.evict_oldest_idle(None) {
            return None;
        }
        let id = table.next;
        table.next += 1;
        let activity = Arc::new(Activity::default());
        table.open.insert(
            id,
            Open {
                ip,
                activity: activity.clone(),
            },
        );
        *table.per_address.entry(ip).or_default() += 1;
        Some(Admitted {
            id,
            activity,
            connections: self.clone(),
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.table.lock().unwrap().open.len()
    }
}

/// Raises the soft limit on open files to the hard limit and returns the limit now in force.
pub fn raise_fd_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct we pass.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    usize::try_from(limit.rlim_cur)
        .unwrap_or(usize::MAX)
        .min(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        [10, 0, 0, last].into()
    }

    #[tokio::test]
    async fn a_full_house_closes_the_oldest_idle_connection_and_never_a_busy_one() {
        let conns = Connections::new(3, 2, |_| false);
        let first = conns.admit(ip(1)).unwrap();
        let _busy = first.activity.busy();
        let second = conns.admit(ip(2)).unwrap();
        let third = conns.admit(ip(3)).unwrap();
        // Full: the oldest idle one (the second; the first is busy) makes room.
        let fourth = conns.admit(ip(4)).unwrap();
        tokio::time::timeout(Duration::from_secs(1), second.activity.closed())
            .await
            .expect("the second connection is told to close");
        drop(second);
        assert_eq!(conns.open(), 3);
        // Everyone busy: refused.
        let _b3 = third.activity.busy();
        let _b4 = fourth.activity.busy();
        assert!(conns.admit(ip(5)).is_none());
        drop(first);
        drop(_busy);
        assert!(conns.admit(ip(5)).is_some());
    }

    #[tokio::test]
    async fn one_address_makes_room_among_its_own() {
        let conns = Connections::new(100, 2, |peer| peer == ip(9));
        let a = conns.admit(ip(1)).unwrap();
        let _b = conns.admit(ip(1)).unwrap();
        let _busy = a.activity.busy();
        let c = conns.admit(ip(1)).unwrap();
        assert_eq!(conns.open(), 3 - 1, "the idle one from that address went");
        let _bc = c.activity.busy();
        // Now both of its connections are busy: the address gets no more.
        assert!(conns.admit(ip(1)).is_none());
        assert!(conns.admit(ip(2)).is_some(), "others are let in");
        // A trusted proxy is not held to the per-address bound.
        let proxied: Vec<_> = (0..10).map(|_| conns.admit(ip(9)).unwrap()).collect();
        assert_eq!(proxied.len(), 10);
    }
}
