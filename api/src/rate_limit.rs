//! Per-address limits on public form posts, so one client cannot flood the database.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

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
}
