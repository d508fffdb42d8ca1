//! Per-address limits on public form posts, so one client cannot flood the database, and
//! on donations, so nobody can use our form to test stolen cards. An address is counted by
//! its network: an IPv4 address, or an IPv6 /64 ([`limit_key`]).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::http::network::limit_key;

/// `n` posts a minute per (form, network), refilled steadily, with a burst of `n`. A network
/// is an IPv4 address or an IPv6 /64 ([`limit_key`]).
pub struct FormLimiter {
    limiter: DefaultKeyedRateLimiter<(&'static str, IpAddr)>,
}

impl FormLimiter {
    pub fn per_minute(n: u32) -> Arc<FormLimiter> {
        let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Arc::new(FormLimiter {
            limiter: RateLimiter::keyed(Quota::per_minute(n)),
        })
    }

    /// Whether `ip` may post `form` now (and counts the post if so).
    pub fn allow(&self, form: &'static str, ip: IpAddr) -> bool {
        self.limiter.check_key(&(form, limit_key(ip))).is_ok()
    }

    /// Forgets addresses whose limits have fully refilled, so memory stays bounded.
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// `n` events per `window` for each key, refilled steadily, with a burst of `n`.
fn per_window<K: Clone + std::hash::Hash + Eq>(
    n: u32,
    window: Duration,
) -> DefaultKeyedRateLimiter<K> {
    let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    let quota = Quota::with_period(window / n.get())
        .expect("a window of at least a second")
        .allow_burst(n);
    RateLimiter::keyed(quota)
}

/// The window the donation limits count in.
pub const DONATION_WINDOW: Duration = Duration::from_secs(600);

/// Declines one network may cause in [`DONATION_WINDOW`] before it may set up no more
/// payments (a card tester's declines; a donor whose card is refused tries two or three).
pub const DECLINES_ALLOWED: usize = 3;

/// Limits on the donation routes, keyed only on what a card tester cannot spread: the
/// network the requests come from (an IPv4 address, an IPv6 /64) and the declines it has
/// caused. Never on a donor's e-mail: anyone can type it, and a bucket for it would let a
/// stranger use up the donor's own attempts.
pub struct DonationLimiter {
    setups_by_net: DefaultKeyedRateLimiter<IpAddr>,
    lookups_by_net: DefaultKeyedRateLimiter<IpAddr>,
    declines: Mutex<Declines>,
}

/// Which network set up each recent gift, and the declines each network caused.
#[derive(Default)]
struct Declines {
    set_up_by: HashMap<i64, (IpAddr, Instant)>,
    by_net: HashMap<IpAddr, VecDeque<Instant>>,
}

impl Declines {
    fn recent(&mut self, net: IpAddr) -> usize {
        let window = DONATION_WINDOW;
        match self.by_net.get_mut(&net) {
            Some(times) => {
                while times.front().is_some_and(|t| t.elapsed() >= window) {
                    times.pop_front();
                }
                times.len()
            }
            None => 0,
        }
    }
}

impl DonationLimiter {
    /// `setups` payment setups and `lookups` status lookups per ten minutes.
    pub fn new(setups: u32, lookups: u32) -> Arc<DonationLimiter> {
        Arc::new(DonationLimiter {
            setups_by_net: per_window(setups, DONATION_WINDOW),
            lookups_by_net: per_window(lookups, DONATION_WINDOW),
            declines: Mutex::default(),
        })
    }

    fn declines(&self) -> std::sync::MutexGuard<'_, Declines> {
        self.declines.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a payment setup from `ip` may go ahead (and counts it if so): refused when its
    /// network has set up too many lately, or had [`DECLINES_ALLOWED`] payments declined.
    pub fn allow_setup(&self, ip: IpAddr) -> bool {
        let net = limit_key(ip);
        self.declines().recent(net) < DECLINES_ALLOWED && self.setups_by_net.check_key(&net).is_ok()
    }

    /// Remembers that `ip` set up gift `gift`, so a decline of its payment counts against
    /// that network.
    pub fn set_up(&self, gift: i64, ip: IpAddr) {
        self.declines()
            .set_up_by
            .insert(gift, (limit_key(ip), Instant::now()));
    }

    /// The payment of gift `gift` was declined: it counts against the network that set it up.
    pub fn declined(&self, gift: i64) {
        let mut declines = self.declines();
        if let Some((net, _)) = declines.set_up_by.get(&gift).copied() {
            declines
                .by_net
                .entry(net)
                .or_default()
                .push_back(Instant::now());
        }
    }

    /// Whether `ip` may look up a donor's totals now (and counts it if so).
    pub fn allow_lookup(&self, ip: IpAddr) -> bool {
        self.lookups_by_net.check_key(&limit_key(ip)).is_ok()
    }

    /// Forgets keys whose limits have fully refilled, and gifts set up long ago.
    pub fn forget_idle(&self) {
        self.setups_by_net.retain_recent();
        self.lookups_by_net.retain_recent();
        let mut declines = self.declines();
        // A payment is declined within minutes of its set-up, or not at all (an unpaid gift
        // expires after ten): an hour is plenty.
        declines
            .set_up_by
            .retain(|_, (_, at)| at.elapsed() < Duration::from_secs(3600));
        let nets: Vec<IpAddr> = declines.by_net.keys().copied().collect();
        for net in nets {
            if declines.recent(net) == 0 {
                declines.by_net.remove(&net);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_each_address_and_form_separately() {
        let limiter = FormLimiter::per_minute(2);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.allow("newsletter", a));
        assert!(limiter.allow("newsletter", a));
        assert!(!limiter.allow("newsletter", a));
        assert!(limiter.allow("newsletter", b));
        assert!(limiter.allow("contact", a));
    }

    #[test]
    fn donation_limits_count_networks_and_declines_never_an_e_mail() {
        let limiter = DonationLimiter::new(2, 3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.allow_setup(a));
        assert!(limiter.allow_setup(a));
        assert!(!limiter.allow_setup(a), "the address is spent");
        assert!(limiter.allow_setup(b));
        // An IPv6 network is one client, whichever address of its /64 it uses.
        let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 5, 5, 0, 0, 0, last]);
        assert!(limiter.allow_setup(v6(1)));
        assert!(limiter.allow_setup(v6(2)));
        assert!(!limiter.allow_setup(v6(3)), "the /64 is spent");
        assert!(limiter.allow_setup(IpAddr::from([0x2001, 0xdb8, 5, 6, 0, 0, 0, 1])));
        for _ in 0..3 {
            assert!(limiter.allow_lookup(v6(9)));
        }
        assert!(!limiter.allow_lookup(v6(10)));
        // Declines close a network to set-ups, and only that network.
        let limiter = DonationLimiter::new(100, 100);
        for gift in 0..DECLINES_ALLOWED as i64 {
            limiter.set_up(gift, a);
            assert!(limiter.allow_setup(a));
            limiter.declined(gift);
        }
        assert!(!limiter.allow_setup(a), "declined too often");
        assert!(limiter.allow_setup(b));
        limiter.declined(999); // a gift nobody here set up: nothing to count
        assert!(limiter.allow_setup(b));
    }
}
