//! `MAIL_RATE`: how fast posts go out to the list, in messages a second and an hour
//! (`50/s`, `20000/h`, or both: `50/s,20000/h`). Providers cap both (a new Amazon SES
//! account at 1 a second and 200 a day). Mail a person is waiting for (receipts, sign-in
//! codes) is never held back by it: it is few, and it goes first anyway.
//!
//! The hour's count is read from the database (what was sent in the hour before now, on
//! the one clock), so a restart does not start a new hour; the second's pacing is kept in
//! memory, where a restart costs at most one second's worth.

use std::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MailRate {
    pub per_second: Option<NonZeroU32>,
    pub per_hour: Option<NonZeroU32>,
}

impl MailRate {
    /// Reads `50/s`, `20000/h` or `50/s,20000/h`; none is unlimited.
    pub fn parse(input: Option<&str>) -> anyhow::Result<MailRate> {
        let mut rate = MailRate::default();
        let Some(input) = input.map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(rate);
        };
        let bad = || {
            anyhow::anyhow!(
                "MAIL_RATE must look like 50/s, 20000/h or 50/s,20000/h (whole numbers above 0)"
            )
        };
        for part in input.split(',') {
            let (count, unit) = part.trim().split_once('/').ok_or_else(bad)?;
            let count: NonZeroU32 = count.trim().parse().map_err(|_| bad())?;
            match unit.trim() {
                "s" if rate.per_second.is_none() => rate.per_second = Some(count),
                "h" if rate.per_hour.is_none() => rate.per_hour = Some(count),
                _ => return Err(bad()),
            }
        }
        Ok(rate)
    }

    /// The pacing of single messages, when there is a per-second rate.
    pub fn pacer(&self) -> Option<DefaultDirectRateLimiter> {
        self.per_second
            .map(|n| RateLimiter::direct(Quota::per_second(n).allow_burst(NonZeroU32::MIN)))
    }
}

#[cfg(test)]
mod tests {
    use super::MailRate;

    #[test]
    fn rates_read_per_second_per_hour_or_both() {
        let n = |v: u32| std::num::NonZeroU32::new(v);
        assert_eq!(MailRate::parse(None).unwrap(), MailRate::default());
        assert_eq!(MailRate::parse(Some("50/s")).unwrap().per_second, n(50));
        let both = MailRate::parse(Some(" 50/s , 20000/h ")).unwrap();
        assert_eq!((both.per_second, both.per_hour), (n(50), n(20000)));
        for bad in ["50", "0/s", "50/m", "50/s,60/s", "-1/h", "x/s"] {
            assert!(MailRate::parse(Some(bad)).is_err(), "{bad}");
        }
    }
}
