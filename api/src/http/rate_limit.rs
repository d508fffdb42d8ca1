//! Per-address limits on public form posts, so one client cannot flood the database, and
//! on donations, so nobody can use our form to test stolen cards.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// `n` posts a minute per (form, address), refilled steadily, with a burst of `n`.
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
        self.limiter.check_key(&(form, ip)).is_ok()
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

/// Limits on the donation routes. Card testers run many small charges from few machines, or
/// many cards against one donor identity; each setup that reaches Stripe counts against both
/// the address and the e-mail.
pub struct DonationLimiter {
    setups_by_ip: DefaultKeyedRateLimiter<IpAddr>,
    setups_by_email: DefaultKeyedRateLimiter<String>,
    lookups_by_ip: DefaultKeyedRateLimiter<IpAddr>,
    lookups_by_email: DefaultKeyedRateLimiter<String>,
}

impl DonationLimiter {
    /// `setups` payment setups and `lookups` status lookups per ten minutes.
    pub fn new(setups: u32, lookups: u32) -> Arc<DonationLimiter> {
        Arc::new(DonationLimiter {
            setups_by_ip: per_window(setups, DONATION_WINDOW),
            setups_by_email: per_window(setups, DONATION_WINDOW),
            lookups_by_ip: per_window(lookups, DONATION_WINDOW),
            lookups_by_email: per_window(lookups, DONATION_WINDOW),
        })
    }

    /// Whether a payment setup for `email` from `ip` may go ahead (and counts it if so).
    pub fn allow_setup(&self, ip: IpAddr, email: &str) -> bool {
        self.setups_by_ip.check_key(&ip).is_ok()
            && self.setups_by_email.check_key(&email.to_owned()).is_ok()
    }

    /// Whether `ip` may look up `email`'s totals now (and counts it if so): limited by
    /// address and by the donor asked about, so many machines cannot probe one person.
    pub fn allow_lookup(&self, ip: IpAddr, email: &str) -> bool {
        self.lookups_by_ip.check_key(&ip).is_ok()
            && self.lookups_by_email.check_key(&email.to_owned()).is_ok()
    }

    /// Forgets keys whose limits have fully refilled.
    pub fn forget_idle(&self) {
        self.setups_by_ip.retain_recent();
        self.setups_by_email.retain_recent();
        self.lookups_by_ip.retain_recent();
        self.lookups_by_email.retain_recent();
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
    fn donation_setups_count_against_the_address_and_the_email() {
        let limiter = DonationLimiter::new(2, 3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.allow_setup(a, "x@example.org"));
        assert!(limiter.allow_setup(a, "y@example.org"));
        assert!(
            !limiter.allow_setup(a, "z@example.org"),
            "the address is spent"
        );
        assert!(limiter.allow_setup(b, "x@example.org"));
        assert!(
            !limiter.allow_setup(b, "x@example.org"),
            "the e-mail is spent"
        );
        for i in 0..3 {
            assert!(limiter.allow_lookup(a, &format!("{i}@example.org")));
        }
        assert!(
            !limiter.allow_lookup(a, "new@example.org"),
            "the address is spent"
        );
        // Many addresses asking about one donor are limited too.
        for i in 0..3 {
            assert!(limiter.allow_lookup([10, 0, 1, i].into(), "one@example.org"));
        }
        assert!(
            !limiter.allow_lookup(b, "one@example.org"),
            "the donor is spent"
        );
    }
}
